package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"grundy/engine"
	"grundy/engine/remote"
	"grundy/kernel"
)

func init() {
	register("kernel", "serve one Jupyter session (Jupyter runs this)", runKernel)
	registerHidden(remote.ChildCommand, remote.Main)
}

// ReplayEnv turns replay after a crash off: GRUNDY_REPLAY=off (or 0, no,
// false) in the kernel's environment, e.g. kernel.json's "env".
const replayEnv = "GRUNDY_REPLAY"

func runKernel(args []string) error {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		return errors.New("usage: grundy kernel CONNECTION_FILE\n\nJupyter starts this with the connection file it wrote; run 'grundy install' so it can.")
	}
	ci, err := kernel.ReadConnectionFile(args[0])
	if err != nil {
		return err
	}
	cfg := kernel.Config{
		Conn: ci,
		NewSession: func() (engine.Session, error) {
			s := remote.NewSupervisor(remote.SupervisorOptions{NoReplay: !replayOn()})
			// With the engine in its own process, this one only relays
			// messages; a second P would only wake, at every message, to
			// look for work there is none of. (Set once the engine process
			// is started, so the start-up still overlaps answering
			// kernel_info.)
			runtime.GOMAXPROCS(1)
			return s, nil
		},
		Version: version,
	}
	cfg.MaxCellOutput = maxCellOutput()
	err = kernel.Run(context.Background(), cfg)
	if err != nil {
		return fmt.Errorf("serving %s: %w", args[0], err)
	}
	return nil
}

// maxCellOutput reads GRUNDY_MAX_CELL_OUTPUT, the bytes of text one cell
// may print before the rest is cut off (the kernel's and grundy run's
// default when 0).
func maxCellOutput() int {
	s := os.Getenv("GRUNDY_MAX_CELL_OUTPUT")
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		fmt.Fprintf(os.Stderr, "grundy: ignoring GRUNDY_MAX_CELL_OUTPUT=%q: want a number of bytes\n", s)
		return 0
	}
	return n
}

// replayOn reads GRUNDY_REPLAY.
func replayOn() bool {
	switch os.Getenv(replayEnv) {
	case "off", "0", "no", "false":
		return false
	}
	return true
}

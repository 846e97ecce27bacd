package kernel

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"

	"grundy/engine"
	"grundy/engine/remote"
)

// ServeCommand is `grundy kernel CONNECTION_FILE`: serve one Jupyter
// session, its cells in a supervised engine process. version names the
// build in kernel_info.
func ServeCommand(args []string, version string) error {
	const usage = "usage: grundy kernel CONNECTION_FILE\n\nJupyter starts this with the connection file it wrote; run 'grundy install' so it can."
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprintln(os.Stderr, usage)
		return flag.ErrHelp
	}
	if len(args) != 1 {
		return errors.New(usage)
	}
	ci, err := ReadConnectionFile(args[0])
	if err != nil {
		return err
	}
	cfg := Config{
		Conn: ci,
		NewSession: func() (engine.Session, error) {
			s := remote.NewSupervisor(remote.SupervisorOptions{NoReplay: !remote.ReplayFromEnv()})
			// With the engine in its own process, this one only relays
			// messages; a second P would only wake, at every message, to
			// look for work there is none of. (Set once the engine process
			// is started, so the start-up still overlaps answering
			// kernel_info.)
			runtime.GOMAXPROCS(1)
			return s, nil
		},
		Version:       version,
		MaxCellOutput: remote.MaxCellOutputFromEnv(),
	}
	if err := Run(context.Background(), cfg); err != nil {
		return fmt.Errorf("serving %s: %w", args[0], err)
	}
	return nil
}

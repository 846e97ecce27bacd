package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"grundy/engine"
	"grundy/kernel"
)

func init() {
	register("kernel", "serve one Jupyter session (Jupyter runs this)", runKernel)
}

func runKernel(args []string) error {
	if len(args) != 1 || args[0] == "-h" || args[0] == "--help" {
		return errors.New("usage: grundy kernel CONNECTION_FILE\n\nJupyter starts this with the connection file it wrote; run 'grundy install' so it can.")
	}
	ci, err := kernel.ReadConnectionFile(args[0])
	if err != nil {
		return err
	}
	cfg := kernel.Config{
		Conn:       ci,
		NewSession: engine.New,
		Version:    version,
	}
	if s := os.Getenv("GRUNDY_MAX_CELL_OUTPUT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "grundy kernel: ignoring GRUNDY_MAX_CELL_OUTPUT=%q: want a number of bytes\n", s)
		} else {
			cfg.MaxCellOutput = n
		}
	}
	err = kernel.Run(context.Background(), cfg)
	if err != nil {
		return fmt.Errorf("serving %s: %w", args[0], err)
	}
	return nil
}

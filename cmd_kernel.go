package main

import (
	"context"
	"errors"
	"fmt"

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
	err = kernel.Run(context.Background(), kernel.Config{
		Conn:       ci,
		NewSession: engine.New,
		Version:    version,
	})
	if err != nil {
		return fmt.Errorf("serving %s: %w", args[0], err)
	}
	return nil
}

package main

import (
	"flag"
	"fmt"
	"os"

	"grundy/kernel"
)

func init() {
	register("install", "install the Jupyter kernelspec \"grundy\"", runInstall)
}

func runInstall(args []string) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	user := fs.Bool("user", false, "install for the current user (the default): $JUPYTER_DATA_DIR or ~/.local/share/jupyter")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels/grundy instead")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: grundy install [--user | --prefix DIR]\n\nWrites the kernelspec \"grundy\" and copies this binary next to it.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q; usage: grundy install [--user | --prefix DIR]", fs.Arg(0))
	}
	if *user && *prefix != "" {
		return fmt.Errorf("--user and --prefix exclude each other; pick one")
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the running grundy binary: %w", err)
	}
	dir, err := kernel.Install(kernel.InstallOptions{Prefix: *prefix, Binary: exe, Version: version})
	if err != nil {
		return err
	}
	fmt.Print(kernel.InstallMessage(dir))
	return nil
}

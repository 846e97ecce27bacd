package kernel

import (
	"flag"
	"fmt"
	"os"

	"grundy/engine/remote"
)

// InstallCommand is `grundy install`: the kernelspec "grundy", with this
// binary copied beside it, for the user or under a prefix. version names
// the build in the installed library reference.
func InstallCommand(args []string, version string) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	user := fs.Bool("user", false, "install for the current user (the default): $JUPYTER_DATA_DIR or ~/.local/share/jupyter")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels/grundy instead")
	noReplay := fs.Bool("no-replay", false, "after the engine process crashes, start sessions empty instead of replaying the cells that succeeded")
	memory := fs.String("memory-limit", "", "cap each session's memory at `SIZE` (e.g. 4GiB; default: half the machine's memory)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: grundy install [--user | --prefix DIR] [--no-replay] [--memory-limit SIZE]\n\nWrites the kernelspec \"grundy\" and copies this binary next to it.\n\n")
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
	env := map[string]string{}
	if *noReplay {
		env[remote.ReplayEnv] = "off"
	}
	if *memory != "" {
		if _, err := remote.ParseMemoryLimit(*memory); err != nil {
			return fmt.Errorf("--memory-limit %s: %v", *memory, err)
		}
		env[remote.MemoryLimitEnv] = *memory
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the running grundy binary: %w", err)
	}
	dir, err := Install(InstallOptions{Prefix: *prefix, Binary: exe, Version: version, Env: env, Log: os.Stdout})
	if err != nil {
		return err
	}
	fmt.Print(InstallMessage(dir))
	return nil
}

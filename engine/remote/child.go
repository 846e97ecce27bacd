package remote

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"

	"grundy/stdlib/solve"
)

// ChildCommand is the hidden subcommand that runs an engine process.
const ChildCommand = "engine-process"

// childConfig is what the parent tells a new engine process, as the one
// argument after ChildCommand.
type childConfig struct {
	Name        string   `json:"name,omitempty"`
	Args        []string `json:"args,omitempty"`
	MemoryLimit int64    `json:"memory_limit,omitempty"`
}

func parseChildConfig(args []string) (childConfig, error) {
	var cfg childConfig
	if len(args) != 1 {
		return cfg, fmt.Errorf("usage: grundy %s CONFIG (the kernel starts this; it is not for use by hand)", ChildCommand)
	}
	if err := json.Unmarshal([]byte(args[0]), &cfg); err != nil {
		return cfg, fmt.Errorf("%s: bad configuration: %v", ChildCommand, err)
	}
	return cfg, nil
}

// prepareChild sets up the engine process before the interpreter loads:
// interrupts come as frames, not signals, and the memory limit holds.
func prepareChild(cfg childConfig) {
	// A terminal's Ctrl-C and Jupyter's interrupt_mode "signal" send
	// SIGINT to the whole process group; the parent turns it into an
	// interrupt of the cell, which must not be this process's death. So
	// are SIGTERM and SIGHUP to the group (timeout(1), a closed terminal):
	// grundy run stops the cell and writes what it has. This process
	// still ends with its parent (Pdeathsig), however the parent ends.
	signal.Ignore(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	// If the system's OOM killer must act after all, let it pick the
	// engine, which the kernel replaces, rather than the kernel.
	_ = os.WriteFile("/proc/self/oom_score_adj", []byte("1000"), 0)
	if cfg.MemoryLimit > 0 {
		applyMemoryLimit(cfg.MemoryLimit)
	}
}

// maxStack is the engine's stack limit per goroutine, unless a quarter of
// the memory limit is less.
const maxStack = 1 << 30

// applyMemoryLimit makes limit hold three ways: the garbage collector
// works to stay below it, the library refuses tables that would pass it,
// and the address space is capped a little above it, so that a cell
// allocating without end fails here, as "out of memory", before the
// machine swaps or the system's OOM killer steps in.
func applyMemoryLimit(limit int64) {
	debug.SetMemoryLimit(limit)
	solve.MemoryLimit = limit
	// Go's own stack limit, 1 GiB: a small interpreted function recursing
	// a million calls deep fits (an interpreted call takes several
	// hundred bytes of stack, a compiled one tens), as it does in Go; a
	// method or a closure, called through reflect's function wrapper
	// (about 3.5 KB a call), 250,000.
	// 256 MiB stopped it between 300,000 and 450,000 calls, and called it
	// endless. A runaway recursion takes about four times as long to be
	// reported (a few seconds). A quarter of the memory limit caps it, so
	// that it stays inside that limit and is reported as what it is.
	debug.SetMaxStack(int(min(maxStack, max(64<<20, limit/4))))
	if vm := vmSize(); vm > 0 {
		// What the runtime has reserved so far (mostly address space
		// without memory behind it), plus the limit, plus room for
		// thread stacks and fragmentation.
		as := uint64(vm + limit + 512<<20 + limit/8)
		_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as})
	}
}

// vmSize is this process's virtual memory size in bytes, 0 if unknown.
func vmSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

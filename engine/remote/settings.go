package remote

import (
	"fmt"
	"os"
	"strconv"
)

// Session settings a user gives through the environment: kernel.json's
// "env" for the kernel (grundy install --no-replay writes one), the shell
// for grundy run. The memory limit's is in limits.go.

// ReplayEnv turns replay after a crash off: GRUNDY_REPLAY=off (or 0, no,
// false).
const ReplayEnv = "GRUNDY_REPLAY"

// ReplayFromEnv reports whether a crashed session is rebuilt by replaying
// its cells (the default).
func ReplayFromEnv() bool {
	switch os.Getenv(ReplayEnv) {
	case "off", "0", "no", "false":
		return false
	}
	return true
}

// MaxCellOutputEnv is the bytes of text one cell may print before the
// rest is cut off, in the kernel and in notebooks grundy run writes.
const MaxCellOutputEnv = "GRUNDY_MAX_CELL_OUTPUT"

// MaxCellOutputFromEnv reads MaxCellOutputEnv; 0 (the default cap) when
// it is unset or not a number of bytes, which is said on stderr.
func MaxCellOutputFromEnv() int {
	s := os.Getenv(MaxCellOutputEnv)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		fmt.Fprintf(os.Stderr, "grundy: ignoring %s=%q: want a number of bytes\n", MaxCellOutputEnv, s)
		return 0
	}
	return n
}

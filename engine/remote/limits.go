package remote

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"grundy/stdlib/solve"
)

// MemoryLimitEnv overrides the session's memory limit: bytes, or a number
// with a unit (512MiB, 4GiB, 2GB).
const MemoryLimitEnv = "GRUNDY_MEMORY_LIMIT"

// DefaultMemoryLimit is the session's memory limit: GRUNDY_MEMORY_LIMIT
// when set, else the library's default, solve.MemoryLimit (half the
// machine's memory, or of the container's cgroup limit when less).
func DefaultMemoryLimit() int64 {
	if s := os.Getenv(MemoryLimitEnv); s != "" {
		if n, err := ParseSize(s); err == nil && n > 0 {
			return n
		}
		fmt.Fprintf(os.Stderr, "grundy: ignoring %s=%q: want a size such as 4GiB\n", MemoryLimitEnv, s)
	}
	return solve.MemoryLimit
}

// ParseSize reads a byte count: 1048576, 512MiB, 4GiB, 2GB, 1.5G.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("%q is not a size: write bytes or a number with a unit, such as 4GiB", s)
	}
	mult := map[string]float64{"": 1, "b": 1,
		"k": 1 << 10, "kb": 1e3, "kib": 1 << 10,
		"m": 1 << 20, "mb": 1e6, "mib": 1 << 20,
		"g": 1 << 30, "gb": 1e9, "gib": 1 << 30,
		"t": 1 << 40, "tb": 1e12, "tib": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q (use KiB, MiB, GiB or TiB)", s, unit)
	}
	return int64(f * mult), nil
}

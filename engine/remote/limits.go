package remote

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"grundy/stdlib/human"
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
		n, err := ParseMemoryLimit(s)
		if err == nil {
			return n
		}
		fmt.Fprintf(os.Stderr, "grundy: ignoring %s: %v\n", MemoryLimitEnv, err)
	}
	return solve.MemoryLimit
}

// MinMemoryLimit is the least memory limit a session is given: the
// engine process alone holds about 20 MiB, so a limit below this is a
// unit left out (--memory-limit 8, meant as 8GiB), not a wish.
const MinMemoryLimit = 64 << 20

// ParseMemoryLimit reads a session's memory limit (ParseSize), refusing
// one too small to run a session in.
func ParseMemoryLimit(s string) (int64, error) {
	n, err := ParseSize(s)
	if err != nil {
		return 0, err
	}
	if n < MinMemoryLimit {
		msg := human.Bytes(n) + " is too little for a session (at least 64 MiB)"
		if t := strings.TrimSpace(s); strings.Trim(t, "0123456789.") == "" {
			msg += "; give the unit: " + t + "GiB or " + t + "MiB"
		}
		return 0, errors.New(msg)
	}
	return n, nil
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

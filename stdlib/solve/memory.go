package solve

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"

	"grundy/stdlib/human"
)

// roomFor checks that need more bytes fit under MemoryLimit beside what the
// session already holds: the limit covers the whole session, the cached
// tables included, not one table at a time. Garbage is collected, and the
// cache given up (its tables come back from the disk cache, or are solved
// again when asked for), before it says no.
func roomFor(need int64, what string) error {
	if heapInUse()+need <= MemoryLimit {
		return nil
	}
	runtime.GC()
	if heapInUse()+need <= MemoryLimit {
		return nil
	}
	ClearCache()
	runtime.GC()
	used := heapInUse()
	if used+need <= MemoryLimit {
		return nil
	}
	return fmt.Errorf("%s needs %s of memory, but the session already holds %s of its %s limit (solve.MemoryLimit); set variables holding tables you no longer need to nil, or raise the limit",
		what, human.Bytes(need), human.Bytes(used), human.Bytes(MemoryLimit))
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// heapInUse is the memory held by Go objects, garbage not yet collected
// included.
func heapInUse() int64 {
	metrics.Read(heapSample)
	if heapSample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(heapSample[0].Value.Uint64())
}

// totalMemory is the memory this process could have to itself: the
// machine's, or less if the process's cgroup (a container, a systemd
// slice) allows less. It is a property of the machine, not of the moment:
// what happens to be free changes with every other program, and a limit
// taken from it differed from run to run.
func totalMemory() int64 {
	total := memTotal()
	if limit, ok := cgroupMemory("/proc/self/cgroup", "/sys/fs/cgroup"); ok && limit < total {
		total = limit
	}
	return total
}

func memTotal() int64 {
	const fallback = 8 << 30
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return fallback
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil && kb > 0 {
				return kb * 1024
			}
		}
	}
	return fallback
}

// cgroupMemory reads the tightest memory limit on the path from this
// process's cgroup up to the root (cgroup v2: memory.max; v1:
// memory.limit_in_bytes). ok is false when no limit is set.
func cgroupMemory(procCgroup, root string) (limit int64, ok bool) {
	data, err := os.ReadFile(procCgroup)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// hierarchy-ID:controllers:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dirs []string
		var maxFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs = []string{root, filepath.Join(root, "unified")}
			maxFile = "memory.max"
		case hasController(parts[1], "memory"):
			dirs = []string{filepath.Join(root, "memory")}
			maxFile = "memory.limit_in_bytes"
		default:
			continue
		}
		for _, base := range dirs {
			for p := filepath.Join(base, parts[2]); ; p = filepath.Dir(p) {
				if l, err := readBytesFile(filepath.Join(p, maxFile)); err == nil && l > 0 && l < 1<<60 && (!ok || l < limit) {
					limit, ok = l, true
				}
				if p == base || len(p) <= len(base) {
					break
				}
			}
		}
	}
	return limit, ok
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// readBytesFile reads a cgroup file holding one number ("max" is no limit).
func readBytesFile(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return 0, nil
	}
	return strconv.ParseInt(s, 10, 64)
}

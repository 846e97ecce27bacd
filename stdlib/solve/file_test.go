package solve

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"grundy/stdlib/games"
)

// Every byte of a saved table is covered: header (game, kind, bounds,
// timing) as well as the entries.
func TestLoadRefusesAnyFlippedByte(t *testing.T) {
	for _, k := range []Kind{KindValues, KindOutcomes} {
		tab, err := Solve(games.CN(4, 2), k, 2)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "t.tbl")
		if err := tab.Save(path); err != nil {
			t.Fatal(err)
		}
		good, _ := os.ReadFile(path)
		bad := filepath.Join(dir, "bad.tbl")
		for i := range good {
			data := slices.Clone(good)
			data[i] ^= 0x04
			if err := os.WriteFile(bad, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if got, err := Load(bad); err == nil {
				t.Fatalf("%s: byte %d of %d flipped (%q), Load accepted it: %v", k, i, len(good), good[max(0, i-10):min(len(good), i+10)], got)
			}
		}
	}
}

// A table of a games.Func that borrowed a library game's name loads, but
// never stands in for that game in the cache.
func TestLoadDoesNotPoisonTheCache(t *testing.T) {
	ClearCache()
	defer ClearCache()
	impostor := games.Func("CN(4,2)", 4, func(p games.Pos) []games.Pos { return nil }) // no moves: every value 0
	tab, err := Values(impostor, 2)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "impostor.tbl")
	if err := tab.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game() != nil {
		t.Errorf("the impostor's table claims the game %v", back.Game())
	}
	real, err := Values(games.CN(4, 2), 2)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := Plain(games.CN(4, 2), KindValues, 2)
	if !slices.Equal(real.Counts(), plain.Counts()) {
		t.Errorf("CN(4,2) after loading the impostor: counts %v, want %v", real.Counts(), plain.Counts())
	}
}

// Save follows a symbolic link to its target, keeps the target's
// permissions, and leaves no temporary file behind.
func TestSaveThroughSymlinkKeepsPermissions(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.tbl")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.tbl")
	if err := os.Symlink("real.tbl", link); err != nil {
		t.Fatal(err)
	}
	tab, _ := Values(games.Nim(2), 3)
	if err := tab.Save(link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
		t.Errorf("target mode %v, want 0600", fi.Mode().Perm())
	}
	if back, err := Load(target); err != nil || back.At(3, 3) != 0 {
		t.Errorf("loading the target: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
}

// The memory limit covers what the session holds, not one table: a table
// that fits alone is refused beside others that fill the limit, with a
// message that says so.
func TestMemoryLimitCountsTheSession(t *testing.T) {
	old := MemoryLimit
	defer func() { MemoryLimit = old }()
	ClearCache()
	defer ClearCache()
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = 1
	}
	runtime.GC()
	MemoryLimit = heapInUse() + 256<<10
	_, err := Values(games.CN(6, 2), 7) // 262,144 positions: 512 KiB, far below the limit alone
	if err == nil || !strings.Contains(err.Error(), "the session already holds") {
		t.Errorf("solve beside a full session: %v", err)
	}
	runtime.KeepAlive(held)
	held = nil
	MemoryLimit = old
	if _, err := Values(games.CN(6, 2), 7); err != nil {
		t.Errorf("after freeing: %v", err)
	}
}

func TestCgroupMemory(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// v2: the tightest limit on the way up counts.
	write("sys/user.slice/memory.max", "4294967296\n")
	write("sys/user.slice/app/memory.max", "max\n")
	write("proc-v2", "0::/user.slice/app\n")
	if l, ok := cgroupMemory(filepath.Join(root, "proc-v2"), filepath.Join(root, "sys")); !ok || l != 4<<30 {
		t.Errorf("v2: %d %v", l, ok)
	}
	// v1 inside a container: the cgroup path is not mounted, its root is.
	write("sys1/memory/memory.limit_in_bytes", "2147483648\n")
	write("proc-v1", "4:memory:/docker/abc\n3:cpu:/docker/abc\n")
	if l, ok := cgroupMemory(filepath.Join(root, "proc-v1"), filepath.Join(root, "sys1")); !ok || l != 2<<30 {
		t.Errorf("v1: %d %v", l, ok)
	}
	// No limit.
	write("sys2/memory/memory.limit_in_bytes", "9223372036854771712\n")
	if _, ok := cgroupMemory(filepath.Join(root, "proc-v1"), filepath.Join(root, "sys2")); ok {
		t.Error("an unlimited cgroup reads as a limit")
	}
}

// With a disk cache, a new process (here: a cleared cache) reads a table
// solved before instead of solving it again.
func TestDiskCache(t *testing.T) {
	oldDir := diskCacheDir
	defer func() { diskCacheDir = oldDir; ClearCache() }()
	diskCacheDir = t.TempDir()
	ClearCache()
	tab, err := Values(games.CN(6, 2), 9)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Seconds() < diskCacheMinSeconds {
		t.Skipf("the solve took %.3fs, too fast to be kept", tab.Seconds())
	}
	key := cacheKey{fingerprint(games.CN(6, 2)), KindValues.String(), "[9 9 9 9 9 9]"}
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(diskCachePath(key)); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	ClearCache()
	back, err := Values(games.CN(6, 2), 9)
	// Read back, not solved again: the solve's own timing came with it.
	if err != nil || back == tab || back.Seconds() != tab.Seconds() || !slices.Equal(back.Counts(), tab.Counts()) || back.Game() == nil {
		t.Fatalf("from the disk cache: %v, %v", back, err)
	}
	if back.At(1, 1, 1, 2, 1, 2) != 0 {
		t.Error("wrong entry")
	}
}

// The default limit is a property of the machine: taking memory, as other
// programs do, leaves it as it was (it used to be three quarters of what
// was free, so it shrank on a busy machine and differed run to run).
func TestDefaultLimitIgnoresFreeMemory(t *testing.T) {
	before := defaultLimit()
	if before <= 0 || before != totalMemory()/2 {
		t.Fatalf("default limit %d, want half of %d", before, totalMemory())
	}
	held := make([]byte, 256<<20)
	for i := 0; i < len(held); i += 4096 {
		held[i] = 1 // touch every page, so the memory is taken
	}
	if after := defaultLimit(); after != before {
		t.Errorf("with 256 MiB taken the default limit moved from %d to %d", before, after)
	}
	runtime.KeepAlive(held)
}

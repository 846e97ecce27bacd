package solve

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"

	"grundy/stdlib/games"
)

// The disk cache: when GRUNDY_SOLVE_CACHE names a directory (the kernel
// gives each session one), tables that took a while to solve are also
// saved there, and a table missing from the cache in memory is looked for
// there before it is solved. So a new engine process of the same session
// (after a crash, replaying the cells that succeeded) reads the tables the
// old one solved instead of solving them again.
var diskCacheDir = os.Getenv("GRUNDY_SOLVE_CACHE")

const (
	// diskCacheMinSeconds: faster solves are cheaper to repeat than to
	// write out.
	diskCacheMinSeconds = 0.05
)

// diskCacheBytes is what the disk cache holds; it stops growing at
// MemoryLimit, about as much as the session could hold in memory.
var diskCacheBytes atomic.Int64

func diskCachePath(key cacheKey) string {
	h := sha256.Sum256([]byte(key.name + "\x00" + key.kind + "\x00" + key.bounds))
	return filepath.Join(diskCacheDir, hex.EncodeToString(h[:12])+".tbl")
}

// fromDiskCache returns the table for key if the disk cache has it whole
// and for exactly this game, kind and bounds.
func fromDiskCache(key cacheKey, g games.Game) *Table {
	if diskCacheDir == "" {
		return nil
	}
	p := diskCachePath(key)
	if _, err := os.Stat(p); err != nil {
		return nil
	}
	t, sameRules, err := load(p)
	if err != nil || !sameRules || fingerprint(t.game) != key.name || t.kind.String() != key.kind || fmt.Sprint(t.max) != key.bounds {
		return nil
	}
	t.game = g
	return t
}

// toDiskCache saves t in the background; a crash before the save is done
// leaves no file (saves are atomic), and the table is solved again.
func toDiskCache(key cacheKey, t *Table) {
	if diskCacheDir == "" || t.seconds < diskCacheMinSeconds {
		return
	}
	if diskCacheBytes.Add(t.bytes()) > MemoryLimit {
		diskCacheBytes.Add(-t.bytes())
		return
	}
	go func() {
		if err := t.Save(diskCachePath(key)); err != nil {
			diskCacheBytes.Add(-t.bytes())
		}
	}()
}

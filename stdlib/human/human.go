// Package human writes numbers for people to read, the same way in every
// part of grundy: exact counts with thousands separators (2,985,984),
// short counts for progress and rates (3.0M), sizes in binary units
// (21.9 MiB, 512 MiB) and time spans (1.4 s). One package, so that a count never reads "3.0M" on the
// command line and "2986.0k" in the notebook.
package human

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Count writes n exactly, with thousands separators: 2,985,984.
func Count[T ~int | ~int64 | ~uint64](n T) string {
	neg := n < 0
	var s string
	if neg {
		s = strconv.FormatUint(uint64(-int64(n)), 10)
	} else {
		s = strconv.FormatUint(uint64(n), 10)
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// Short writes n in at most six characters, as the papers' tables do:
// 4,096, 12.3k, 3.0M, 85.8M, 1.2G. Below ten thousand it is exact.
func Short[T ~int | ~int64 | ~float64](n T) string {
	v := float64(n)
	if v < 0 {
		return "-" + Short(-v)
	}
	if v < 10_000 {
		return Count(int64(v))
	}
	units := []struct {
		size   float64
		suffix string
	}{{1e3, "k"}, {1e6, "M"}, {1e9, "G"}, {1e12, "T"}}
	i := 0
	for i+1 < len(units) && v >= units[i+1].size {
		i++
	}
	// 999,960 rounds to "1000.0k": move up a unit instead.
	if s := fmt.Sprintf("%.1f", v/units[i].size); s == "1000.0" && i+1 < len(units) {
		i++
	}
	return fmt.Sprintf("%.1f%s", v/units[i].size, units[i].suffix)
}

// Bytes writes a size in binary units, whole when it is a whole number
// of its unit and with one decimal otherwise: 512 bytes, 4 MiB, 21.9 MiB,
// 1 TiB.
func Bytes(b int64) string {
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	if b < 1024 && b > -1024 {
		return Quantity(b, "byte")
	}
	f, u := float64(b)/1024, 0
	for (f >= 1024 || f <= -1024) && u < len(units)-1 {
		f /= 1024
		u++
	}
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d %s", int64(f), units[u])
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

// Duration writes a time span for people: 0.5 ms, 85 ms, 1.4 s, 12 s,
// 2m05s.
func Duration(d time.Duration) string {
	switch {
	case d > 0 && d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Plural is a noun (or a noun and its verb) as it reads after the count
// n: one for 1, otherwise many when given, or else one with its last
// word made plural by the regular rules (position, positions; entry,
// entries; refuted reading, refuted readings). One place, so that no
// description reads "1 P-positions".
func Plural[T ~int | ~int64 | ~uint64 | ~float64](n T, one string, many ...string) string {
	if n == 1 {
		return one
	}
	if len(many) > 0 {
		return many[0]
	}
	switch {
	case strings.HasSuffix(one, "y") && len(one) > 1 && !strings.ContainsRune("aeiou", rune(one[len(one)-2])):
		return one[:len(one)-1] + "ies"
	case strings.HasSuffix(one, "s") || strings.HasSuffix(one, "x") || strings.HasSuffix(one, "z") ||
		strings.HasSuffix(one, "ch") || strings.HasSuffix(one, "sh"):
		return one + "es"
	}
	return one + "s"
}

// Quantity writes n exactly and the noun after it: 1 position, 2,985,984
// positions, 0 formulas fit (many as for Plural).
func Quantity[T ~int | ~int64 | ~uint64](n T, one string, many ...string) string {
	return Count(n) + " " + Plural(n, one, many...)
}

// Nearest is the name among names a user who typed name most likely
// meant: the same name but for case, or the closest by edits (at most a
// third of its letters, and never more than 3), the shorter on a tie; ""
// when none is close.
func Nearest(name string, names []string) string {
	best, bestD := "", 0
	limit := min(3, max(1, len(name)/3))
	for _, n := range names {
		if n == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		if d == 0 {
			return n
		}
		if d > limit {
			continue
		}
		if best == "" || d < bestD || d == bestD && (len(n) < len(best) || len(n) == len(best) && n < best) {
			best, bestD = n, d
		}
	}
	return best
}

// editDistance is the number of single-letter insertions, deletions and
// substitutions that turn a into b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

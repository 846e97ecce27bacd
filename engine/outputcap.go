package engine

import (
	"fmt"
	"unicode/utf8"

	"grundy/stdlib/human"
)

// DefaultMaxCellOutput is how much text one cell may print before the rest
// is cut off, in the kernel and in headless notebooks alike, so a runaway
// loop can flood neither a frontend nor a notebook file (nor the memory
// holding them). GRUNDY_MAX_CELL_OUTPUT changes it.
const DefaultMaxCellOutput = 4 << 20

// OutputCap counts one cell's stream output (stdout and stderr together)
// against a limit.
type OutputCap struct {
	Limit   int // bytes; 0 means DefaultMaxCellOutput
	used    int
	dropped int
	cut     bool
}

// Take returns the part of text that still fits (never splitting a UTF-8
// sequence) and whether this call reached the limit, so that the caller
// says where it cut, once.
func (c *OutputCap) Take(text string) (keep string, cutNow bool) {
	if c.Limit <= 0 {
		c.Limit = DefaultMaxCellOutput
	}
	if c.cut {
		c.dropped += len(text)
		return "", false
	}
	if room := c.Limit - c.used; len(text) > room {
		keep = validPrefix(text, room)
		c.dropped += len(text) - len(keep)
		c.used += len(keep)
		c.cut = true
		return keep, true
	}
	c.used += len(text)
	return text, false
}

// Dropped is how many bytes were cut off so far.
func (c *OutputCap) Dropped() int { return c.dropped }

// CutNote is the line that marks the cut; where says where the rest is not
// ("shown", "stored in the notebook").
func (c *OutputCap) CutNote(where string) string {
	return fmt.Sprintf("\n[grundy: this cell's output passed %s; the rest is not %s (GRUNDY_MAX_CELL_OUTPUT raises the cap)]\n", human.Bytes(int64(c.Limit)), where)
}

// DroppedNote says, at the end of the cell, how much was cut off.
func (c *OutputCap) DroppedNote(where string) string {
	return fmt.Sprintf("[grundy: %s not %s]\n", human.Quantity(c.dropped, "more byte of output was", "more bytes of output were"), where)
}

// validPrefix returns the longest prefix of s of at most n bytes that does
// not split a UTF-8 sequence.
func validPrefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

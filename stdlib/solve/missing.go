package solve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"grundy/stdlib/games"
	"grundy/stdlib/human"
)

// ErrNoTable is what a method of a nil *Table reports: the table is
// missing because the call that should have made it failed, as in
//
//	t, _ := solve.Values(games.CN(6, 2), 99) // too large: t is nil
//	t.Count(0)                               // ErrNoTable, not a nil-pointer crash
//
// Methods with an error result return it; the others panic with it.
var ErrNoTable = errors.New("the table is missing (nil): the call that made it failed; print that call's error to see why (t, err := solve.Values(g, 8); fmt.Println(err))")

// noTable is ErrNoTable for method, or nil when the table exists.
func (t *Table) noTable(method string) error {
	if t != nil {
		return nil
	}
	return fmt.Errorf("solve: t.%s: %w", method, ErrNoTable)
}

// need stops a method that has no error result on a nil table.
func (t *Table) need(method string) {
	if err := t.noTable(method); err != nil {
		panic(err)
	}
}

// shape describes the table's positions for messages: "CN(6,2) values,
// 6 heaps of 0..11".
func (t *Table) shape() string {
	return fmt.Sprintf("%s %s, %d %s of %s", t.name, t.kind, len(t.max), human.Plural(len(t.max), "heap"), strings.TrimPrefix(t.boundText(), "heaps "))
}

// at is the entry at pos for method (At, IsP); a position outside the
// table stops the cell with an error naming the table's shape, since a
// sentinel such as -1 reads as a value to a formula check.
func (t *Table) at(method string, pos []int) int {
	t.need(method)
	v, ok, err := t.entry(pos)
	if ok && err == nil {
		return v
	}
	if !ok && err == nil {
		err = t.checkRow(games.Pos(pos))
	}
	args := make([]string, len(pos))
	for i, x := range pos {
		args[i] = strconv.Itoa(x)
	}
	panic(fmt.Errorf("solve: t.%s(%s): %w; t.Value(p) returns this as an error", method, strings.Join(args, ", "), err))
}

package entail

import "strconv"

// Value is the value of an entailing game read against Nim heaps: a nimber
// *k, or loony (the mover wins beside every Nim heap).
type Value struct {
	Loony  bool
	Nimber int // meaningful when !Loony
}

// Loony is the loony value.
var Loony = Value{Loony: true}

// Nimber returns the value *k.
func Nimber(k int) Value { return Value{Nimber: k} }

func (v Value) String() string {
	switch {
	case v.Loony:
		return "loony"
	case v.Nimber == 0:
		return "0"
	case v.Nimber == 1:
		return "*"
	}
	return "*" + strconv.Itoa(v.Nimber)
}

// ValueTable is the "hero table": the value of a single heap of each game,
// for heap sizes Heaps[i]. Values[g][i] is game g's value at Heaps[i].
type ValueTable struct {
	Games  []string
	Heaps  []int
	Values [][]Value
}

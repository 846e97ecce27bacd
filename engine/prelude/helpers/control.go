package helpers

import "grundy/engine/prelude/grundyrt"

// The cell's control flow, reported to the session: a goroutine's panic
// (the passes wrap every go statement so it cannot end the process), and
// the defers of a cell's top-level statements, which the session runs when
// the cell ends, with recover() seeing the cell's panic.

func _grundyGoPanic(r any) { grundyrt.GoPanic(r) }

func _grundyDefer(f func()) { grundyrt.Defer(f) }

func _grundyRecover() any { return grundyrt.Recover() }

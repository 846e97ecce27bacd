package helpers

import "grundy/engine/prelude/grundyrt"

// The cell's control flow, reported to the session: a goroutine's panic
// (the passes wrap every go statement so it cannot end the process), and
// the defers of a cell's top-level statements, which the session runs when
// the cell ends (recover() there is grundyrt.Recover, the cell's panic).

// _grundyGo runs a goroutine's function, reporting its panic.
func _grundyGo(f func()) {
	defer func() {
		if r := recover(); r != nil {
			grundyrt.GoPanic(r)
		}
	}()
	f()
}

func _grundyDefer(f func()) { grundyrt.Defer(f) }

package known

import "grundy/stdlib/games"

// Strategies in the form solve.Table.CheckStrategy runs: the position to
// move to, or nil to pass.

// MRule is the M-rule of seed 004 as a strategy for Exact Slow NIM(k+1,k)
// (see MMove); nil at a terminal position. Seed 004 proves it optimal in
// Smith's sense, so on a remoteness table every M-move lowers the
// remoteness by exactly one:
//
//	r, _ := solve.Remoteness(games.SlowExact(3, 2), 8)
//	r.CheckStrategy("M-rule", known.MRule)
func MRule(x games.Pos) games.Pos {
	next, ok := MMove(x)
	if !ok {
		return nil
	}
	return next
}

// AntipodalStrategy is seed 000's copy strategy for CN(2m,k), k <= m, as a
// strategy: from a position one move away from an antipodal one (the
// heaps that differ from their antipodes lie within k consecutive places),
// lower each heap to its antipode's size, restoring antipodal equality. It
// passes (nil) everywhere else, antipodal positions included: the copy
// strategy only answers the opponent's moves.
func AntipodalStrategy(k int) func(games.Pos) games.Pos {
	return func(p games.Pos) games.Pos {
		n := len(p)
		if n%2 != 0 || IsAntipodal(p) {
			return nil
		}
		m := n / 2
		reply := p.Clone()
		var lowered []int
		for i := range p {
			if a := p[(i+m)%n]; a < p[i] {
				reply[i] = a
				lowered = append(lowered, i)
			}
		}
		// The opponent moved inside one window of k places, so the heaps
		// to lower lie inside its antipodal window.
		for s := 0; s < n; s++ {
			inside := true
			for _, i := range lowered {
				if (i-s+n)%n >= k {
					inside = false
					break
				}
			}
			if inside {
				return reply
			}
		}
		return nil
	}
}

package entail

import (
	"fmt"
	"strconv"
	"strings"
)

// Outcome is who wins a position under perfect play.
type Outcome int

const (
	// P: the player to move loses (the previous player wins).
	P Outcome = iota
	// N: the player to move (the next player) wins.
	N
)

// String is the outcome's letter, "N" or "P", so that it reads well inside
// a sentence; Describe says what it means.
func (o Outcome) String() string {
	switch o {
	case P:
		return "P"
	case N:
		return "N"
	}
	return "Outcome(" + strconv.Itoa(int(o)) + ")"
}

// Describe is the outcome in words: "N: the player to move wins" or
// "P: the player to move loses".
func (o Outcome) Describe() string {
	switch o {
	case P:
		return "P: the player to move loses"
	case N:
		return "N: the player to move wins"
	}
	return o.String()
}

func outcomeOf(moverWins bool) Outcome {
	if moverWins {
		return N
	}
	return P
}

// Outcome solves p exactly: every legal move tried, moves restricted to the
// compelled heap when there is one, memoised on the canonical form.
func (p Position) Outcome() (Outcome, error) {
	def.mu.Lock()
	defer def.mu.Unlock()
	w, err := def.moverWins(p)
	return outcomeOf(w), err
}

// moverWins solves p by search, with the lock held.
func (s *solver) moverWins(p Position) (bool, error) {
	st, err := s.canon(p)
	if err != nil {
		return false, err
	}
	return s.outcome(st)
}

// Play is one legal move in a position.
type Play struct {
	Part    int      // the part moved in (index into Parts)
	From    Heap     // that part before the move
	To      []Heap   // what it becomes (no heap: it is gone)
	Entails bool     // the reply is compelled into To[0]
	After   Position // the position after the move
}

func (m Play) String() string {
	var b strings.Builder
	b.WriteString(m.From.String())
	b.WriteString(" -> ")
	if len(m.To) == 0 {
		b.WriteString("0")
	}
	for i, h := range m.To {
		if i > 0 {
			b.WriteString(" + ")
		}
		b.WriteString(strconv.Itoa(h.Size))
	}
	if m.Entails {
		b.WriteString(" (compels the reply)")
	}
	return b.String()
}

// Plays is a list of moves; it prints as "[a, b, c]".
type Plays []Play

func (ps Plays) String() string {
	s := make([]string, len(ps))
	for i, m := range ps {
		s[i] = m.String()
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// Moves lists the legal moves of p (only in the compelled part when there
// is one), each with the position it leads to. The parts of After keep p's
// order; a part that is emptied stays as a heap of 0, and a part that
// splits is replaced by its pieces in place.
func (p Position) Moves() (Plays, error) {
	if p.err != nil {
		return nil, p.err
	}
	def.mu.Lock()
	defer def.mu.Unlock()
	return def.plays(p)
}

func (s *solver) plays(p Position) (Plays, error) {
	var out Plays
	for i, h := range p.parts {
		if p.compelled >= 0 && i != p.compelled {
			continue
		}
		s.register(h.Game)
		ms, err := h.Game.Moves(h.Size)
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			to := make([]Heap, len(m.Heaps))
			for j, n := range m.Heaps {
				to[j] = Heap{Game: h.Game, Size: n}
			}
			after := Position{compelled: -1}
			for j, q := range p.parts {
				if j != i {
					after.parts = append(after.parts, q)
					continue
				}
				if len(to) == 0 {
					after.parts = append(after.parts, Heap{Game: h.Game, Size: 0})
					continue
				}
				if m.Entails {
					after.compelled = len(after.parts)
				}
				after.parts = append(after.parts, to...)
			}
			out = append(out, Play{Part: i, From: h, To: to, Entails: m.Entails, After: after})
		}
	}
	return out, nil
}

// WinningMoves lists the moves of p after which the opponent loses, found by
// exhaustive search (so they are right whatever the values say). Empty for
// a P-position.
func (p Position) WinningMoves() (Plays, error) {
	if p.err != nil {
		return nil, p.err
	}
	def.mu.Lock()
	defer def.mu.Unlock()
	s := def
	ms, err := s.plays(p)
	if err != nil {
		return nil, err
	}
	var out Plays
	for _, m := range ms {
		opp, err := s.moverWins(m.After)
		if err != nil {
			return nil, err
		}
		if !opp {
			out = append(out, m)
		}
	}
	return out, nil
}

// Values returns the value of each part of a free position (as Heap.Value).
func (p Position) Values() ([]Value, error) {
	if p.err != nil {
		return nil, p.err
	}
	def.mu.Lock()
	defer def.mu.Unlock()
	return def.partValues(p)
}

func (s *solver) partValues(p Position) ([]Value, error) {
	if p.compelled >= 0 {
		return nil, fmt.Errorf("entail: %v: a position in mid-compulsion has no value; the sum rule describes free positions", p)
	}
	vs := make([]Value, len(p.parts))
	for i, h := range p.parts {
		v, err := s.valueOf(Sum(h))
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// SumRule is the text's rule for a free sum, from the parts' values alone:
// any loony part, the mover wins; otherwise the mover wins exactly when the
// nim-sum of the values is not 0.
func SumRule(values ...Value) Outcome {
	x := 0
	for _, v := range values {
		if v.Loony {
			return N
		}
		x ^= v.Nimber
	}
	return outcomeOf(x != 0)
}

// RuleOutcome predicts p's outcome by the sum rule from its parts' values
// (an error for a position in mid-compulsion, which the rule does not
// describe).
func (p Position) RuleOutcome() (Outcome, error) {
	vs, err := p.Values()
	if err != nil {
		return 0, err
	}
	return SumRule(vs...), nil
}

// WinningMovesByRule lists the moves the sum rule recommends: moves that
// compel nothing and leave a free position with no loony part and nim-sum
// 0 ("change one part so the nim-sum becomes nought"). Each is then
// confirmed by search; a recommended move the search refutes is an error,
// since it would contradict the rule. The rule cannot judge an entailing
// move (its result is in mid-compulsion, where values say nothing), so for
// a sum with a loony part this list may be empty though the mover wins:
// WinningMoves finds those moves by search.
func (p Position) WinningMovesByRule() (Plays, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.compelled >= 0 {
		return nil, fmt.Errorf("entail: %v: the sum rule describes free positions only; use WinningMoves", p)
	}
	def.mu.Lock()
	defer def.mu.Unlock()
	s := def
	ms, err := s.plays(p)
	if err != nil {
		return nil, err
	}
	var out Plays
	for _, m := range ms {
		if m.Entails {
			continue
		}
		vs, err := s.partValues(m.After)
		if err != nil {
			return nil, err
		}
		if SumRule(vs...) != P {
			continue
		}
		opp, err := s.moverWins(m.After)
		if err != nil {
			return nil, err
		}
		if opp {
			return nil, fmt.Errorf("entail: the sum rule recommends %v from %v, but the search says the opponent then wins: the rule fails here", m, p)
		}
		out = append(out, m)
	}
	return out, nil
}

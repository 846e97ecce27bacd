package games

import (
	"slices"
	"strings"
	"testing"
)

func sets1(g Game) [][]int {
	s := g.(*SetGame)
	var out [][]int
	for _, a := range s.Sets {
		b := make([]int, len(a))
		for i, x := range a {
			b[i] = x + 1
		}
		out = append(out, b)
	}
	return out
}

func TestMoveSetsReadLikeThePapers(t *testing.T) {
	cases := []struct {
		g    Game
		name string
		sets [][]int
	}{
		{CN(6, 2), "CN(6,2)", [][]int{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {1, 6}}},
		{CN(3, 3), "CN(3,3)", [][]int{{1, 2, 3}}},
		{PN(5, 2), "PN(5,2)", [][]int{{1, 2}, {2, 3}, {3, 4}, {4, 5}}},
		{NN(5, 3), "NN(5,3)", [][]int{{1, 2, 3}, {2, 3, 4}, {3, 4, 5}, {1, 5}}},
		// The broad clasp: windows of 3 across n..1, i.e. {6,7,1} and {7,1,2}.
		{NN(7, 4, 3), "NN(7,4,3)", [][]int{{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}, {4, 5, 6, 7}, {1, 2, 7}, {1, 6, 7}}},
		{Moore(3, 2), "Moore(3,2)", [][]int{{1, 2}, {1, 3}, {2, 3}}},
		{Proper(3), "Proper(3)", [][]int{{1, 2}, {1, 3}, {2, 3}}},
		{Nim(2), "Nim(2)", [][]int{{1}, {2}}},
		{SetNim(4, []int{1, 2}, []int{2, 3}, []int{3, 4}, []int{4, 1}), "SetNim(4: 12 23 34 41)", [][]int{{1, 2}, {2, 3}, {3, 4}, {1, 4}}},
		{ExactNim(3, 2), "Exact(3,2)", [][]int{{1, 2}, {1, 3}, {2, 3}}},
		{SlowExact(3, 2), "SlowExact(3,2)", [][]int{{1, 2}, {1, 3}, {2, 3}}},
	}
	for _, c := range cases {
		if c.g.Err() != nil {
			t.Errorf("%s: %v", c.name, c.g.Err())
			continue
		}
		if c.g.Name() != c.name {
			t.Errorf("name %q, want %q", c.g.Name(), c.name)
		}
		if got := sets1(c.g); !slices.EqualFunc(got, c.sets, slices.Equal) {
			t.Errorf("%s move sets %v, want %v", c.name, got, c.sets)
		}
	}
	// NN(n,k,2) is NN(n,k).
	if !slices.EqualFunc(sets1(NN(7, 4, 2)), sets1(NN(7, 4)), slices.Equal) {
		t.Error("NN(7,4,2) differs from NN(7,4)")
	}
}

func TestFollowerCounts(t *testing.T) {
	cases := []struct {
		g    Game
		p    Pos
		want int
	}{
		{Nim(3), Pos{1, 2, 3}, 6},
		{CN(3, 2), Pos{1, 1, 1}, 6},         // each pair: 3 lowered-subsets, overlaps only at singles: 3 singles + 3 pairs
		{Moore(3, 2), Pos{1, 1, 1}, 6},      // any 1 or 2 heaps
		{ExactNim(3, 2), Pos{2, 2, 0}, 4},   // both first heaps lowered: 2*2
		{SlowMoore(3, 2), Pos{1, 1, 1}, 6},  // 3 singles + 3 pairs
		{SlowExact(3, 2), Pos{1, 1, 0}, 1},  // only (0,0,0)
		{Wythoff(), Pos{2, 3}, 2 + 3 + 2},   // row, column, diagonal
		{Proper(3), Pos{1, 1, 1}, 6},        // not all three
		{Sum(Nim(1), Nim(1)), Pos{1, 1}, 2}, // one component
		{SelectiveCompound(Nim(1), Nim(1)), Pos{1, 1}, 3},
		{ConjunctiveCompound(Nim(1), Nim(2)), Pos{1, 1, 0}, 1},
		{ConjunctiveCompound(Nim(1), Nim(1)), Pos{0, 1}, 0}, // a finished part ends the game
	}
	for _, c := range cases {
		got := c.g.Followers(c.p)
		if len(got) != c.want {
			t.Errorf("%s %v: %d followers %v, want %d", c.g.Name(), c.p, len(got), got, c.want)
		}
		for _, q := range got {
			if slices.Equal(q, c.p) {
				t.Errorf("%s %v: a position follows itself", c.g.Name(), c.p)
			}
		}
	}
}

func TestBadParameters(t *testing.T) {
	cases := []struct {
		g    Game
		want string
	}{
		{CN(3, 4), "k=4 > n=3"},
		{PN(3, 0), "k=0"},
		{Moore(0, 1), "n >= 1"},
		{NN(5, 3, 4), "2 <= c <= k=3"},
		{Proper(1), "n >= 2"},
		{SetNim(3, []int{1, 4}), "heaps are numbered 1..3"},
		{SetNim(3), "at least one move set"},
		{Func("f", 2, nil), "nil"},
		{Sum(CN(2, 3)), "k=3"},
	}
	for _, c := range cases {
		err := c.g.Err()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.g.Name(), err, c.want)
		}
	}
	if err := CheckPos(CN(3, 2), Pos{1, -1, 0}); err == nil {
		t.Error("negative heap accepted")
	}
	if err := CheckPos(CN(3, 2), Pos{1, 1}); err == nil {
		t.Error("short position accepted")
	}
}

func TestHugeFamiliesAreRefusedQuickly(t *testing.T) {
	sets := make([][]int, MaxMoveSets+1)
	for i := range sets {
		sets[i] = []int{1}
	}
	for _, g := range []Game{Moore(40, 20), ExactNim(40, 20), SlowMoore(40, 20), SlowExact(40, 20), Proper(MaxMoveSets + 2),
		SetNim(2, sets...)} {
		err := g.Err()
		if err == nil || !strings.Contains(err.Error(), "move sets") {
			t.Errorf("%s: error %v, want one about too many move sets", g.Name(), err)
		}
	}
	if err := Moore(20, 3).Err(); err != nil { // 1140 sets: fine
		t.Errorf("Moore(20,3): %v", err)
	}
}

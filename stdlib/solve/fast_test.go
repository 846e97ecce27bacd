package solve

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"grundy/stdlib/games"
)

// smallFamilies is one small bound for every game family; each fast path
// must agree with the plain solver on all of them.
var smallFamilies = []struct {
	g   games.Game
	max []int
}{
	{games.Nim(3), []int{5}},
	{games.Nim(1), []int{70}},
	{games.Moore(4, 2), []int{4}},
	{games.CN(6, 2), []int{3}},
	{games.CN(5, 3), []int{4}},
	{games.CN(4, 4), []int{4}},
	{games.PN(5, 2), []int{4}},
	{games.NN(5, 3), []int{4}},
	{games.NN(6, 4, 3), []int{3}},
	{games.Proper(3), []int{6}},
	{games.ExactNim(3, 2), []int{6}},
	{games.ExactNim(4, 3), []int{4}},
	{games.SlowMoore(4, 2), []int{5}},
	{games.SlowExact(3, 2), []int{7}},
	{games.SlowExact(4, 3), []int{5}},
	{games.SetNim(4, []int{1, 2}, []int{2, 3}, []int{4}), []int{4}},
	{games.SetNim(3, []int{1, 3}), []int{5}}, // heap 2 never moves
	{games.NewSetNim("", 3, games.RuleSlow, []int{1, 2}, []int{2, 3}), []int{5}},
	{games.CN(3, 2), []int{2, 7, 4}},
	{games.Moore(2, 1), []int{100, 3}},
	{games.Nim(2), []int{150}},
	{games.Nim(2), []int{300, 270}}, // values up to 511: the value bitsets widen
	{games.Moore(3, 2), []int{40, 40, 3}},
	{games.CN(3, 2), []int{3, 2, 130}},
	{games.ExactNim(2, 2), []int{3, 100}},
	{games.Wythoff(), []int{9}},
	{games.Wythoff(), []int{40, 150}},
	{games.CN(4, 2), []int{0, 3, 0, 4}}, // zero bounds: one slab, short rows
	{games.CN(3, 2), []int{4, 4, 0}},    // rows of length one
	{games.ExactNim(3, 1), []int{5}},
	{games.ExactNim(3, 3), []int{4, 0, 4}},
	{games.SlowExact(3, 2), []int{0}},
	{games.Sum(games.CN(3, 2), games.Nim(1)), []int{3}},
	{games.SelectiveCompound(games.Nim(1), games.Proper(2)), []int{3}},
	{games.ConjunctiveCompound(games.Nim(2), games.SlowExact(2, 1)), []int{3}},
	{games.Slow(games.CN(5, 2)), []int{4}},
	{games.Exact(games.CN(6, 3)), []int{3}},
	{games.Slow(games.Exact(games.CN(5, 3))), []int{4}},
	{games.Subtract(games.CN(4, 2), 1, 2), []int{5}},
	{games.Subtract(games.Exact(games.Moore(3, 2)), 2, 3), []int{7}},
	{games.Subtract(games.Nim(1), 1, 3, 4), []int{60}},
	{games.Subtract(games.Nim(2), 2, 5), []int{30, 12}},
}

func TestFastEqualsPlain(t *testing.T) {
	defer func() { Workers = 0 }()
	for _, c := range smallFamilies {
		for _, k := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
			ref, err := Plain(c.g, k, c.max...)
			if err != nil {
				t.Fatalf("%s %s: plain: %v", c.g.Name(), k, err)
			}
			for _, w := range []int{1, 2, 3} {
				Workers = w
				name := fmt.Sprintf("%s/%s/max%v/workers%d", c.g.Name(), k, c.max, w)
				b, err := bounds(c.g, k, c.max)
				if err != nil {
					t.Fatal(err)
				}
				got, err := run(c.g, k, b, choose(c.g, k))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for i := 0; i < ref.Len(); i++ {
					if got.get(i) != ref.get(i) {
						t.Fatalf("%s (%s): at %v fast %d, plain %d", name, got.Method(), ref.pos(i), got.get(i), ref.get(i))
					}
				}
			}
		}
	}
}

// Random move-set games under every rule, against the plain solver.
func TestFastEqualsPlainRandomGames(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	defer func() { Workers = 0 }()
	for trial := 0; trial < 60; trial++ {
		n := 1 + rng.IntN(4)
		var sets [][]int
		for s := 0; s < 1+rng.IntN(4); s++ {
			var a []int
			for i := 1; i <= n; i++ {
				if rng.IntN(2) == 0 {
					a = append(a, i)
				}
			}
			if len(a) == 0 {
				a = []int{1 + rng.IntN(n)}
			}
			sets = append(sets, a)
		}
		rule := games.Rule(rng.IntN(4))
		g := games.NewSetNim("", n, rule, sets...)
		max := make([]int, n)
		for i := range max {
			max[i] = rng.IntN(7 - n)
			if n <= 2 {
				max[i] = rng.IntN(30)
			}
		}
		for _, k := range []Kind{KindValues, KindOutcomes, KindRemoteness} {
			ref, err := Plain(g, k, max...)
			if err != nil {
				t.Fatal(err)
			}
			Workers = 1 + trial%3
			got, err := run(g, k, max, choose(g, k))
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < ref.Len(); i++ {
				if got.get(i) != ref.get(i) {
					t.Fatalf("%s %s max %v workers %d: at %v fast %d, plain %d", g.(*games.SetGame).Describe(), k, max, Workers, ref.pos(i), got.get(i), ref.get(i))
				}
			}
		}
	}
}

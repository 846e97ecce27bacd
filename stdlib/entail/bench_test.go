package entail

import "testing"

// Benchmarks start from an empty cache (ClearCache) so that they measure
// the search, not the memo of an earlier iteration.

func BenchmarkHeroTable25(b *testing.B) {
	for b.Loop() {
		ClearCache()
		if _, err := HeroTable(25, TopEntailsGame, EntailingNimGame, NimGame); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPairing16HeroTable25(b *testing.B) {
	for b.Loop() {
		ClearCache()
		for _, g := range []*Game{TopEntailsGame, EntailingNimGame} {
			for h := 1; h <= 25; h++ {
				if _, err := g.Heap(h).PairingValue(TextPairingRange); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

func benchSumRule(b *testing.B, games ...*Game) {
	for b.Loop() {
		ClearCache()
		if _, err := CheckSumRule(7, 5, true, games...); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSumRuleTopEntailsNim(b *testing.B) { benchSumRule(b, TopEntailsGame, NimGame) }
func BenchmarkSumRuleEntailingNimNim(b *testing.B) {
	benchSumRule(b, EntailingNimGame, NimGame)
}
func BenchmarkSumRuleMixed(b *testing.B) {
	benchSumRule(b, TopEntailsGame, EntailingNimGame, NimGame)
}

func BenchmarkWorkedExample(b *testing.B) {
	p := Sum(TopEntails(3), TopEntails(5), Nim(1), EntailingNim(7))
	for b.Loop() {
		ClearCache()
		if _, err := p.WinningMoves(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLargestSum is the hardest single sum of the checks: five Top
// Entails heaps of seven.
func BenchmarkLargestSum(b *testing.B) {
	p := Sum(TopEntails(7), TopEntails(7), TopEntails(7), TopEntails(7), TopEntails(7))
	for b.Loop() {
		ClearCache()
		if _, err := p.Outcome(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUserRule is the same search with Top Entails given as a Go
// function the way a cell defines a game (compiled here; under yaegi the
// rule is interpreted, but it runs once per heap size, not per position).
func BenchmarkUserRule(b *testing.B) {
	te := NewGame("Top Entails (user)", func(n int) []Move {
		ms := []Move{{Heaps: []int{n - 1}, Entails: true}}
		for a := 1; a <= n/2; a++ {
			ms = append(ms, Move{Heaps: []int{a, n - a}})
		}
		return ms
	})
	p := Sum(te.Heap(7), te.Heap(7), te.Heap(7), te.Heap(7), te.Heap(7))
	for b.Loop() {
		ClearCache()
		if _, err := p.Outcome(); err != nil {
			b.Fatal(err)
		}
	}
}

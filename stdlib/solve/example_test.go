package solve_test

import (
	"fmt"

	"grundy/stdlib/games"
	"grundy/stdlib/solve"
)

func Example() {
	t, err := solve.Values(games.CN(6, 2), 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Len(), "positions,", t.Count(0), "P-positions")
	fmt.Println(t.At(1, 1, 1, 2, 1, 2), t.At(0, 2, 0, 0, 1, 1))
	fmt.Println(t.List(0, 4))
	// Output:
	// 4096 positions, 214 P-positions
	// 0 0
	// [(0,0,0,0,0,0) (0,0,0,1,0,1) (0,0,1,0,0,1) (0,0,1,0,1,0)]
}

func ExampleTable_Face() {
	t, _ := solve.Values(games.CN(6, 2), 3)
	// Seed 000: on this face g(0,a,b,0,c,d) = (a+b) xor (c+d).
	f, _ := t.Face("0 a b 0 2 1")
	fmt.Println(f)
	_, err := t.Face("0 a 0 0 2 1")
	fmt.Println(err)
	// Output:
	// CN(6,2) values on "0 a b 0 2 1": a across 0..3, b down 0..3
	// 3 2 1 0
	// 2 1 0 7
	// 1 0 7 6
	// 0 7 6 5
	// face pattern "0 a 0 0 2 1" has 1 free letter [a]; a face needs exactly 2 (a repeated letter means equal heaps), e.g. "a b 0 0 0 0"; with one letter it is a line: t.Line("0 a 0 0 2 1"), plots.Line(t, "0 a 0 0 2 1")
}

func ExampleTable_WinningMoves() {
	t, _ := solve.Values(games.Nim(3), 7)
	moves, _ := t.WinningMoves(games.Pos{3, 5, 7})
	fmt.Println(moves)
	// Output:
	// [(2,5,7) (3,4,7) (3,5,6)]
}

func ExampleRemoteness() {
	r, _ := solve.Remoteness(games.SlowExact(3, 2), 5)
	fmt.Println(r.At(3, 3, 3), r.At(3, 5, 5))
	// Output:
	// 4 6
}

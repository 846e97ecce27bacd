package solve

import (
	"grundy/stdlib/games"
	"grundy/stdlib/progress"
)

// pick chooses the fastest solver that applies to the game and kind.
func pick(g games.Game, kind Kind) string {
	return "plain"
}

// workBytes estimates the memory a solver needs beside the table itself.
func workBytes(g games.Game, kind Kind, t *Table, method string) int64 {
	if method == "plain" && !monotone(g) {
		// The memo holds every reachable position as a map entry.
		return int64(t.size) * 64
	}
	return 0
}

func solveFast(t *Table, method string, task *progress.Task) error {
	return solvePlain(t, task)
}

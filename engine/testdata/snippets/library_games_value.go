solve.ValueOf(games.Nim(3), games.Pos{1, 2, 3})
// ---
g := games.CircularNim(6, 2)
g
// Output:
// 0
// CN(6,2)

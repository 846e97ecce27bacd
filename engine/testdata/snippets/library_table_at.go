t, err := solve.Values(games.Nim(2), 4)
if err != nil {
	panic(err)
}
fmt.Println(t.At(1, 2), t.At(3, 3), t.At(2, 4))
// Output:
// 3 0 6

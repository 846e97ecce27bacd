t, _ := solve.Values(games.Nim(2), 3)
b := display.Render(t)
_, hasHTML := b["text/html"]
hasHTML
// Output:
// true

func hello() { fmt.Println("hello") }
hello()
// Output:
// hello

fmt.Println("only printed")
// Output:
// only printed

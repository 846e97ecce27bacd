func() {
	fmt.Println("immediately invoked")
}()
// Output:
// immediately invoked

fmt.Print("a")
os.Stdout.WriteString("b")
fmt.Fprintln(os.Stdout, "c")
fmt.Fprintln(os.Stderr, "warning")
// Output:
// abc
// stderr: warning

sc := bufio.NewScanner(os.Stdin)
sc.Scan()
sc.Text()
// Output:
// 42

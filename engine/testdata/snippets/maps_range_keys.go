m := map[string]int{"only": 1}
for k := range maps.Keys(m) {
	fmt.Println("key", k)
}
for v := range maps.Values(m) {
	fmt.Println("value", v)
}
// Output:
// key only
// value 1

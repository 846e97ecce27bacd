type person struct {
	name string
	age  int
}
ps := []person{{"ann", 40}, {"bob", 25}, {"cy", 33}}
slices.SortFunc(ps, func(a, b person) int { return cmp.Compare(a.age, b.age) })
for _, p := range ps {
	fmt.Print(p.name, " ")
}
fmt.Println()
// Output:
// bob cy ann

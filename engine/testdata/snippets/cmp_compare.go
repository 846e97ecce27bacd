fmt.Println(cmp.Compare(1, 2), cmp.Compare("b", "a"), cmp.Less(1.0, 2.0), cmp.Or("", "dflt"))
// Output:
// -1 1 true dflt

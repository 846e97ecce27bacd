m := map[string]int{"b": 2, "a": 1, "c": 3}
slices.Sorted(maps.Keys(m))
// Output:
// [a b c]

strconv.Atoi("12x")
// Output:
// !! error: strconv.Atoi: parsing "12x": invalid syntax

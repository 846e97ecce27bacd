v := 1
// ---
v := "now a string"
v
// Output:
// now a string

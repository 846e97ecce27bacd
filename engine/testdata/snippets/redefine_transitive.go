func a() string { return "a1" }
func b() string { return a() + "b" }
func c() string { return b() + "c" }
c()
// ---
func a() string { return "a2" }
c()
// Output:
// a1bc
// a2bc

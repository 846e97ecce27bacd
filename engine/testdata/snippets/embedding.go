type Animal struct{ Name string }
func (a Animal) Hello() string { return "I am " + a.Name }
type Dog struct {
	Animal
	Breed string
}
d := Dog{Animal{"Rex"}, "collie"}
d.Hello() + ", a " + d.Breed
// Output:
// I am Rex, a collie

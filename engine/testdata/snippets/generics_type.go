type Stack[T any] struct{ items []T }
func (s *Stack[T]) Push(x T) { s.items = append(s.items, x) }
func (s *Stack[T]) Pop() T {
	x := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return x
}
s := &Stack[string]{}
s.Push("a")
s.Push("b")
s.Pop() + s.Pop()
// Output:
// ba

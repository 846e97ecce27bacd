var ErrNotFound = errors.New("not found")
type CodeErr struct{ Code int }
func (e *CodeErr) Error() string { return fmt.Sprintf("code %d", e.Code) }
func find(k string) error {
	if k == "x" {
		return fmt.Errorf("find %q: %w", k, ErrNotFound)
	}
	return &CodeErr{7}
}
fmt.Println(errors.Is(find("x"), ErrNotFound))
var ce *CodeErr
fmt.Println(errors.As(find("y"), &ce), ce.Code)
// Output:
// true
// true 7

type Fig struct{}
func (Fig) PNG() ([]byte, error) { return []byte{0x89, 'P', 'N', 'G'}, nil }
Fig{}
// Output:
// [image/png,text/plain] {}

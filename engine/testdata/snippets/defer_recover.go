func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}
_, err := safeDiv(1, 0)
err.Error()
// Output:
// recovered: runtime error: integer divide by zero

fmt.Errorf("wrapped: %w", io.EOF)
// Output:
// !! error: wrapped: EOF

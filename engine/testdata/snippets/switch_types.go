func kind(v any) string {
	switch v.(type) {
	case int:
		return "int"
	case string:
		return "string"
	}
	return "other"
}
kind(1) + " " + kind("s") + " " + kind(2.0)
// Output:
// int string other

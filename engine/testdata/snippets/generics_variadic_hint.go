func first[T any](xs ...T) T { return xs[0] }
first(7, 8)
// ---
first[int](7, 8)
// Output:
// !! CompileError: cell:1:12: undefined type for T (the interpreter cannot infer this type parameter: instantiate explicitly, as in f[int](...))
// 7

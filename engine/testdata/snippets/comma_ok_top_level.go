m := map[string]int{"a": 1}
v, ok := m["a"]
_, missing := m["zz"]
var x any = 3
n, isInt := x.(int)
s, isStr := x.(string)
fmt.Println(v, ok, missing, n, isInt, s == "", isStr)
// Output:
// 1 true false 3 true true false

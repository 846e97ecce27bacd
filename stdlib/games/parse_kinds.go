package games

// specKinds lists the families Parse knows, in the order the error message
// offers them.
var specKinds = []specKind{
	{names: []string{"CN", "CircularNim", "Circular"}, arity: []int{2}, usage: "CN(n,k)",
		build: func(a []int) Game { return CircularNim(a[0], a[1]) }},
	{names: []string{"PN", "PathNim", "Path"}, arity: []int{2}, usage: "PN(n,k)",
		build: func(a []int) Game { return PathNim(a[0], a[1]) }},
	{names: []string{"NN", "NecklaceNim", "Necklace"}, arity: []int{2, 3}, usage: "NN(n,k) or NN(n,k,c)",
		build: func(a []int) Game { return NecklaceNim(a[0], a[1], a[2:]...) }},
	{names: []string{"Moore", "MooreNim"}, arity: []int{2}, usage: "Moore(n,k)",
		build:    func(a []int) Game { return Moore(a[0], a[1]) },
		moveSets: func(a []int) int { return binomialSum(a[0], a[1], a[1]) }},
	{names: []string{"Exact", "ExactNim"}, arity: []int{2}, usage: "Exact(n,k)",
		build:    func(a []int) Game { return ExactNim(a[0], a[1]) },
		moveSets: func(a []int) int { return binomialSum(a[0], a[1], a[1]) }},
	{names: []string{"Proper", "ProperNim"}, arity: []int{1}, usage: "Proper(n)",
		build: func(a []int) Game { return Proper(a[0]) }},
	{names: []string{"SlowMoore"}, arity: []int{2}, usage: "SlowMoore(n,k)",
		build:    func(a []int) Game { return SlowMoore(a[0], a[1]) },
		moveSets: func(a []int) int { return binomialSum(a[0], 1, a[1]) }},
	{names: []string{"SlowExact", "ExactSlow"}, arity: []int{2}, usage: "SlowExact(n,k)",
		build:    func(a []int) Game { return SlowExact(a[0], a[1]) },
		moveSets: func(a []int) int { return binomialSum(a[0], a[1], a[1]) }},
	{names: []string{"Wythoff"}, arity: []int{0}, usage: "Wythoff",
		build: func(a []int) Game { return Wythoff() }},
	{names: []string{"Nim"}, arity: []int{1}, usage: "Nim(n)",
		build: func(a []int) Game { return Nim(a[0]) }},
	{names: []string{"SetNim", "SN"}, arity: []int{1}, usage: "SetNim(n: 12 23 ...)"},
}

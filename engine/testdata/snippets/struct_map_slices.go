type Entry struct {
	Key   string
	Count int
}
counts := map[string]int{}
for _, w := range strings.Fields("a b a c b a") {
	counts[w]++
}
var es []Entry
for k, v := range counts {
	es = append(es, Entry{k, v})
}
sort.Slice(es, func(i, j int) bool { return es[i].Count > es[j].Count })
es
// Output:
// [{a 3} {b 2} {c 1}]

var count int
const limit = 5
for count < limit { count++ }
// ---
count
// Output:
// 5

// interrupt
n := 0
for {
	n++
}
// ---
n > 0
// Output:
// !! Interrupted: the cell was interrupted
// true

h := display.New()
h.Text("step 1")
h.Text("step 2")
h.Clear()
// Output:
// display: text/plain | step 1
// display: text/plain | step 2
// display: text/plain |

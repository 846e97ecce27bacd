done := make(chan bool)
go func() {
	defer close(done)
	panic("worker failed")
}()
<-done
time.Sleep(20 * time.Millisecond)
// ---
"still alive"
// Output:
// stderr: panic in goroutine: worker failed
// stderr:   main.func at cell:3:8
// still alive

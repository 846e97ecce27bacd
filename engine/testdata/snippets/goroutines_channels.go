ch := make(chan int)
go func() {
	for i := range 5 {
		ch <- i
	}
	close(ch)
}()
sum := 0
for v := range ch {
	sum += v
}
sum
// Output:
// 10

func worker(jobs <-chan int, results chan<- int) {
	for j := range jobs {
		results <- j * 2
	}
}
jobs := make(chan int, 10)
results := make(chan int, 10)
for range 3 {
	go worker(jobs, results)
}
for i := 1; i <= 5; i++ {
	jobs <- i
}
close(jobs)
total := 0
for range 5 {
	total += <-results
}
total
// Output:
// 30

var wg sync.WaitGroup
results := make([]int, 4)
for i := range 4 {
	wg.Add(1)
	go func() {
		defer wg.Done()
		results[i] = i * i
	}()
}
wg.Wait()
results
// Output:
// [0 1 4 9]

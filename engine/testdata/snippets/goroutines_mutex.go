var mu sync.Mutex
var wg sync.WaitGroup
n := 0
for range 50 {
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		n++
		mu.Unlock()
	}()
}
wg.Wait()
n
// Output:
// 50

func base() int { return 1 }
func user() int { return base() * 100 }
user()
// ---
func base() int { return 2 }
// ---
user()
// Output:
// 100
// 200

games.Parse("CN(2,5)")
// Output:
// !! error: CN(2,5): k = 5 exceeds n = 2; a move set cannot be larger than the number of heaps

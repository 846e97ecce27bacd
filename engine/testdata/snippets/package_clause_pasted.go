package main

import "fmt"

func hello() { fmt.Println("hi from a pasted file") }
hello()
// Output:
// hi from a pasted file

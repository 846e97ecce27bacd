log.SetFlags(0)
log.Println("logged line")
// Output:
// stderr: logged line

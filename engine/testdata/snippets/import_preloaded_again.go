import (
	"fmt"
	"strings"
)
fmt.Println(strings.ToUpper("ok"))
// Output:
// OK

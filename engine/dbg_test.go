package engine

import (
	"bytes"
	"fmt"
	"runtime/pprof"
	"testing"
	"time"
)

func TestDbgStackCost(t *testing.T) {
	it := newTestInterp(t)
	runCell(t, it, "stop := make(chan bool)\nfor range 1000 {\n\tgo func() { <-stop }()\n}\n")
	var b bytes.Buffer
	t0 := time.Now()
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	t1 := time.Now()
	fmt.Println(b.Len(), t1.Sub(t0))
	s := b.String()
	i := bytes.Index(b.Bytes(), []byte("labels"))
	fmt.Println(s[max(0, i-300):min(len(s), i+2500)])
}

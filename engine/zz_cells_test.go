package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZCells(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("ZZ_FILE"))
	if err != nil {
		t.Skip()
	}
	if os.Getenv("ZZ_TB") != "" {
		it, _ := NewInterp(Options{})
		defer it.Close()
		for _, c := range strings.Split(string(src), "\n// ---\n") {
			rec := &recorder{frontend: true}
			_, err := it.Execute(context.Background(), c, rec)
			fmt.Print(rec.out())
			var ee *EvalError
			if errors.As(err, &ee) {
				fmt.Println("!! " + strings.Join(ee.Traceback, "\n   "))
			} else if err != nil {
				fmt.Println("!!", err)
			}
		}
		return
	}
	r := runEngineCells(strings.Split(string(src), "\n// ---\n"))
	fmt.Print(r.Stdout)
	fmt.Print("--- stderr:\n" + r.Stderr)
}

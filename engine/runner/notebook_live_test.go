package runner

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunNotebookLive runs Go cells through the real interpreter and checks
// what lands in the notebook.
func TestRunNotebookLive(t *testing.T) {
	dir := t.TempDir()
	path := writeNotebook(t, dir, 4,
		testCell{typ: "markdown", src: "# Circular Nim"},
		testCell{typ: "code", src: "fmt.Println(\"héllo →\")"},
		testCell{typ: "code", src: "g := games.CN(6, 2)\nt, err := solve.Values(g, 3)\nt.At(1, 1, 1, 2, 1, 2)"},
		testCell{typ: "code", src: "display.Markdown(\"**P-position**\")\nh := display.New()\nh.Text(\"working\")\n_ = h"},
		testCell{typ: "code", src: "h.Text(\"done\")\n_ = h"},
		testCell{typ: "code", src: "notDeclared + 1", tags: []string{"raises-exception"}},
		testCell{typ: "code", src: "func double(x int) int { return 2 * x }\ndouble(21)"},
	)
	out := filepath.Join(dir, "run.ipynb")
	var stdout bytes.Buffer
	if err := RunNotebook(context.Background(), path, out, &stdout, NotebookOptions{}); err != nil {
		t.Fatalf("RunNotebook: %v\n%s", err, stdout.String())
	}
	validateNotebook(t, out)
	cells := cellsOf(loadNotebook(t, out))

	text := func(cell map[string]any) string {
		var b strings.Builder
		for _, o := range outputsOf(cell) {
			switch o["output_type"] {
			case "stream":
				b.WriteString(o["text"].(string))
			case "execute_result", "display_data":
				data := o["data"].(map[string]any)
				if md, ok := data["text/markdown"].(string); ok {
					b.WriteString("md:" + md + "\n")
				} else {
					b.WriteString(data["text/plain"].(string) + "\n")
				}
			case "error":
				b.WriteString("error:" + o["ename"].(string) + ":" + o["evalue"].(string) + "\n")
			}
		}
		return b.String()
	}
	checks := []struct {
		cell int
		want string
	}{
		{1, "héllo →\n"},
		{2, "0\n"}, // the seed's certificate: (1,1,1,2,1,2) is a P-position
		{3, "md:**P-position**\ndone\n"},
		{6, "42\n"},
	}
	for _, c := range checks {
		if got := text(cells[c.cell]); got != c.want {
			t.Errorf("cell %d output %q; want %q", c.cell+1, got, c.want)
		}
	}
	if got := text(cells[5]); !strings.Contains(got, "error:") || !strings.Contains(got, "notDeclared") {
		t.Errorf("tagged failing cell output %q; want an error naming notDeclared", got)
	}
	if n := cells[6]["execution_count"].(float64); n != 6 {
		t.Errorf("last cell execution_count %v; want 6", n)
	}

	// A failure stops the run and names the cell.
	bad := writeNotebook(t, t.TempDir(),
		5,
		testCell{typ: "code", src: "x := 1"},
		testCell{typ: "code", src: "y := x +* 2"},
		testCell{typ: "code", src: "fmt.Println(\"unreached\")"},
	)
	err := RunNotebook(context.Background(), bad, "", nil, NotebookOptions{})
	if err == nil || !strings.Contains(err.Error(), "cell 2 (In [2])") {
		t.Fatalf("error %v; want one naming cell 2", err)
	}
	validateNotebook(t, DefaultNotebookOut(bad))
}

package engine

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestREADMERefusals: README's list of what the engine cannot run says,
// for each construct, a cell that has it and the one-line message the
// engine refuses it with. Each cell runs in a fresh session and must be
// refused with that message (the cell position in front aside), so the list
// cannot drift from the engine.
func TestREADMERefusals(t *testing.T) {
	src, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	entries, bad := readmeRefusals(string(src))
	for _, b := range bad {
		t.Errorf("README.md: a refusal that does not end \"`cell` → `message`\": %s", b)
	}
	if len(entries) == 0 {
		t.Fatal("README.md has no refusals between <!-- refusals and <!-- end refusals -->")
	}
	if !strings.Contains(strings.Join(strings.Fields(string(src)), " "), cannotCompile) {
		t.Errorf("README.md does not give the message for what the interpreter fails on: %s", cannotCompile)
	}
	for _, e := range entries {
		t.Run(e.cell, func(t *testing.T) {
			it := newTestInterp(t)
			_, err := it.Execute(context.Background(), e.cell, nil)
			var ee *EvalError
			if !errors.As(err, &ee) {
				t.Fatalf("the cell ran (err %v); README says it is refused with\n%s", err, e.msg)
			}
			if got := cellPosition.ReplaceAllString(ee.Value, ""); got != e.msg {
				t.Errorf("refused with\n%s\nREADME says\n%s", got, e.msg)
			}
		})
	}
}

type readmeRefusal struct{ cell, msg string }

var (
	refusalItem  = regexp.MustCompile("`([^`]*)`\\s*→\\s*`([^`]*)`\\s*$")
	cellPosition = regexp.MustCompile(`^[^\s:]+:\d+:\d+: `)
)

// readmeRefusals reads the list items between the refusals markers: each
// ends "`cell` → `message`"; bad are the items that do not.
func readmeRefusals(readme string) (out []readmeRefusal, bad []string) {
	_, rest, ok := strings.Cut(readme, "<!-- refusals")
	if !ok {
		return nil, nil
	}
	list, _, _ := strings.Cut(rest, "<!-- end refusals -->")
	var items []string
	for _, l := range strings.Split(list, "\n")[1:] {
		switch {
		case strings.HasPrefix(l, "- "):
			items = append(items, l[2:])
		case len(items) > 0 && strings.TrimSpace(l) != "":
			items[len(items)-1] += " " + strings.TrimSpace(l)
		}
	}
	for _, it := range items {
		if m := refusalItem.FindStringSubmatch(it); m != nil {
			out = append(out, readmeRefusal{cell: m[1], msg: m[2]})
		} else {
			bad = append(bad, it)
		}
	}
	return out, bad
}

package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"grundy/engine"
	"grundy/stdlib/atomicfile"
)

// The notebook model: an nbformat 4 notebook as decoded JSON, which the
// runner executes and writes back (run.go) and grundy check reads, stored
// and freshly run, to compare (check.go).

// notebook is the decoded JSON, kept as generic maps so that everything
// grundy does not touch (metadata of other tools, attachments) survives.
type notebook struct {
	doc      map[string]any
	cells    []cell
	path     string
	executed int

	mu        sync.Mutex
	displays  map[string][]map[string]any // display_id -> outputs showing it
	maxOutput int                         // stream bytes stored per cell (0: engine.DefaultMaxCellOutput)
	outs      []*cellOutput               // every cell's, to settle before encoding
}

// cell is one cell of a notebook, as decoded.
type cell map[string]any

// readNotebook reads the notebook at path.
func readNotebook(path string) (*notebook, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseNotebook(raw, path)
}

// parseNotebook decodes a notebook and brings it to nbformat 4.5; path
// names it in errors.
func parseNotebook(raw []byte, path string) (*notebook, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep numbers in metadata exactly as written
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%s is not a Jupyter notebook (invalid JSON: %v)", path, err)
	}
	major, ok := jsonInt(doc["nbformat"])
	if !ok {
		return nil, fmt.Errorf("%s is not a Jupyter notebook (no nbformat field)", path)
	}
	if major != 4 {
		return nil, fmt.Errorf("%s is nbformat %d; grundy runs nbformat 4 (convert it with: jupyter nbconvert --to notebook --nbformat 4 %s)", path, major, path)
	}
	rawCells, ok := doc["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("%s has no cells list", path)
	}
	nb := &notebook{doc: doc, path: path, displays: map[string][]map[string]any{}}
	for i, c := range rawCells {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: cell %d is not an object", path, i+1)
		}
		nb.cells = append(nb.cells, cell(m))
	}
	md, _ := doc["metadata"].(map[string]any)
	if md == nil {
		md = map[string]any{}
		doc["metadata"] = md
	}
	if lang := notebookLanguage(md); lang != "" && lang != "go" {
		return nil, fmt.Errorf("%s is a %s notebook; grundy runs Go notebooks (set the kernel to \"Go (grundy)\" in Jupyter)", path, lang)
	}
	nb.normalize()
	return nb, nil
}

func notebookLanguage(md map[string]any) string {
	if li, ok := md["language_info"].(map[string]any); ok {
		if name, ok := li["name"].(string); ok && name != "" {
			return strings.ToLower(name)
		}
	}
	if ks, ok := md["kernelspec"].(map[string]any); ok {
		if lang, ok := ks["language"].(string); ok && lang != "" {
			return strings.ToLower(lang)
		}
	}
	return ""
}

func jsonInt(v any) (int, bool) {
	switch v := v.(type) {
	case json.Number:
		n, err := strconv.Atoi(v.String())
		return n, err == nil
	case float64:
		return int(v), v == float64(int(v))
	}
	return 0, false
}

var cellIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// normalize brings the notebook to nbformat 4.5: unique valid cell ids,
// and the fields each cell type requires.
func (nb *notebook) normalize() {
	if minor, ok := jsonInt(nb.doc["nbformat_minor"]); !ok || minor < 5 {
		nb.doc["nbformat_minor"] = 5
	}
	seen := map[string]bool{}
	for i, cell := range nb.cells {
		id := cell.id()
		if !cellIDPattern.MatchString(id) || seen[id] {
			id = newCellID(i, cell.source(), seen)
			cell["id"] = id
		}
		seen[id] = true
		if _, ok := cell["metadata"].(map[string]any); !ok {
			cell["metadata"] = map[string]any{}
		}
		if _, ok := cell["source"]; !ok {
			cell["source"] = ""
		}
		if cell["cell_type"] == "code" {
			if _, ok := cell["outputs"].([]any); !ok {
				cell["outputs"] = []any{}
			}
			if _, ok := cell["execution_count"]; !ok {
				cell["execution_count"] = nil
			}
		}
	}
	md := nb.doc["metadata"].(map[string]any)
	md["kernelspec"] = engine.KernelspecMetadata()
	md["language_info"] = engine.LanguageInfo()
}

// newCellID derives an id from the cell's place and text, so running the
// same notebook twice gives the same file.
func newCellID(i int, src string, taken map[string]bool) string {
	for salt := 0; ; salt++ {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%d\x00%s", i, salt, src)
		id := fmt.Sprintf("%016x", h.Sum64())[:12]
		if !taken[id] {
			return id
		}
	}
}

func (c cell) kind() string { t, _ := c["cell_type"].(string); return t }
func (c cell) id() string   { id, _ := c["id"].(string); return id }

// source is the cell's text.
func (c cell) source() string { return multiline(c["source"]) }

func (c cell) hasTag(tag string) bool {
	md, _ := c["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	return slices.Contains(tags, any(tag))
}

// outputs are a code cell's outputs; one that is not an object is left
// out.
func (c cell) outputs() []map[string]any {
	var outs []map[string]any
	for _, o := range c.list("outputs") {
		if m, ok := o.(map[string]any); ok {
			outs = append(outs, m)
		}
	}
	return outs
}

func (c cell) list(key string) []any { l, _ := c[key].([]any); return l }

// multiline decodes nbformat's multiline string, a string or a list of
// lines; other JSON (an application/json output's data) is written back
// as JSON.
func multiline(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		var b strings.Builder
		for _, line := range v {
			l, ok := line.(string)
			if !ok {
				return compactJSON(v)
			}
			b.WriteString(l)
		}
		return b.String()
	}
	return compactJSON(v)
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// encode writes the notebook as Jupyter does: one-space indent, keys
// sorted, non-ASCII and HTML characters unescaped, a final newline.
func (nb *notebook) encode() ([]byte, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	for _, o := range nb.outs {
		o.closeStreamLocked() // goroutines may have printed since
	}
	cells := make([]any, len(nb.cells))
	for i, c := range nb.cells {
		cells[i] = map[string]any(c)
	}
	nb.doc["cells"] = cells
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(nb.doc); err != nil {
		// Only a display value that JSON cannot hold gets here.
		return nil, fmt.Errorf("encoding %s: %w", nb.path, err)
	}
	return b.Bytes(), nil
}

// writeNotebookFile replaces path only once the new content is safely on
// disk, so a crash or a full disk never leaves a half-written notebook.
// The file gets perm, the input notebook's permissions.
func writeNotebookFile(path string, data []byte, perm os.FileMode) error {
	if err := atomicfile.ReplaceFile(path, data, perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

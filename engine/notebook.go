package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"grundy/internal/atomicfile"
)

// Running a notebook headless: `grundy run X.ipynb [--out OUT.ipynb]` reads
// an nbformat 4 notebook, runs its code cells in order in one session, and
// writes the outputs into a valid nbformat 4.5 notebook, so a collaborator
// reproduces a notebook's results with one command.

// newNotebookSession starts the session a notebook runs in; tests replace it.
var newNotebookSession = New

// KernelspecMetadata and LanguageInfo are what a notebook run by grundy
// records in its metadata; they match the installed kernelspec and the
// kernel's kernel_info reply, so Jupyter reopens the notebook with grundy.
func KernelspecMetadata() map[string]any {
	return map[string]any{"name": "grundy", "display_name": "Go (grundy)", "language": "go"}
}

// LanguageInfo is the notebook's metadata.language_info.
func LanguageInfo() map[string]any {
	return map[string]any{
		"name":               "go",
		"version":            strings.TrimPrefix(runtime.Version(), "go"),
		"mimetype":           "text/x-go",
		"file_extension":     ".go",
		"pygments_lexer":     "go",
		"codemirror_mode":    "go",
		"nbconvert_exporter": "script",
	}
}

// DefaultNotebookOut is where RunNotebook writes when no output path is
// given: beside the notebook, so the user's file is never overwritten
// unless they ask for it.
func DefaultNotebookOut(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".out.ipynb"
}

// RunNotebook runs the notebook at path and writes it, with outputs, to
// outPath (DefaultNotebookOut(path) when ""; into it when it is a
// directory; in place only when outPath == path). Cell output text is copied to stdout (nil: discarded) as it
// comes. Execution stops at the first failing cell unless the cell is
// tagged raises-exception; the notebook is written either way, and the
// returned error names the failed cell.
func RunNotebook(path, outPath string, stdout io.Writer) error {
	return RunNotebookContext(context.Background(), path, outPath, stdout)
}

// RunNotebookContext is RunNotebook with a context: cancelling it
// interrupts the running cell, and the outputs so far are written.
func RunNotebookContext(ctx context.Context, path, outPath string, stdout io.Writer) error {
	return RunNotebookWith(ctx, path, outPath, stdout, NotebookOptions{})
}

// NotebookOptions configure RunNotebookWith.
type NotebookOptions struct {
	// NewSession starts the session the cells run in; nil means an
	// interpreter in this process. `grundy run` gives it an engine
	// process, so that a cell that kills it still leaves a notebook.
	NewSession func() (Session, error)
	// MaxCellOutput caps the stream text stored per cell, as the kernel
	// caps what it shows (0: DefaultMaxCellOutput).
	MaxCellOutput int
}

// RunNotebookWith is RunNotebookContext with options. The output path is
// checked before any cell runs; the notebook is written, with the
// outputs so far, however the run ends (a failing cell, a cell that kills
// the engine process, an interrupt), through a symbolic link to its
// target, with the input notebook's permissions.
func RunNotebookWith(ctx context.Context, path, outPath string, stdout io.Writer, opt NotebookOptions) error {
	if stdout == nil {
		stdout = io.Discard
	}
	if outPath == "" {
		outPath = DefaultNotebookOut(path)
	} else if st, err := os.Stat(outPath); err == nil && st.IsDir() {
		outPath = filepath.Join(outPath, filepath.Base(path))
		if same, _ := sameFile(outPath, path); same {
			return fmt.Errorf("--out %s is the notebook's own directory: give a file name, or the notebook's path to update it in place", filepath.Dir(outPath))
		}
	}
	in, err := os.Stat(path)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	nb, err := parseNotebook(raw, path)
	if err != nil {
		return err
	}
	if err := atomicfile.CheckWritable(outPath); err != nil {
		return fmt.Errorf("cannot write the executed notebook to %s (%v); no cell was run", outPath, err)
	}
	newSession := opt.NewSession
	if newSession == nil {
		newSession = newNotebookSession
	}
	sess, err := newSession()
	if err != nil {
		return fmt.Errorf("starting the interpreter: %w", err)
	}
	defer sess.Close()

	nb.maxOutput = opt.MaxCellOutput
	runErr := nb.run(ctx, sess, stdout)
	data, err := nb.encode()
	if err == nil {
		err = writeNotebookFile(outPath, data, in.Mode().Perm())
	}
	if err != nil {
		if runErr != nil {
			return fmt.Errorf("%w; and writing %s failed: %v", runErr, outPath, err)
		}
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (outputs so far written to %s)", runErr, outPath)
	}
	fmt.Fprintf(stdout, "wrote %s (%d cells run)\n", outPath, nb.executed)
	return nil
}

func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// notebook is the decoded JSON, kept as generic maps so that everything
// grundy does not touch (metadata of other tools, attachments) survives.
type notebook struct {
	doc      map[string]any
	cells    []map[string]any
	path     string
	executed int

	mu        sync.Mutex
	displays  map[string][]map[string]any // display_id -> outputs showing it
	maxOutput int                         // stream bytes stored per cell (0: DefaultMaxCellOutput)
	outs      []*cellOutput               // every cell's, to settle before encoding
}

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
		cell, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: cell %d is not an object", path, i+1)
		}
		nb.cells = append(nb.cells, cell)
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
		id, _ := cell["id"].(string)
		if !cellIDPattern.MatchString(id) || seen[id] {
			id = newCellID(i, cellSource(cell), seen)
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
	md["kernelspec"] = KernelspecMetadata()
	md["language_info"] = LanguageInfo()
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

// cellSource joins a cell's source, which nbformat allows as a string or a
// list of lines.
func cellSource(cell map[string]any) string {
	switch s := cell["source"].(type) {
	case string:
		return s
	case []any:
		var b strings.Builder
		for _, line := range s {
			if l, ok := line.(string); ok {
				b.WriteString(l)
			}
		}
		return b.String()
	}
	return ""
}

func hasTag(cell map[string]any, tag string) bool {
	md, _ := cell["metadata"].(map[string]any)
	tags, _ := md["tags"].([]any)
	return slices.Contains(tags, any(tag))
}

// run executes the code cells in order and returns the failure that
// stopped it, if any.
func (nb *notebook) run(ctx context.Context, sess Session, stdout io.Writer) error {
	for i, cell := range nb.cells {
		if cell["cell_type"] != "code" {
			continue
		}
		src := cellSource(cell)
		cell["outputs"] = []any{}
		cell["execution_count"] = nil
		if strings.TrimSpace(src) == "" {
			continue // as Jupyter does: an empty cell gets no number
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: interrupted before cell %d", nb.path, i+1)
		}
		nb.executed++
		count := nb.executed
		cell["execution_count"] = count
		out := &cellOutput{nb: nb, cell: cell, stdout: stdout, cap: OutputCap{Limit: nb.maxOutput}}
		res, err := sess.Execute(ctx, src, out)
		out.finish()
		nb.outs = append(nb.outs, out)
		if res.Value != nil {
			md := res.Metadata
			if md == nil {
				md = map[string]any{}
			}
			out.add(map[string]any{
				"output_type":     "execute_result",
				"execution_count": count,
				"data":            mimeData(res.Value),
				"metadata":        md,
			})
			out.echo(res.Value)
		}
		if err == nil {
			continue
		}
		var ee *EvalError
		if !errors.As(err, &ee) {
			ee = &EvalError{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
		}
		tb := ee.Traceback
		if len(tb) == 0 {
			tb = []string{ee.Name + ": " + ee.Value}
		}
		out.add(map[string]any{
			"output_type": "error",
			"ename":       ee.Name,
			"evalue":      ee.Value,
			"traceback":   stringsToAny(tb),
		})
		fmt.Fprintln(stdout, strings.Join(tb, "\n"))
		if hasTag(cell, "raises-exception") && ctx.Err() == nil {
			continue
		}
		return fmt.Errorf("%s: cell %d (In [%d]) failed: %s: %s", nb.path, i+1, count, ee.Name, ee.Value)
	}
	return nil
}

func stringsToAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// mimeData copies a bundle for nbformat: binary image data as base64 text.
func mimeData(b Bundle) map[string]any {
	out := make(map[string]any, len(b))
	for mime, v := range b {
		if raw, ok := v.([]byte); ok {
			if strings.HasPrefix(mime, "text/") || mime == "image/svg+xml" {
				v = string(raw)
			} else {
				v = base64.StdEncoding.EncodeToString(raw)
			}
		}
		out[mime] = v
	}
	return out
}

// cellOutput collects one cell's outputs as nbformat output objects. Cells
// may print from goroutines, so everything goes through the notebook's lock.
// Stream text is stored up to a cap (the rest is echoed, not kept), and a
// run of writes to one stream is gathered in a builder rather than by
// copying the text so far at each write.
type cellOutput struct {
	nb           *notebook
	cell         map[string]any
	stdout       io.Writer
	pendingClear bool
	cap          OutputCap
	open         map[string]any   // the stream output being written to
	openText     *strings.Builder // its text so far
}

var _ Output = (*cellOutput)(nil)

func (c *cellOutput) add(o map[string]any) {
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	c.addLocked(o)
}

func (c *cellOutput) addLocked(o map[string]any) {
	c.closeStreamLocked()
	if c.pendingClear {
		c.cell["outputs"] = []any{}
		c.pendingClear = false
	}
	c.cell["outputs"] = append(c.cell["outputs"].([]any), o)
}

// closeStreamLocked settles the open stream output's text.
func (c *cellOutput) closeStreamLocked() {
	if c.open != nil {
		c.open["text"] = c.openText.String()
		c.open, c.openText = nil, nil
	}
}

func (c *cellOutput) stream(name, text string) {
	if text == "" {
		return
	}
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	io.WriteString(c.stdout, text)
	keep, cutNow := c.cap.Take(text)
	c.appendStreamLocked(name, keep)
	if cutNow {
		c.appendStreamLocked("stderr", c.cap.CutNote("stored in the notebook"))
	}
}

func (c *cellOutput) appendStreamLocked(name, text string) {
	if text == "" {
		return
	}
	if c.open == nil || c.open["name"] != name || c.pendingClear {
		// Consecutive writes to one stream make one output, as in
		// Jupyter; an earlier output of this stream continues too.
		outs := c.cell["outputs"].([]any)
		if last, ok := lastOutput(outs); ok && !c.pendingClear && last["output_type"] == "stream" && last["name"] == name {
			c.closeStreamLocked()
			b := &strings.Builder{}
			b.WriteString(last["text"].(string))
			c.open, c.openText = last, b
		} else {
			c.addLocked(map[string]any{"output_type": "stream", "name": name, "text": ""})
			outs = c.cell["outputs"].([]any)
			c.open, c.openText = outs[len(outs)-1].(map[string]any), &strings.Builder{}
		}
	}
	c.openText.WriteString(text)
}

func lastOutput(outs []any) (map[string]any, bool) {
	if len(outs) == 0 {
		return nil, false
	}
	o, ok := outs[len(outs)-1].(map[string]any)
	return o, ok
}

// finish settles the cell's outputs and says how much text was cut off.
func (c *cellOutput) finish() {
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	if c.cap.Dropped() > 0 {
		c.appendStreamLocked("stderr", c.cap.DroppedNote("stored in the notebook"))
	}
	c.closeStreamLocked()
}

func (c *cellOutput) Stdout(text string) { c.stream("stdout", text) }
func (c *cellOutput) Stderr(text string) { c.stream("stderr", text) }

func (c *cellOutput) Display(data Bundle, metadata map[string]any, displayID string, update bool) {
	if metadata == nil {
		metadata = map[string]any{}
	}
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	if update {
		// Jupyter updates every output showing this id, in any cell, and
		// ignores an id it never showed.
		for _, o := range c.nb.displays[displayID] {
			o["data"] = mimeData(data)
			o["metadata"] = metadata
		}
		return
	}
	o := map[string]any{"output_type": "display_data", "data": mimeData(data), "metadata": metadata}
	c.addLocked(o)
	if displayID != "" {
		c.nb.displays[displayID] = append(c.nb.displays[displayID], o)
	}
	c.echoLocked(data)
}

func (c *cellOutput) ClearOutput(wait bool) {
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	c.closeStreamLocked()
	if wait {
		c.pendingClear = true
		return
	}
	c.cell["outputs"] = []any{}
}

func (c *cellOutput) Input(prompt string, password bool) (string, error) {
	return "", errors.New("no input in a headless notebook run: give the value in the cell instead")
}

func (c *cellOutput) echo(b Bundle) {
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	c.echoLocked(b)
}

// echoLocked shows a rich value on the terminal as its text form.
func (c *cellOutput) echoLocked(b Bundle) {
	text, _ := b["text/plain"].(string)
	if text == "" {
		for mime := range b {
			text = "[" + mime + "]"
			break
		}
	}
	if text != "" {
		io.WriteString(c.stdout, strings.TrimRight(text, "\n")+"\n")
	}
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
		cells[i] = c
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

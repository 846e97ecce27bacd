package runner

import (
	"encoding/base64"
	"errors"
	"io"
	"strings"

	"grundy/engine"
)

// mimeData copies a bundle for nbformat: binary image data as base64 text.
func mimeData(b engine.Bundle) map[string]any {
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
	cell         cell
	stdout       io.Writer
	pendingClear bool
	cap          engine.OutputCap
	open         map[string]any   // the stream output being written to
	openText     *strings.Builder // its text so far
	toldNoInput  bool
}

var _ engine.Output = (*cellOutput)(nil)

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

func (c *cellOutput) Display(data engine.Bundle, metadata map[string]any, displayID string, update bool) {
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
	err := errors.New("no input in a headless notebook run: standard input is empty here; give the cell its data in code instead")
	// The cell sees only io.EOF (fmt.Scan's error is easy to drop), so
	// say why in its output, once, as the kernel does.
	c.nb.mu.Lock()
	tell := !c.toldNoInput
	c.toldNoInput = true
	c.nb.mu.Unlock()
	if tell {
		c.stream("stderr", "[grundy: "+err.Error()+"]\n")
	}
	return "", err
}

func (c *cellOutput) echo(b engine.Bundle) {
	c.nb.mu.Lock()
	defer c.nb.mu.Unlock()
	c.echoLocked(b)
}

// echoLocked shows a rich value on the terminal as its text form.
func (c *cellOutput) echoLocked(b engine.Bundle) {
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

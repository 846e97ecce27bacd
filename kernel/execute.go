package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"grundy/engine"
	"grundy/engine/remote"
	"grundy/engine/tooling"
)

// Streaming: output is sent in messages of at most streamChunk bytes, and
// text waits at most streamDelay before it is sent, so a chatty loop makes
// a few messages a second rather than one per Println.
const (
	streamChunk = 64 << 10
	streamDelay = 30 * time.Millisecond
	// maxDisplayBytes and maxDisplays cap the displays one cell may send.
	maxDisplayBytes = 64 << 20
	maxDisplays     = 1000
	// updateDelay: updates of one display closer together than this are
	// merged (the latest wins), so a tight loop updating a progress
	// display cannot flood iopub.
	updateDelay = 50 * time.Millisecond
)

type executeRequest struct {
	Code            string          `json:"code"`
	Silent          bool            `json:"silent"`
	StoreHistory    *bool           `json:"store_history"`
	UserExpressions json.RawMessage `json:"user_expressions"`
	AllowStdin      *bool           `json:"allow_stdin"`
	StopOnError     *bool           `json:"stop_on_error"`
}

func orTrue(b *bool) bool { return b == nil || *b }

func (k *Kernel) execute(ch channel, m *Message) any {
	var req executeRequest
	if e := decodeContent(m, &req); e != nil {
		return e
	}
	exprs, e := parseUserExpressions(req.UserExpressions)
	if e != nil {
		return e
	}
	store := orTrue(req.StoreHistory) && !req.Silent
	n := k.execCount + 1
	if store {
		k.execCount = n
	}
	if !req.Silent {
		k.publish(m, "execute_input", map[string]any{"code": req.Code, "execution_count": n})
	}

	ctx, cancel := context.WithCancel(context.Background())
	out := newCellOutput(ctx, k, m, orTrue(req.AllowStdin), k.cfg.MaxCellOutput)
	k.runMu.Lock()
	k.cancelCell, k.output = cancel, out
	k.runMu.Unlock()
	defer func() {
		k.runMu.Lock()
		k.cancelCell, k.output = nil, nil
		k.runMu.Unlock()
		cancel()
	}()

	label := fmt.Sprintf("In [%d]", n)
	if !store {
		label = fmt.Sprintf("a silent cell after In [%d]", k.execCount)
	}
	var res engine.Result
	var err error
	payload := []any{}
	if name, detail, ok := tooling.HelpRequest(req.Code); ok {
		payload = k.help(out, name, detail)
	} else if msg, ok := tooling.Magic(req.Code); ok {
		// Not Go, so it does not compile: say what to write instead.
		err = &engine.EvalError{Name: "CompileError", Value: msg}
	} else {
		res, err = k.run(remote.Label(ctx, label), req.Code, out)
	}
	// As ipykernel does, user expressions are evaluated only after a cell
	// that succeeded, with the cell's output and interrupt still in
	// place, so what they print lands before the reply like the cell's
	// own output and an interrupt stops a slow one.
	userExprs := map[string]any{}
	if err == nil {
		userExprs = k.evalUserExpressions(ctx, exprs, out)
	}
	out.finish()

	var plain string
	if err == nil && res.Value != nil {
		plain, _ = res.Value["text/plain"].(string)
	}
	if store {
		k.histMu.Lock()
		k.history = append(k.history, historyEntry{line: n, input: req.Code, output: plain})
		k.histMu.Unlock()
	}

	if err != nil {
		ee := asEvalError(err, ctx)
		tb := ee.Traceback
		if len(tb) == 0 {
			tb = []string{ee.Name + ": " + ee.Value}
		}
		content := map[string]any{"ename": ee.Name, "evalue": ee.Value, "traceback": tb}
		k.publish(m, "error", content)
		if orTrue(req.StopOnError) {
			// Abort every execute_request that has already arrived.
			k.abortThrough = k.received.Load()
		}
		return map[string]any{"status": "error", "execution_count": n, "ename": ee.Name, "evalue": ee.Value, "traceback": tb,
			"user_expressions": userExprs, "payload": []any{}}
	}
	if res.Value != nil && !req.Silent {
		meta := res.Metadata
		if meta == nil {
			meta = map[string]any{}
		}
		k.publish(m, "execute_result", map[string]any{"execution_count": n, "data": res.Value, "metadata": meta})
	}
	return map[string]any{"status": "ok", "execution_count": n, "user_expressions": userExprs, "payload": payload}
}

// userExpr is one entry of an execute_request's user_expressions.
type userExpr struct {
	name string
	code string
	bad  string // why the entry cannot be evaluated, if it cannot
}

// parseUserExpressions reads user_expressions, a JSON object of name ->
// Go expression, in name order so replies are reproducible. An entry that
// is not a string gets an error result of its own; a field that is not an
// object at all fails the request, as the cell's author cannot have meant
// it.
func parseUserExpressions(raw json.RawMessage) ([]userExpr, map[string]any) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, errorContent("BadRequest", "user_expressions must be an object mapping names to Go expressions (strings): "+err.Error())
	}
	exprs := make([]userExpr, 0, len(m))
	for name, v := range m {
		e := userExpr{name: name}
		if err := json.Unmarshal(v, &e.code); err != nil {
			e.bad = fmt.Sprintf("user expression %q is %s, not a string of Go code", name, v)
		}
		exprs = append(exprs, e)
	}
	sort.Slice(exprs, func(i, j int) bool { return exprs[i].name < exprs[j].name })
	return exprs, nil
}

// evalUserExpressions evaluates each expression as a cell of its own and
// returns the reply's user_expressions: per name the value's display
// bundle, or the error, in the shapes the messaging spec gives.
func (k *Kernel) evalUserExpressions(ctx context.Context, exprs []userExpr, out engine.Output) map[string]any {
	results := make(map[string]any, len(exprs))
	for _, e := range exprs {
		if e.bad != "" {
			results[e.name] = exprError(&engine.EvalError{Name: "BadRequest", Value: e.bad})
			continue
		}
		res, err := k.run(remote.NoReplay(ctx), e.code, out)
		if err != nil {
			results[e.name] = exprError(asEvalError(err, ctx))
			continue
		}
		data, meta := res.Value, res.Metadata
		if data == nil {
			// The expression had no value (a call of a function
			// without results, say): an empty bundle, not an error.
			data = engine.Bundle{}
		}
		if meta == nil {
			meta = map[string]any{}
		}
		results[e.name] = map[string]any{"status": "ok", "data": data, "metadata": meta}
	}
	return results
}

func exprError(ee *engine.EvalError) map[string]any {
	tb := ee.Traceback
	if len(tb) == 0 {
		tb = []string{ee.Name + ": " + ee.Value}
	}
	return map[string]any{"status": "error", "ename": ee.Name, "evalue": ee.Value, "traceback": tb}
}

// run calls the engine, turning a panic inside it into a cell error.
func (k *Kernel) run(ctx context.Context, code string, out engine.Output) (res engine.Result, err error) {
	s, err := k.session()
	if err != nil {
		return res, &engine.EvalError{Name: "EngineError", Value: "the Go engine did not start: " + err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			err = &engine.EvalError{Name: "panic", Value: fmt.Sprint(r), Traceback: []string{fmt.Sprintf("panic: %v", r), "(the engine recovered; the session is still usable)"}}
		}
	}()
	return s.Execute(ctx, code, out)
}

func asEvalError(err error, ctx context.Context) *engine.EvalError {
	var ee *engine.EvalError
	if errors.As(err, &ee) {
		return ee
	}
	if ctx.Err() != nil {
		return &engine.EvalError{Name: "Interrupted", Value: "the cell was interrupted"}
	}
	return &engine.EvalError{Name: "Error", Value: err.Error()}
}

// cellOutput is the engine.Output of one execute_request: it turns the
// cell's output into iopub messages (and stdin requests) parented to it.
type cellOutput struct {
	ctx        context.Context
	k          *Kernel
	parent     *Message
	allowStdin bool

	mu           sync.Mutex
	pendingName  string
	pending      []byte
	timer        *time.Timer
	cap          engine.OutputCap
	displayBytes int
	displays     int
	toldNoStdin  bool

	lastUpdate     map[string]time.Time
	pendingUpdates map[string][]byte // display id -> update content
	updateOrder    []string
	updateTimer    *time.Timer

	inputMu sync.Mutex
}

func newCellOutput(ctx context.Context, k *Kernel, parent *Message, allowStdin bool, limit int) *cellOutput {
	return &cellOutput{ctx: ctx, k: k, parent: parent, allowStdin: allowStdin, cap: engine.OutputCap{Limit: limit}}
}

func (o *cellOutput) Stdout(text string) { o.write("stdout", text) }
func (o *cellOutput) Stderr(text string) { o.write("stderr", text) }

func (o *cellOutput) write(name, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	text, cutNow := o.cap.Take(text)
	if text == "" && !cutNow {
		return
	}
	if o.pendingName != name {
		o.flushLocked()
		o.pendingName = name
	}
	o.pending = append(o.pending, text...)
	for len(o.pending) >= streamChunk {
		o.sendChunkLocked(streamChunk)
	}
	if cutNow {
		o.flushLocked()
		o.noteLocked(strings.TrimSuffix(o.cap.CutNote("shown"), "]\n") + " Interrupt the kernel to stop the cell.]\n")
		return
	}
	if len(o.pending) > 0 && o.timer == nil {
		o.timer = time.AfterFunc(streamDelay, o.flush)
	}
}

func (o *cellOutput) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
}

func (o *cellOutput) flushLocked() {
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	for len(o.pending) > 0 {
		o.sendChunkLocked(streamChunk)
	}
}

// sendChunkLocked sends up to n pending bytes, never splitting a rune.
func (o *cellOutput) sendChunkLocked(n int) {
	if n >= len(o.pending) {
		n = len(o.pending)
	} else {
		for n > 0 && !utf8.RuneStart(o.pending[n]) {
			n--
		}
		if n == 0 {
			n = min(len(o.pending), streamChunk)
		}
	}
	o.k.publish(o.parent, "stream", map[string]any{"name": o.pendingName, "text": string(o.pending[:n])})
	o.pending = append(o.pending[:0], o.pending[n:]...)
}

func (o *cellOutput) Display(data engine.Bundle, metadata map[string]any, displayID string, update bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	if data == nil {
		data = engine.Bundle{}
	}
	if metadata == nil {
		metadata = map[string]any{}
	}
	content := map[string]any{"data": data, "metadata": metadata, "transient": map[string]any{}}
	if displayID != "" {
		content["transient"] = map[string]any{"display_id": displayID}
	}
	body, err := json.Marshal(content)
	if err != nil {
		o.noteLocked(fmt.Sprintf("[grundy: cannot display a value: %v]\n", err))
		return
	}
	if update && displayID != "" {
		o.updateLocked(displayID, body)
		return
	}
	o.flushUpdatesLocked()
	if o.displays >= maxDisplays || o.displayBytes+len(body) > maxDisplayBytes {
		if o.displays == maxDisplays || o.displayBytes <= maxDisplayBytes {
			o.noteLocked(fmt.Sprintf("[grundy: this cell reached the display limit (%d displays or %d bytes); further displays are not shown]\n", maxDisplays, maxDisplayBytes))
		}
		o.displays = maxDisplays + 1
		o.displayBytes = maxDisplayBytes + 1
		return
	}
	o.displays++
	o.displayBytes += len(body)
	o.k.publish(o.parent, "display_data", json.RawMessage(body))
}

func (o *cellOutput) noteLocked(text string) {
	o.k.publish(o.parent, "stream", map[string]any{"name": "stderr", "text": text})
}

// updateLocked sends an update now, or keeps it as the pending one for
// its display when the last went out less than updateDelay ago.
func (o *cellOutput) updateLocked(id string, body []byte) {
	if o.lastUpdate == nil {
		o.lastUpdate = map[string]time.Time{}
		o.pendingUpdates = map[string][]byte{}
	}
	if time.Since(o.lastUpdate[id]) >= updateDelay && o.pendingUpdates[id] == nil {
		o.lastUpdate[id] = time.Now()
		o.k.publish(o.parent, "update_display_data", json.RawMessage(body))
		return
	}
	if o.pendingUpdates[id] == nil {
		o.updateOrder = append(o.updateOrder, id)
	}
	o.pendingUpdates[id] = body
	if o.updateTimer == nil {
		o.updateTimer = time.AfterFunc(updateDelay, func() {
			o.mu.Lock()
			defer o.mu.Unlock()
			o.updateTimer = nil
			o.flushUpdatesLocked()
		})
	}
}

func (o *cellOutput) flushUpdatesLocked() {
	if o.updateTimer != nil {
		o.updateTimer.Stop()
		o.updateTimer = nil
	}
	for _, id := range o.updateOrder {
		if body := o.pendingUpdates[id]; body != nil {
			o.lastUpdate[id] = time.Now()
			o.k.publish(o.parent, "update_display_data", json.RawMessage(body))
			delete(o.pendingUpdates, id)
		}
	}
	o.updateOrder = o.updateOrder[:0]
}

func (o *cellOutput) ClearOutput(wait bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	o.flushUpdatesLocked()
	o.k.publish(o.parent, "clear_output", map[string]any{"wait": wait})
}

// ErrNoStdin is returned by Input when the frontend does not accept input.
var ErrNoStdin = errors.New("this frontend does not allow input (allow_stdin is false): standard input is empty here; give the cell its data in code instead")

func (o *cellOutput) Input(prompt string, password bool) (string, error) {
	if !o.allowStdin {
		// The cell may well ignore the error (fmt.Scanln's is easy to
		// drop), so say it where the user looks, once per cell.
		o.mu.Lock()
		if !o.toldNoStdin {
			o.toldNoStdin = true
			o.flushLocked()
			o.k.publish(o.parent, "stream", map[string]any{"name": "stderr", "text": "[grundy: " + ErrNoStdin.Error() + "]\n"})
		}
		o.mu.Unlock()
		return "", ErrNoStdin
	}
	o.inputMu.Lock()
	defer o.inputMu.Unlock()
	o.flush()
	// Drop replies to earlier, abandoned requests.
	for drained := false; !drained; {
		select {
		case <-o.k.inputReplies:
		default:
			drained = true
		}
	}
	o.k.send(stdinCh, o.parent.Identities, o.parent, "input_request", map[string]any{"prompt": prompt, "password": password}, nil)
	for {
		select {
		case r := <-o.k.inputReplies:
			var c struct {
				Value  string `json:"value"`
				Status string `json:"status"`
			}
			if err := json.Unmarshal(r.Content, &c); err != nil {
				return "", fmt.Errorf("reading input: bad input_reply: %v", err)
			}
			if c.Status == "error" {
				return "", errors.New("reading input: the frontend cancelled the request")
			}
			return c.Value, nil
		case <-o.ctx.Done():
			return "", errors.New("reading input: interrupted")
		case <-o.k.shutdown:
			return "", errors.New("reading input: the kernel is shutting down")
		}
	}
}

// finish sends what is still buffered and says how much was cut.
func (o *cellOutput) finish() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.flushLocked()
	o.flushUpdatesLocked()
	if o.cap.Dropped() > 0 {
		o.noteLocked(o.cap.DroppedNote("shown"))
	}
}

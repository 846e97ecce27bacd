package kernel

import (
	"encoding/json"
	"fmt"
	"path"
	"unicode/utf8"

	"grundy/engine"
)

// defaultHandlers is the dispatch table, in the manner of ipykernel's
// kernelbase: one function per message type.
func defaultHandlers() map[string]handler {
	return map[string]handler{
		"kernel_info_request": (*Kernel).kernelInfo,
		"execute_request":     (*Kernel).execute,
		"complete_request":    (*Kernel).complete,
		"inspect_request":     (*Kernel).inspect,
		"is_complete_request": (*Kernel).isComplete,
		"history_request":     (*Kernel).historyReq,
		"comm_info_request":   (*Kernel).commInfo,
		"comm_open":           (*Kernel).commOpen,
		"comm_msg":            noReply,
		"comm_close":          noReply,
		"interrupt_request":   (*Kernel).interruptReq,
		"shutdown_request":    (*Kernel).shutdownReq,
	}
}

func noReply(*Kernel, channel, *Message) any { return nil }

// decodeContent fills v from m's content; on failure it returns the error
// reply to send instead.
func decodeContent(m *Message, v any) map[string]any {
	if err := json.Unmarshal(m.Content, v); err != nil {
		return errorContent("BadRequest", fmt.Sprintf("%s content: %v", m.Header.MsgType, err))
	}
	return nil
}

type helpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

type kernelInfoReply struct {
	Status                string         `json:"status"`
	ProtocolVersion       string         `json:"protocol_version"`
	Implementation        string         `json:"implementation"`
	ImplementationVersion string         `json:"implementation_version"`
	LanguageInfo          map[string]any `json:"language_info"`
	Banner                string         `json:"banner"`
	HelpLinks             []helpLink     `json:"help_links"`
	Debugger              bool           `json:"debugger"`
}

// kernelInfo answers without waiting for the engine, so a frontend sees
// the kernel ready within milliseconds of starting it.
func (k *Kernel) kernelInfo(ch channel, m *Message) any {
	return kernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        "grundy",
		ImplementationVersion: k.cfg.Version,
		// The same language_info as notebooks written by `grundy run`, so
		// a notebook saved from Jupyter and one run from the shell agree.
		LanguageInfo: engine.LanguageInfo(),
		Banner:       "grundy " + k.cfg.Version + ": Go cells for impartial combinatorial games (Go " + goVersion() + ")",
		HelpLinks: []helpLink{
			// Served by the Notebook from the kernelspec's directory;
			// the path is relative to its static files, as the Help
			// menu resolves links.
			{"grundy library reference", "../kernelspecs/" + KernelName + "/" + ReferenceFile},
			{"Go language specification", "https://go.dev/ref/spec"},
			{"Go standard library", "https://pkg.go.dev/std"},
		},
	}
}

func (k *Kernel) complete(ch channel, m *Message) any {
	var req struct {
		Code      string `json:"code"`
		CursorPos *int   `json:"cursor_pos"`
	}
	if e := decodeContent(m, &req); e != nil {
		return e
	}
	cursor := utf8.RuneCountInString(req.Code)
	if req.CursorPos != nil && *req.CursorPos >= 0 && *req.CursorPos <= cursor {
		cursor = *req.CursorPos
	}
	c := engine.Completion{CursorStart: cursor, CursorEnd: cursor}
	if s, err := k.session(); err == nil {
		c = safeCall(func() engine.Completion { return s.Complete(req.Code, cursor) }, c)
	}
	if c.Matches == nil {
		c.Matches = []string{}
	}
	meta := c.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	return map[string]any{"status": "ok", "matches": c.Matches, "cursor_start": c.CursorStart, "cursor_end": c.CursorEnd, "metadata": meta}
}

func (k *Kernel) inspect(ch channel, m *Message) any {
	var req struct {
		Code        string `json:"code"`
		CursorPos   *int   `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if e := decodeContent(m, &req); e != nil {
		return e
	}
	cursor := utf8.RuneCountInString(req.Code)
	if req.CursorPos != nil && *req.CursorPos >= 0 && *req.CursorPos <= cursor {
		cursor = *req.CursorPos
	}
	data, found := k.lookup(req.Code, cursor, req.DetailLevel)
	return map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}}
}

// lookup asks the session for the documentation of the name at cursor,
// as Shift-Tab and ?name show it.
func (k *Kernel) lookup(code string, cursor, detail int) (map[string]any, bool) {
	type result struct {
		data  engine.Bundle
		found bool
	}
	var r result
	if s, err := k.session(); err == nil {
		r = safeCall(func() result {
			d, f := s.Inspect(code, cursor, detail)
			return result{d, f}
		}, r)
	}
	data := map[string]any(r.data)
	if data == nil || !r.found {
		return map[string]any{}, false
	}
	return data, len(data) > 0
}

func (k *Kernel) isComplete(ch channel, m *Message) any {
	var req struct {
		Code string `json:"code"`
	}
	if e := decodeContent(m, &req); e != nil {
		return e
	}
	type result struct{ status, indent string }
	r := result{"unknown", ""}
	if s, err := k.session(); err == nil {
		r = safeCall(func() result {
			st, in := s.IsComplete(req.Code)
			return result{st, in}
		}, r)
	}
	switch r.status {
	case "complete", "invalid", "unknown":
		return map[string]any{"status": r.status}
	case "incomplete":
		return map[string]any{"status": r.status, "indent": r.indent}
	}
	return map[string]any{"status": "unknown"}
}

// historySession is the session number this kernel's history lives in;
// grundy keeps no history across kernels.
const historySession = 1

func (k *Kernel) historyReq(ch channel, m *Message) any {
	var req struct {
		Output         bool   `json:"output"`
		Raw            bool   `json:"raw"`
		HistAccessType string `json:"hist_access_type"`
		Session        int    `json:"session"`
		Start          int    `json:"start"`
		Stop           *int   `json:"stop"`
		N              *int   `json:"n"`
		Pattern        string `json:"pattern"`
		Unique         bool   `json:"unique"`
	}
	if e := decodeContent(m, &req); e != nil {
		return e
	}
	k.histMu.Lock()
	all := append([]historyEntry(nil), k.history...)
	k.histMu.Unlock()

	var sel []historyEntry
	switch req.HistAccessType {
	case "range":
		// Session 0 or 1 is this one; negative (earlier) sessions and
		// other positive numbers have no history here.
		if req.Session == 0 || req.Session == historySession {
			stop := len(all) + 1
			if req.Stop != nil {
				stop = *req.Stop
			}
			for _, e := range all {
				if e.line >= req.Start && e.line < stop {
					sel = append(sel, e)
				}
			}
		}
	case "search":
		pat := req.Pattern
		if pat == "" {
			pat = "*"
		}
		seen := map[string]bool{}
		for i := len(all) - 1; i >= 0; i-- {
			e := all[i]
			if ok, err := path.Match(pat, e.input); err != nil || !ok {
				continue
			}
			if req.Unique {
				if seen[e.input] {
					continue
				}
				seen[e.input] = true
			}
			sel = append([]historyEntry{e}, sel...)
			if req.N != nil && *req.N > 0 && len(sel) >= *req.N {
				break
			}
		}
	default: // "tail", and anything unknown
		sel = all
		if req.N != nil && *req.N >= 0 && *req.N < len(sel) {
			sel = sel[len(sel)-*req.N:]
		}
	}
	hist := make([][]any, 0, len(sel))
	for _, e := range sel {
		if req.Output {
			var out any
			if e.output != "" {
				out = e.output
			}
			hist = append(hist, []any{historySession, e.line, []any{e.input, out}})
		} else {
			hist = append(hist, []any{historySession, e.line, e.input})
		}
	}
	return map[string]any{"status": "ok", "history": hist}
}

func (k *Kernel) commInfo(ch channel, m *Message) any {
	return map[string]any{"status": "ok", "comms": map[string]any{}}
}

// commOpen: grundy registers no comm targets, so, like ipykernel for an
// unknown target, it closes the comm at once.
func (k *Kernel) commOpen(ch channel, m *Message) any {
	var req struct {
		CommID     string `json:"comm_id"`
		TargetName string `json:"target_name"`
	}
	if decodeContent(m, &req) == nil && req.CommID != "" {
		logf("no comm target %q; closing comm %s", req.TargetName, req.CommID)
		k.publish(m, "comm_close", map[string]any{"comm_id": req.CommID, "data": map[string]any{}})
	}
	return nil
}

func (k *Kernel) interruptReq(ch channel, m *Message) any {
	k.userInterrupt()
	return map[string]any{"status": "ok"}
}

func (k *Kernel) shutdownReq(ch channel, m *Message) any {
	var req struct {
		Restart bool `json:"restart"`
	}
	_ = json.Unmarshal(m.Content, &req)
	content := map[string]any{"status": "ok", "restart": req.Restart}
	// ipykernel also broadcasts the reply, so every frontend learns of it.
	k.publish(m, "shutdown_reply", content)
	k.shutdownAsked.Store(true)
	k.interrupt()
	return content
}

// safeCall runs an engine call, turning a panic into the fallback value so
// a bug in completion or inspection never takes the kernel down.
func safeCall[T any](f func() T, fallback T) (v T) {
	defer func() {
		if r := recover(); r != nil {
			logf("engine panicked: %v", r)
			v = fallback
		}
	}()
	return f()
}

package kernel

import (
	"unicode/utf8"

	"grundy/engine"
	"grundy/engine/tooling"
)

// help answers a documentation request (tooling.HelpRequest): the
// session's Inspect text as a "page" payload, in the pager as IPython
// shows it, or a line saying nothing was found.
func (k *Kernel) help(out *cellOutput, name string, detail int) []any {
	if s, err := k.session(); err == nil {
		engine.WaitStarted(s)
	}
	data, found := k.lookup(name, utf8.RuneCountInString(name), detail)
	if !found {
		out.Stdout(tooling.NoHelp(name))
		return []any{}
	}
	return []any{map[string]any{"source": "page", "data": data, "start": 0}}
}

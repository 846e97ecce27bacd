package engine

import (
	"runtime"
	"strings"
)

// The kernel as Jupyter knows it, in one place: the kernelspec `grundy
// install` writes and the metadata of every notebook grundy writes name
// the same kernel, so Jupyter reopens a notebook run from the shell with
// grundy, and kernel_info describes the language as notebooks record it.
const (
	KernelName  = "grundy"      // the kernelspec's directory: jupyter console --kernel grundy
	DisplayName = "Go (grundy)" // what Jupyter's kernel menus show
	Language    = "go"
)

// KernelspecMetadata is a notebook's metadata.kernelspec.
func KernelspecMetadata() map[string]any {
	return map[string]any{"name": KernelName, "display_name": DisplayName, "language": Language}
}

// LanguageInfo is a notebook's metadata.language_info and kernel_info's
// language_info.
func LanguageInfo() map[string]any {
	return map[string]any{
		"name":               Language,
		"version":            strings.TrimPrefix(runtime.Version(), "go"),
		"mimetype":           "text/x-go",
		"file_extension":     ".go",
		"pygments_lexer":     "go",
		"codemirror_mode":    "go",
		"nbconvert_exporter": "script",
	}
}

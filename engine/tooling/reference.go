package tooling

import (
	"fmt"
	"html"
	"path"
	"sort"
	"strings"

	"github.com/traefik/yaegi/stdlib"

	"grundy/engine/symbols"
)

// ReferenceHTML is the library's reference as one HTML page: every
// package the cells preload, with each exported name's declaration and
// doc comment, as Shift-Tab shows them. `grundy install` puts it beside
// the kernelspec, where the Notebook's Help menu finds it.
func ReferenceHTML(version string) []byte {
	byPkg := map[string][]string{}
	for key, e := range libDocs {
		if e.Kind == "package" {
			byPkg[key] = append(byPkg[key], key)
			continue
		}
		// "grundy/stdlib/solve.Table.At" is in "grundy/stdlib/solve".
		slash := strings.LastIndex(key, "/") + 1
		pkg := key[:slash+strings.Index(key[slash:], ".")]
		byPkg[pkg] = append(byPkg[pkg], key)
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		// Only what cells can use: packages with symbol tables.
		if hasTable(p) {
			pkgs = append(pkgs, p)
		}
	}
	sort.Strings(pkgs)
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>grundy %s: library reference</title>\n", html.EscapeString(version))
	b.WriteString(`<style>body{font-family:sans-serif;max-width:60em;margin:1em auto;line-height:1.4}pre{background:#f6f6f6;padding:.4em;white-space:pre-wrap}h2{border-bottom:1px solid #ccc}nav a{margin-right:1em}</style></head><body>` + "\n")
	fmt.Fprintf(&b, "<h1>grundy %s: library reference</h1>\n<p>What a cell can use without an import. In a notebook, Shift-Tab or <code>?name</code> shows one entry.</p>\n<nav>", html.EscapeString(version))
	for _, p := range pkgs {
		fmt.Fprintf(&b, `<a href="#%s">%s</a>`, anchor(p), html.EscapeString(path.Base(p)))
	}
	b.WriteString("</nav>\n")
	for _, p := range pkgs {
		keys := byPkg[p]
		sort.Slice(keys, func(i, j int) bool {
			// The package doc first, then names in order.
			if (keys[i] == p) != (keys[j] == p) {
				return keys[i] == p
			}
			return keys[i] < keys[j]
		})
		fmt.Fprintf(&b, "<h2 id=\"%s\">%s <small>(%s)</small></h2>\n", anchor(p), html.EscapeString(path.Base(p)), html.EscapeString(p))
		for _, k := range keys {
			e := libDocs[k]
			if k != p {
				fmt.Fprintf(&b, "<pre id=\"%s\">%s</pre>\n", anchor(k), html.EscapeString(e.Sig))
			}
			if e.Doc != "" {
				fmt.Fprintf(&b, "<p>%s</p>\n", strings.ReplaceAll(html.EscapeString(strings.TrimSpace(e.Doc)), "\n\n", "</p><p>"))
			}
		}
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// hasTable reports whether cells can use the package at path: the
// interpreter has its symbol table.
func hasTable(p string) bool {
	key := p + "/" + path.Base(p)
	_, lib := symbols.Symbols[key]
	_, std := stdlib.Symbols[key]
	return lib || std
}

func anchor(key string) string {
	return strings.NewReplacer("/", "-", ".", "-").Replace(key)
}

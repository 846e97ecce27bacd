package prelude

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/stdlib"
)

// Standard packages by name: a cell that names filepath.Join or
// template.Must without importing them gets them imported, as goimports
// would (GoNB does the same), and completion and inspection know them.

// preferredPackage settles names several standard packages share, where
// one is what a cell means far more often; and names unsafe, which has no
// table (the engine writes what cells may use of it as constants).
var preferredPackage = map[string]string{"template": "text/template", "unsafe": "unsafe"}

var (
	stdNamesOnce sync.Once
	stdNames     map[string][]string // package name -> import paths
)

// StandardPackages lists the standard packages whose name is name.
func StandardPackages(name string) []string {
	stdNamesOnce.Do(func() {
		stdNames = map[string][]string{}
		for k := range stdlib.Symbols {
			i := strings.LastIndexByte(k, '/')
			if i < 0 {
				continue
			}
			path, n := k[:i], k[i+1:]
			if strings.Contains(path, "internal") || strings.Contains(path, "vendor") {
				continue
			}
			stdNames[n] = append(stdNames[n], path)
		}
		for _, v := range stdNames {
			sort.Strings(v)
		}
	})
	return stdNames[name]
}

// StandardPackage is the standard package a cell means by name without
// importing it, or "".
func StandardPackage(name string) string {
	if p, ok := preferredPackage[name]; ok {
		return p
	}
	if paths := StandardPackages(name); len(paths) == 1 {
		return paths[0]
	}
	return ""
}

// leftOut are standard packages yaegi has no tables for (they start
// processes or get around the type system), by name.
var leftOut = map[string]string{"syscall": "syscall", "exec": "os/exec", "plugin": "plugin"}

// LeftOutPackage is the standard package a cell means by name that the
// interpreter leaves out, or "".
func LeftOutPackage(name string) string { return leftOut[name] }

// PackageHint says which import an undefined name may be missing, for
// names several standard packages share ("" otherwise).
func PackageHint(name string) string {
	paths := StandardPackages(name)
	if len(paths) < 2 {
		return ""
	}
	q := make([]string, len(paths))
	for i, p := range paths {
		q[i] = strconv.Quote(p)
	}
	return " (import " + strings.Join(q, " or ") + ")"
}

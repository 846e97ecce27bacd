package prelude

import (
	"maps"
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
// table (the engine writes what cells may use of it as constants). rand
// is imported at its first use, not with the session's packages: yaegi
// v0.16.1 keeps a name's first import for the types of declarations, so
// a cell's import "math/rand/v2" (or "crypto/rand") after the session
// had math/rand as rand gave func f() rand.Source v1's Source, and a
// struct with a rand.PCG field failed ("undefined: rand.PCG").
var preferredPackage = map[string]string{"template": "text/template", "unsafe": "unsafe", "rand": "math/rand"}

// PreferredPackages are the packages a name several standard packages
// share means in a cell that names it without importing it.
func PreferredPackages() map[string]string { return maps.Clone(preferredPackage) }

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

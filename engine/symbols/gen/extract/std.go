package extract

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// yaegi v0.16.1's tables of the standard library were made with Go 1.22.
// What later releases added is read from the toolchain's api/go1.N.txt
// files (N from 22 up to the module's go version, so a newer toolchain
// makes the same table) and generated as a supplement.

// StdFileName is the supplement's file in engine/symbols.
const StdFileName = "zstd_newer.go"

// firstNewMinor is the first Go release whose api file is read.
const firstNewMinor = 22

// stdSkip are standard packages cells cannot use: test helpers, and what
// yaegi leaves out on purpose.
var stdSkip = map[string]bool{
	"crypto/mlkem/mlkemtest": true, "testing/cryptotest": true, "testing/synctest": true,
	"embed": true, "os/exec": true, "plugin": true, "runtime/cgo": true, "runtime/coverage": true,
	"runtime/race": true, "time/tzdata": true, "unsafe": true,
}

// engineSource are the packages the engine provides as interpreted source.
var engineSource = map[string]bool{"cmp": true, "iter": true, "maps": true, "slices": true}

// APISymbol is one package-level name an api file lists.
type APISymbol struct {
	Path, Name string
	Kind       string // func, var, const, type
	Generic    bool
	Minor      int    // the Go release that added it
	ConstType  string // for constants: ideal-int, ..., or the type's name
	ConstValue string // for untyped constants: the value as written
}

var apiLine = regexp.MustCompile(`^pkg ([^ ,]+), (func|var|const|type) ([A-Za-z_][A-Za-z0-9_]*)(.*)$`)

// ReadAPI lists the package-level symbols Go 1.first to 1.last added,
// without platform-specific ones, struct fields and methods.
func ReadAPI(goroot string, first, last int) ([]APISymbol, error) {
	byKey := map[string]*APISymbol{}
	var order []string
	for minor := first; minor <= last; minor++ {
		f, err := os.Open(filepath.Join(goroot, "api", fmt.Sprintf("go1.%d.txt", minor)))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if i := strings.LastIndex(line, " #"); i > 0 {
				line = line[:i]
			}
			m := apiLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			path, kind, name, rest := m[1], m[2], m[3], m[4]
			if kind == "type" && strings.Contains(rest, ", ") {
				continue // a field or an interface's method
			}
			key := path + "." + name
			s := byKey[key]
			if s == nil {
				s = &APISymbol{Path: path, Name: name, Kind: kind, Minor: minor, Generic: strings.HasPrefix(rest, "[")}
				byKey[key] = s
				order = append(order, key)
			}
			if kind == "const" {
				if v, ok := strings.CutPrefix(rest, " = "); ok {
					s.ConstValue = v
				} else {
					s.ConstType = strings.TrimSpace(rest)
				}
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	out := make([]APISymbol, len(order))
	for i, k := range order {
		out[i] = *byKey[k]
	}
	return out, nil
}

// PackageName is the name of a standard package (math/rand/v2: rand).
func PackageName(path string) string {
	parts := strings.Split(path, "/")
	n := parts[len(parts)-1]
	if len(parts) > 1 && regexp.MustCompile(`^v[0-9]+$`).MatchString(n) {
		n = parts[len(parts)-2]
	}
	return n
}

// Usable: a package cells may import from the symbol tables.
func Usable(path string) bool {
	return !stdSkip[path] && !engineSource[path] && !strings.Contains(path, "internal") &&
		!strings.HasPrefix(path, "vendor/") && !strings.HasPrefix(path, "syscall")
}

// LastMinor is the minor version of the go directive in root's go.mod.
func LastMinor(root string) (int, error) {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return 0, err
	}
	m := regexp.MustCompile(`(?m)^go 1\.(\d+)`).FindSubmatch(mod)
	if m == nil {
		return 0, fmt.Errorf("go.mod has no go directive")
	}
	return strconv.Atoi(string(m[1]))
}

// StdTable generates the supplement for the module at root with the
// toolchain on PATH.
func StdTable(root string, have func(key, name string) bool) ([]byte, error) {
	last, err := LastMinor(root)
	if err != nil {
		return nil, err
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	return Std(strings.TrimSpace(string(out)), last, have)
}

// Std generates the supplement: every non-generic symbol of a usable
// package that have (yaegi's table: "path/name" key and symbol) lacks.
func Std(goroot string, lastMinor int, have func(key, name string) bool) ([]byte, error) {
	syms, err := ReadAPI(goroot, firstNewMinor, lastMinor)
	if err != nil {
		return nil, err
	}
	byPkg := map[string][]APISymbol{}
	for _, s := range syms {
		if s.Generic || !Usable(s.Path) || have(s.Path+"/"+PackageName(s.Path), s.Name) {
			continue
		}
		byPkg[s.Path] = append(byPkg[s.Path], s)
	}
	var paths []string
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	alias := func(path string) string { return "std_" + strings.NewReplacer("/", "_", ".", "_").Replace(path) }
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by engine/symbols/gen from $GOROOT/api/go1.%d.txt to go1.%d.txt. DO NOT EDIT.\n\n", firstNewMinor, lastMinor)
	b.WriteString("package symbols\n\nimport (\n\t\"go/constant\"\n\t\"go/token\"\n\t\"reflect\"\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", alias(p), p)
	}
	b.WriteString(")\n\nvar _ = constant.MakeFromLiteral\nvar _ = token.INT\n\nfunc init() {\n")
	for _, p := range paths {
		list := byPkg[p]
		sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
		fmt.Fprintf(&b, "\taddStd(%q, map[string]reflect.Value{\n", p+"/"+PackageName(p))
		for _, s := range list {
			q := alias(p) + "." + s.Name
			var v string
			switch s.Kind {
			case "func":
				v = "reflect.ValueOf(" + q + ")"
			case "var":
				v = "reflect.ValueOf(&" + q + ").Elem()"
			case "type":
				v = "reflect.ValueOf((*" + q + ")(nil))"
			case "const":
				switch s.ConstType {
				case "ideal-int":
					v = fmt.Sprintf("reflect.ValueOf(constant.MakeFromLiteral(%q, token.INT, 0))", s.ConstValue)
				case "ideal-float":
					v = fmt.Sprintf("reflect.ValueOf(constant.MakeFromLiteral(%q, token.FLOAT, 0))", s.ConstValue)
				case "ideal-string":
					v = fmt.Sprintf("reflect.ValueOf(constant.MakeFromLiteral(%q, token.STRING, 0))", s.ConstValue)
				case "ideal-bool", "ideal-char", "ideal-rune", "ideal-complex":
					return nil, fmt.Errorf("%s.%s: constants of kind %s are not supported", p, s.Name, s.ConstType)
				default:
					v = "reflect.ValueOf(" + q + ")"
				}
			}
			fmt.Fprintf(&b, "\t\t%q: %s, // Go 1.%d\n", s.Name, v, s.Minor)
		}
		b.WriteString("\t})\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

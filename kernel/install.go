package kernel

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"grundy/engine"
	"grundy/engine/tooling"
	"grundy/stdlib/atomicfile"
)

// KernelName is the kernelspec's directory name: `jupyter console
// --kernel grundy`.
const KernelName = engine.KernelName

// InstallOptions says where to install the kernelspec.
type InstallOptions struct {
	// Prefix, when set, installs into PREFIX/share/jupyter/kernels (like
	// `jupyter kernelspec install --prefix`); otherwise the user's Jupyter
	// data directory (JUPYTER_DATA_DIR when set).
	Prefix string
	// Binary is the grundy executable to copy next to kernel.json.
	Binary string
	// Version names the build in the installed library reference.
	Version string
	// Env is kernel.json's "env": settings for every session the
	// kernelspec starts (GRUNDY_REPLAY, GRUNDY_MEMORY_LIMIT).
	Env map[string]string
	// Log receives what Install changed beyond its own files (a
	// directory whose permissions it tightened); nil discards it.
	Log io.Writer
}

// ReferenceFile is the library reference installed beside kernel.json;
// the Notebook serves it at kernelspecs/grundy/ReferenceFile.
const ReferenceFile = "reference.html"

//go:embed kernel.js
var kernelJS []byte

// Kernelspec is kernel.json.
type Kernelspec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env"`
	Metadata      map[string]any    `json:"metadata"`
}

// UserDataDir is Jupyter's per-user data directory, honouring
// JUPYTER_DATA_DIR as jupyter_core does.
func UserDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find your home directory (%v); set JUPYTER_DATA_DIR or use --prefix", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter"), nil
	case "windows":
		if a := os.Getenv("APPDATA"); a != "" {
			return filepath.Join(a, "jupyter"), nil
		}
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// JupyterDataPath lists the data directories Jupyter searches for
// kernelspecs, in jupyter_core's order: JUPYTER_PATH entries, the user
// directory, then the system ones.
func JupyterDataPath() []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("JUPYTER_PATH")) {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if u, err := UserDataDir(); err == nil {
		dirs = append(dirs, u)
	}
	return append(dirs, "/usr/local/share/jupyter", "/usr/share/jupyter")
}

// Install writes the kernelspec and copies the binary next to it, so the
// kernelspec keeps working after `go run` deletes its temporary build. It
// returns the kernelspec directory.
func Install(opt InstallOptions) (string, error) {
	var data string
	if opt.Prefix != "" {
		p, err := filepath.Abs(opt.Prefix)
		if err != nil {
			return "", err
		}
		data = filepath.Join(p, "share", "jupyter")
	} else {
		var err error
		if data, err = UserDataDir(); err != nil {
			return "", err
		}
	}
	dir := filepath.Join(data, "kernels", KernelName)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	// Jupyter runs whatever kernel.json says: no one else may be able to
	// change it, or the binary, or swap the directory holding them.
	log := opt.Log
	if log == nil {
		log = io.Discard
	}
	for _, d := range []string{data, filepath.Dir(dir), dir} {
		if err := secureDir(d, log); err != nil {
			return "", err
		}
	}
	bin := filepath.Join(dir, "grundy")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if err := copyExecutable(opt.Binary, bin); err != nil {
		return "", err
	}
	env := map[string]string{}
	for k, v := range opt.Env {
		env[k] = v
	}
	spec := Kernelspec{
		Argv:          []string{bin, "kernel", "{connection_file}"},
		DisplayName:   engine.DisplayName,
		Language:      engine.Language,
		InterruptMode: "message",
		Env:           env,
		Metadata:      map[string]any{"debugger": false},
	}
	js, _ := json.MarshalIndent(spec, "", "  ")
	if err := writeFileAtomic(filepath.Join(dir, "kernel.json"), append(js, '\n'), 0o644); err != nil {
		return "", err
	}
	// The Notebook's front-end settings for Go cells, and the library
	// reference its Help menu links to (kernel_info's help_links).
	for name, data := range map[string][]byte{"kernel.js": kernelJS, ReferenceFile: tooling.ReferenceHTML(opt.Version)} {
		if err := writeFileAtomic(filepath.Join(dir, name), data, 0o644); err != nil {
			return "", err
		}
	}
	for _, size := range []int{32, 64} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, Logo(size)); err != nil {
			return "", err
		}
		if err := writeFileAtomic(filepath.Join(dir, fmt.Sprintf("logo-%dx%d.png", size, size)), buf.Bytes(), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// OnJupyterPath reports whether Jupyter will find a kernelspec installed
// in kernelDir.
func OnJupyterPath(kernelDir string) bool {
	data := filepath.Dir(filepath.Dir(kernelDir))
	for _, d := range JupyterDataPath() {
		if a, err := filepath.Abs(d); err == nil && a == data {
			return true
		}
	}
	return false
}

func copyExecutable(src, dst string) error {
	if src == "" {
		return fmt.Errorf("no grundy binary to install")
	}
	if a, b := filepath.Clean(src), filepath.Clean(dst); a == b {
		return os.Chmod(dst, 0o755) // reinstalling from the installed copy
	}
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("reading the grundy binary: %w", err)
	}
	defer in.Close()
	// Written beside and renamed, so a kernel running from the old copy
	// is not disturbed ("text file busy").
	if err := atomicfile.Replace(dst, 0o755, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	}); err != nil {
		return fmt.Errorf("installing the binary: %w", err)
	}
	return nil
}

func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	if err := atomicfile.ReplaceFile(path, data, mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// secureDir makes sure that no one but its owner can write to dir. A
// directory of ours that others can write to is tightened (and said so);
// one that belongs to someone else is refused. A sticky directory (such
// as /tmp) is fine: others cannot replace what is ours in it.
func secureDir(dir string, log io.Writer) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	if perm&0o022 == 0 || fi.Mode()&os.ModeSticky != 0 {
		return nil
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s belongs to another user (uid %d) and others can write to it, so anyone could change the kernel Jupyter runs: install elsewhere (--prefix DIR), or have its owner run chmod go-w %s", dir, st.Uid, dir)
	}
	if err := os.Chmod(dir, perm&^0o022); err != nil {
		return fmt.Errorf("%s is writable by others and could not be tightened: %w", dir, err)
	}
	fmt.Fprintf(log, "Tightened %s from %v to %v: others could write to it, and so change the kernel Jupyter runs.\n", dir, perm, perm&^0o022)
	return nil
}

// Logo draws grundy's logo at size x size: three Nim heaps of stones
// (3, 1, 2: a P-position) on a rounded dark square.
func Logo(size int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{0x1f, 0x3a, 0x5f, 0xff}
	stone := color.NRGBA{0xf2, 0xc1, 0x4e, 0xff}
	s := float64(size)
	r := s * 0.18
	inRounded := func(x, y float64) bool {
		cx, cy := min(max(x, r), s-r), min(max(y, r), s-r)
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r*r
	}
	heaps := []int{3, 1, 2}
	pitch := s / 4
	rad := s * 0.1
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			x, y := float64(px)+0.5, float64(py)+0.5
			if !inRounded(x, y) {
				continue
			}
			c := bg
			for i, h := range heaps {
				cx := pitch * float64(i+1)
				for j := 0; j < h; j++ {
					cy := s - pitch*0.8 - float64(j)*rad*2.2
					if dx, dy := x-cx, y-cy; dx*dx+dy*dy <= rad*rad {
						c = stone
					}
				}
			}
			img.SetNRGBA(px, py, c)
		}
	}
	return img
}

// InstallMessage is what `grundy install` prints.
func InstallMessage(dir string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Installed the Jupyter kernel %q (\"Go (grundy)\") in %s\n", KernelName, dir)
	if !OnJupyterPath(dir) {
		fmt.Fprintf(&b, "Jupyter does not search there yet; add it with:\n  export JUPYTER_PATH=%s%c$JUPYTER_PATH\n", filepath.Dir(filepath.Dir(dir)), os.PathListSeparator)
	}
	b.WriteString("Start Jupyter with one of:\n")
	fmt.Fprintf(&b, "  %s      (then New > Go (grundy))\n", strings.Join(NotebookCommand(), " "))
	b.WriteString("  jupyter lab\n")
	b.WriteString("  jupyter console --kernel grundy --simple-prompt\n")
	b.WriteString("      (Ctrl-C interrupts a cell only with --simple-prompt, which has no Tab\n" +
		"      completion: jupyter_console 6.6.3 and older lose Ctrl-C after the first\n" +
		"      prompt, jupyter/jupyter_console#296; it also runs each line as a cell,\n" +
		"      so write a function on one line there)\n")
	return b.String()
}

// NotebookCommand is how to start the classic Notebook here: as root the
// Notebook refuses to start without --allow-root (containers, VMs).
func NotebookCommand() []string {
	if os.Geteuid() == 0 {
		return []string{"jupyter", "notebook", "--allow-root"}
	}
	return []string{"jupyter", "notebook"}
}

package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"grundy/engine"
	"grundy/engine/tooling"
	"grundy/stdlib/atomicfile"
	"grundy/stdlib/human"
)

// Running a notebook headless: `grundy run X.ipynb [--out OUT.ipynb]` reads
// an nbformat 4 notebook, runs its code cells in order in one session, and
// writes the outputs into a valid nbformat 4.5 notebook, so a collaborator
// reproduces a notebook's results with one command.

// newNotebookSession starts the session a notebook runs in; tests replace it.
var newNotebookSession = engine.New

// DefaultNotebookOut is where RunNotebook writes when no output path is
// given: beside the notebook, so the user's file is never overwritten
// unless they ask for it.
func DefaultNotebookOut(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".out.ipynb"
}

// NotebookOptions configure RunNotebook.
type NotebookOptions struct {
	// NewSession starts the session the cells run in; nil means an
	// interpreter in this process. `grundy run` gives it an engine
	// process, so that a cell that kills it still leaves a notebook.
	NewSession func() (engine.Session, error)
	// MaxCellOutput caps the stream text stored per cell, as the kernel
	// caps what it shows (0: engine.DefaultMaxCellOutput).
	MaxCellOutput int
}

// RunNotebook runs the notebook at path and writes it, with outputs, to
// outPath (DefaultNotebookOut(path) when ""; into it when it is a
// directory; in place only when outPath == path). Cell output text is
// copied to stdout (nil: discarded) as it comes. Execution stops at the
// first failing cell unless the cell is tagged raises-exception;
// cancelling ctx interrupts the running cell. The output path is checked
// before any cell runs; the notebook is written, with the outputs so far,
// however the run ends (a failing cell, a cell that kills the engine
// process, an interrupt), through a symbolic link to its target, with the
// input notebook's permissions, and the returned error names the cell
// that failed.
func RunNotebook(ctx context.Context, path, outPath string, stdout io.Writer, opt NotebookOptions) error {
	if stdout == nil {
		stdout = io.Discard
	}
	if outPath == "" {
		outPath = DefaultNotebookOut(path)
	} else if st, err := os.Stat(outPath); err == nil && st.IsDir() {
		outPath = filepath.Join(outPath, filepath.Base(path))
		if same, _ := sameFile(outPath, path); same {
			return fmt.Errorf("--out %s is the notebook's own directory: give a file name, or the notebook's path to update it in place", filepath.Dir(outPath))
		}
	}
	in, err := os.Stat(path)
	if err != nil {
		return err
	}
	nb, err := readNotebook(path)
	if err != nil {
		return err
	}
	if err := atomicfile.CheckWritable(outPath); err != nil {
		return fmt.Errorf("cannot write the executed notebook to %s (%v); no cell was run", outPath, err)
	}
	newSession := opt.NewSession
	if newSession == nil {
		newSession = newNotebookSession
	}
	sess, err := newSession()
	if err != nil {
		return fmt.Errorf("starting the interpreter: %w", err)
	}
	defer sess.Close()

	nb.maxOutput = opt.MaxCellOutput
	runErr := nb.run(ctx, sess, stdout)
	data, err := nb.encode()
	if err == nil {
		err = writeNotebookFile(outPath, data, in.Mode().Perm())
	}
	if err != nil {
		if runErr != nil {
			return fmt.Errorf("%w; and writing %s failed: %v", runErr, outPath, err)
		}
		return err
	}
	if runErr != nil {
		return fmt.Errorf("%w (outputs so far written to %s)", runErr, outPath)
	}
	fmt.Fprintf(stdout, "wrote %s (%s run)\n", outPath, human.Quantity(nb.executed, "cell"))
	return nil
}

func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	return os.SameFile(sa, sb), nil
}

// run executes the code cells in order and returns the failure that
// stopped it, if any.
func (nb *notebook) run(ctx context.Context, sess engine.Session, stdout io.Writer) error {
	for i, cell := range nb.cells {
		if cell.kind() != "code" {
			continue
		}
		src := cell.source()
		cell["outputs"] = []any{}
		cell["execution_count"] = nil
		if strings.TrimSpace(src) == "" {
			continue // as Jupyter does: an empty cell gets no number
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: interrupted before cell %d", nb.path, i+1)
		}
		nb.executed++
		count := nb.executed
		cell["execution_count"] = count
		out := &cellOutput{nb: nb, cell: cell, stdout: stdout, cap: engine.OutputCap{Limit: nb.maxOutput}}
		if name, detail, ok := tooling.HelpRequest(src); ok {
			showHelp(sess, name, detail, out, stdout)
			out.finish()
			nb.outs = append(nb.outs, out)
			continue
		}
		var res engine.Result
		var err error
		if msg, ok := tooling.Magic(src); ok {
			// Not Go, so it does not compile: say what to write instead.
			err = &engine.EvalError{Name: "CompileError", Value: msg}
		} else {
			res, err = sess.Execute(ctx, src, out)
		}
		out.finish()
		nb.outs = append(nb.outs, out)
		if res.Value != nil {
			md := res.Metadata
			if md == nil {
				md = map[string]any{}
			}
			out.add(map[string]any{
				"output_type":     "execute_result",
				"execution_count": count,
				"data":            mimeData(res.Value),
				"metadata":        md,
			})
			out.echo(res.Value)
		}
		if err == nil {
			continue
		}
		var ee *engine.EvalError
		if !errors.As(err, &ee) {
			ee = &engine.EvalError{Name: "Error", Value: err.Error(), Traceback: []string{err.Error()}}
		}
		tb := ee.Traceback
		if len(tb) == 0 {
			tb = []string{ee.Name + ": " + ee.Value}
		}
		out.add(map[string]any{
			"output_type": "error",
			"ename":       ee.Name,
			"evalue":      ee.Value,
			"traceback":   stringsToAny(tb),
		})
		fmt.Fprintln(stdout, strings.Join(tb, "\n"))
		if cell.hasTag("raises-exception") && ctx.Err() == nil {
			continue
		}
		return fmt.Errorf("%s: cell %d (In [%d]) failed: %s: %s", nb.path, i+1, count, ee.Name, ee.Value)
	}
	return nil
}

func stringsToAny(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// showHelp answers a cell that asks for documentation (?name, name?,
// help(name)) as the kernel does, without running it: what Shift-Tab
// shows goes to page, the terminal, as the kernel's goes to the pager, and
// like the pager's it is no output of the cell's (a notebook saved from
// Jupyter has none there either). A name without documentation gets a
// line in the cell's output.
func showHelp(sess engine.Session, name string, detail int, out engine.Output, page io.Writer) {
	engine.WaitStarted(sess)
	data, found := sess.Inspect(name, utf8.RuneCountInString(name), detail)
	text, _ := data["text/plain"].(string)
	if !found || text == "" {
		out.Stdout(tooling.NoHelp(name))
		return
	}
	io.WriteString(page, strings.TrimRight(text, "\n")+"\n")
}

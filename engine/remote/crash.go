package remote

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"grundy/engine"
	"grundy/stdlib/human"
)

// Crash is the death of an engine process, told in words a researcher
// understands. It is the error Execute returns for the cell that was
// running, and what the Supervisor reports after restarting.
type Crash struct {
	// Name is the error's name as Jupyter shows it: StackOverflow,
	// OutOfMemory, ConcurrentMapWrites, UnlockOfUnlockedMutex,
	// Interrupted (the cell ignored an interrupt and its process was
	// stopped) or EngineCrashed.
	Name string
	// Message says what happened, in one line.
	Message string
	// Hint says what to do about it, when there is something to say.
	Hint string
	// Status is how the process ended ("exit status 2", "signal: killed").
	Status string
}

func (c *Crash) Error() string { return c.Name + ": " + c.Message }

// EvalError is the crash as the cell's error, with notes (what was
// restored) after it.
func (c *Crash) EvalError(notes ...string) *engine.EvalError {
	tb := []string{c.Name + ": " + c.Message}
	if c.Hint != "" {
		tb = append(tb, c.Hint)
	}
	tb = append(tb, notes...)
	return &engine.EvalError{Name: c.Name, Value: c.Message, Traceback: tb}
}

// crashLog keeps the head of what the engine process writes to its
// stderr, which is where the Go runtime reports a fatal error, and copies
// the first lines of it to the kernel's log. Bounded, however much the
// runtime prints (a dump of every goroutine can be long).
type crashLog struct {
	mu     sync.Mutex
	head   []byte
	logged int
	lines  int // the lines logged at most
	log    io.Writer
	done   chan struct{}
}

const (
	crashHeadBytes = 256 << 10
	crashLogLines  = 12 // of the engine process's stderr in the log; all with GRUNDY_DEBUG, whose Go stacks are longer
)

func newCrashLog(r io.Reader, log io.Writer) *crashLog {
	c := &crashLog{log: log, done: make(chan struct{}), lines: crashLogLines}
	if os.Getenv("GRUNDY_DEBUG") != "" {
		c.lines = math.MaxInt
	}
	go c.run(r)
	return c
}

func (c *crashLog) run(r io.Reader) {
	defer close(c.done)
	buf := make([]byte, 32<<10)
	var partial []byte
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.mu.Lock()
			if room := crashHeadBytes - len(c.head); room > 0 {
				c.head = append(c.head, buf[:min(n, room)]...)
			}
			c.mu.Unlock()
			partial = append(partial, buf[:n]...)
			for {
				i := bytes.IndexByte(partial, '\n')
				if i < 0 {
					break
				}
				c.logLine(string(partial[:i]))
				partial = partial[i+1:]
			}
			if len(partial) > 4096 {
				c.logLine(string(partial))
				partial = nil
			}
		}
		if err != nil {
			if len(partial) > 0 {
				c.logLine(string(partial))
			}
			if c.logged > c.lines {
				fmt.Fprintf(c.log, "engine process: (%s of its report not shown)\n", human.Quantity(c.logged-c.lines, "more line"))
			}
			return
		}
	}
}

func (c *crashLog) logLine(line string) {
	c.logged++
	if c.logged <= c.lines && c.log != nil {
		fmt.Fprintf(c.log, "engine process: %s\n", line)
	}
}

func (c *crashLog) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.head)
}

var (
	reStackLimit = regexp.MustCompile(`goroutine stack exceeds (\d+)-byte limit`)
	reAlloc      = regexp.MustCompile(`out of memory: cannot allocate (\d+)-byte block`)
	reFatal      = regexp.MustCompile(`(?m)^fatal error: (.*)$`)
	rePanic      = regexp.MustCompile(`(?m)^panic: (.*)$`)
	reSignal     = regexp.MustCompile(`(?m)^(SIG[A-Z]+): (.*)$`)
)

// diagnose reads the runtime's report and the exit status. killedFor is
// set when the parent stopped the process itself, and says why; limit is
// the session's memory limit in bytes (0 when none was set).
func diagnose(report string, state *os.ProcessState, killedFor string, limit int64) *Crash {
	c := &Crash{Name: "EngineCrashed"}
	if state != nil {
		c.Status = state.String()
	}
	fatal := ""
	if m := reFatal.FindStringSubmatch(report); m != nil {
		fatal = strings.TrimSpace(m[1])
	}
	limitText := ""
	if limit > 0 {
		limitText = " (the session's limit is " + human.Bytes(limit) + ")"
	}
	switch {
	case killedFor != "":
		c.Name = "Interrupted"
		c.Message = killedFor
	case reStackLimit.MatchString(report) || fatal == "stack overflow":
		c.Name = "StackOverflow"
		c.Message = "the cell recursed without end, or deeper than the stack allows: stack limit reached"
		if m := reStackLimit.FindStringSubmatch(report); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				c.Message += " (" + human.Bytes(n) + ")"
			}
		}
		c.Hint = "A recursive function needs a case that returns without calling itself; check that every call gets closer to it. A recursion over a million calls deep on purpose runs as a loop over a slice used as a stack."
	case strings.Contains(report, "out of memory") || strings.Contains(strings.ToLower(report), "cannot allocate memory"):
		c.Name = "OutOfMemory"
		c.Message = "out of memory" + limitText
		if m := reAlloc.FindStringSubmatch(report); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				c.Message = "out of memory: the cell asked for " + human.Bytes(n) + " more" + limitText
			}
		}
		c.Hint = "Use less memory (smaller bounds, solve.Outcomes instead of solve.Values, drop tables you no longer need), or raise the limit with GRUNDY_MEMORY_LIMIT in the kernel's environment."
	case strings.HasPrefix(fatal, "concurrent map"):
		c.Name = "ConcurrentMapWrites"
		c.Message = "two goroutines used one map at the same time (Go stops the program: \"" + fatal + "\")"
		c.Hint = "Guard the map with a sync.Mutex, or give each goroutine its own map and merge them at the end."
	case strings.Contains(fatal, "unlock of unlocked") || strings.Contains(fatal, "Unlock of unlocked"):
		c.Name = "UnlockOfUnlockedMutex"
		c.Message = "the cell unlocked a mutex that was not locked (Go stops the program: \"" + fatal + "\")"
		c.Hint = "Unlock only what you locked, once: defer mu.Unlock() right after mu.Lock() keeps them paired."
	case fatal != "":
		c.Message = "the engine process stopped with Go's fatal error \"" + fatal + "\""
	case rePanic.MatchString(report):
		m := rePanic.FindStringSubmatch(report)
		c.Message = "a goroutine panicked where the cell could not catch it: " + strings.TrimSpace(m[1])
		c.Hint = "A function handed to native code panicked on a goroutine of its own; recover inside it, or fix the panic."
	case reSignal.MatchString(report):
		m := reSignal.FindStringSubmatch(report)
		c.Message = "the engine process crashed (" + m[1] + ": " + strings.TrimSpace(m[2]) + "); this is a bug, in grundy or in code it calls: please report it with the cell"
	case state != nil && signalOf(state) == syscall.SIGKILL:
		c.Name = "OutOfMemory"
		c.Message = "the engine process was killed (SIGKILL), most likely by the system's out-of-memory killer" + limitText
		c.Hint = "Use less memory, or lower GRUNDY_MEMORY_LIMIT so that the cell fails inside the limit instead."
	case state != nil && state.Exited():
		c.Message = fmt.Sprintf("the engine process exited with status %d while running the cell (a call such as syscall.Exit ends the process; os.Exit only ends the cell)", state.ExitCode())
	case state != nil:
		c.Message = "the engine process ended: " + state.String()
	default:
		c.Message = "the engine process ended"
	}
	return c
}

func signalOf(state *os.ProcessState) syscall.Signal {
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal()
	}
	return 0
}

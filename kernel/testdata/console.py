"""Drive `jupyter console --kernel grundy` in a pseudo-terminal and press
Ctrl-C, as a user does (or, with the argument "progress", watch a long
solve). Prints a JSON object for kernel/e2e_test.go.

The console relays Ctrl-C through KernelManager.interrupt_kernel, which
follows the kernelspec's interrupt_mode (grundy's is "message").
"""
import json
import sys
import time

import pexpect


def spawn(log):
    c = pexpect.spawn("/usr/bin/python3", ["-m", "jupyter_console", "--kernel", "grundy", "--simple-prompt"],
                      encoding="utf-8", timeout=30, dimensions=(40, 200))
    c.logfile_read = type("L", (), {"write": lambda self, s: log.append(s), "flush": lambda self: None})()
    return c


def progress():
    """A solve long enough to show a progress bar: what the console shows
    of it once the cell has ended (it prints a display's text once and
    ignores its updates)."""
    out = {}
    log = []
    c = spawn(log)
    try:
        c.expect(r"In \[1\]: ")
        c.sendline("progress.MinDuration = 0; t, _ := solve.Values(games.CN(6, 2), 13); t.Count(0)")
        out["solved"] = c.expect([r"Out\[1\]: \d+", pexpect.TIMEOUT], timeout=180) == 0
        out["cell"] = c.before
    finally:
        c.close(force=True)
        out["screen"] = "".join(log)
    print(json.dumps(out))


def main():
    if sys.argv[1:] == ["progress"]:
        return progress()
    out = {}
    log = []
    c = spawn(log)
    try:
        c.expect(r"In \[1\]: ")
        c.sendline("for {}")
        time.sleep(3)  # under load, the engine may take a while to start the cell
        t0 = time.time()
        c.sendintr()
        # The next prompt says the cell ended. The cell's error usually
        # comes before it, but not always: the console stops waiting for
        # output at the first idle status it reads, and the idle of the
        # is_complete_request it sent on Enter can be that one; it then
        # prints only the output already arrived when the execute_reply
        # comes (iopub and shell are separate sockets), and the rest with
        # the next cell. So the error is counted on the whole screen.
        out["loop"] = c.expect([r"In \[2\]: ", pexpect.TIMEOUT], timeout=10) == 0
        out["loop_seconds"] = time.time() - t0
        c.sendline("var s string; fmt.Scanln(&s); fmt.Println(\"RAN ON\")")
        time.sleep(1.5)
        c.sendintr()
        out["input"] = c.expect([r"In \[3\]: ", pexpect.TIMEOUT], timeout=10) == 0
        c.sendline("6 * 7")
        out["after"] = c.expect([r"Out\[3\]: 42", pexpect.TIMEOUT], timeout=10) == 0
        c.sendeof()
        c.expect([r"exit", pexpect.TIMEOUT], timeout=5)
        c.sendline("y")
        c.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=5)
    finally:
        c.close(force=True)
        out["screen"] = "".join(log)
        out["ran_on"] = "RAN ON\r\n" in out["screen"]
        out["interrupted"] = out["screen"].count("Interrupted: the cell was interrupted")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

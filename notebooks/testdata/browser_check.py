"""Open every notebook in the classic Jupyter Notebook in headless Chromium.

Usage: browser_check.py NOTEBOOK_DIR   (the grundy kernelspec must be on
JUPYTER_PATH, as `grundy install --prefix` and JUPYTER_PATH arrange)

Starts `jupyter notebook` on a free port, opens each *.ipynb of
NOTEBOOK_DIR, and reports, as JSON, what a reader sees: the browser
console's errors, error outputs, the figures the file stores and the
figures the page shows loaded, whether the kernel's kernel.js took effect
(tabs as indentation, no arrows), and whether the Help menu's grundy link
opens the library reference. notebooks_test.go checks the report.
"""
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return True
        except Exception:
            time.sleep(0.3)
    return False


def stored_figures(path):
    nb = json.load(open(path))
    n = 0
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {}):
                n += 1
    return n


PAGE_STATE = """
const imgs = Array.from(document.querySelectorAll('#notebook .output_area img, #notebook .output_area svg'));
const tabs = Array.from(document.querySelectorAll('#notebook .CodeMirror span.cm-tab'));
const cm = Jupyter.notebook.get_cells().filter(c => c.cell_type === 'code').map(c => c.code_mirror);
return {
  figures: imgs.length,
  loaded: imgs.filter(i => i.tagName.toLowerCase() === 'svg' || (i.complete && i.naturalWidth > 0)).length,
  errors: Array.from(document.querySelectorAll('#notebook .output_error')).map(e => e.innerText.slice(0, 300)),
  tabs: tabs.length,
  tabArrows: tabs.filter(t => getComputedStyle(t).backgroundImage !== 'none').length,
  kernelJS: !!document.getElementById('grundy-go-tabs'),
  indentWithTabs: cm.length > 0 && cm.every(c => c.getOption('indentWithTabs')),
  mode: cm.length > 0 ? cm[0].getOption('mode') : null,
  helpLinks: Array.from(document.querySelectorAll('#kernel-help-links ~ li a')).map(a => [a.innerText.trim(), a.href]),
};
"""


def main():
    nbdir = os.path.abspath(sys.argv[1])
    port, token = free_port(), secrets.token_hex(16)
    base = "http://127.0.0.1:%d" % port
    log = open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "grundy-browser-check-%d.log" % port), "w")
    server = subprocess.Popen(
        ["jupyter-notebook", "--no-browser", "--allow-root", "--ip=127.0.0.1", "--port=%d" % port,
         "--NotebookApp.token=" + token, "--NotebookApp.notebook_dir=" + nbdir],
        stdout=log, stderr=subprocess.STDOUT)
    report = {"notebooks": {}}
    driver = None
    try:
        if not wait_for(base + "/api?token=" + token):
            report["error"] = "the Notebook server did not start (see %s)" % log.name
            return report
        opts = Options()
        for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1600"]:
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
        driver.set_page_load_timeout(60)
        for name in sorted(f for f in os.listdir(nbdir) if f.endswith(".ipynb")):
            driver.get("%s/notebooks/%s?token=%s" % (base, name, token))
            state, deadline = None, time.time() + 60
            # Wait for the kernel (kernel.js and help links come with it)
            # and for the stored figures to decode.
            while time.time() < deadline:
                try:
                    ready = driver.execute_script(
                        "return window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded && "
                        "Jupyter.notebook.kernel && Jupyter.notebook.kernel.info_reply && "
                        "Jupyter.notebook.kernel.info_reply.status === 'ok'")
                    if ready:
                        state = driver.execute_script(PAGE_STATE)
                        if state["kernelJS"] and state["helpLinks"] and state["loaded"] == state["figures"]:
                            break
                except Exception:
                    pass
                time.sleep(0.5)
            if state is None:
                state = {"error": "the notebook did not load with its kernel within 60 s"}
            state["stored_figures"] = stored_figures(os.path.join(nbdir, name))
            state["console"] = [e["message"][:300] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
            report["notebooks"][name] = state
            # Leave without the "unsaved changes" prompt, and stop the kernel.
            # The page can turn dirty again after set_dirty (the kernel's
            # death and metadata updates arrive later), so the prompt's
            # handler goes too: Chromium logs a blocked prompt as an error.
            driver.execute_script("Jupyter.notebook.set_dirty(false); window.onbeforeunload = null; "
                                  "Jupyter.notebook.kernel && Jupyter.notebook.kernel.kill()")
        # The Help menu's grundy link, opened as a reader would.
        links = next((s["helpLinks"] for s in report["notebooks"].values() if s.get("helpLinks")), [])
        ref = next((href for text, href in links if "grundy" in text), None)
        report["reference_link"] = ref
        if ref:
            driver.get(ref + ("&" if "?" in ref else "?") + "token=" + token)
            report["reference_title"] = driver.title
            report["reference_entries"] = driver.execute_script("return document.querySelectorAll('pre').length")
        return report
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    print(json.dumps(main()))

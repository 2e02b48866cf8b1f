#!/usr/bin/env python3
"""The page of `judge serve` in a real browser: headless Chromium driven
through chromedriver's WebDriver HTTP API (the standard library only).

It serves the fixture problem `draws` (tests/fixtures/draws) from a scratch
root, opens the printed URL, visits a server on another port of 127.0.0.1
(which must not receive the token) and comes back without the token in the
URL. Then, at window widths of 1440, 1024 and 390 px, it does what a
learner does: picks the problem from the course (the landing view), edits
the file and saves it with Ctrl-S, runs a wrong solution and reads the
failing case with its input and the known mistake's hint (once, numbered,
named by the cases it explains), runs a right one (its cases folded under
"N cases passed"), and opens History and Solution; it checks that the
panes sit side by side or stacked as the width asks. The first time it
also starts the problem (the stub, run), tries an input, moves between tabs
and a splitter with the keyboard, sets the keymap and font size, runs a
file that does not compile (the error marked on its line), and sees a save
by another editor appear in the page. After a problem opens and after the
failing run, axe-core (tests/web/node_modules, `npm ci --prefix
tests/web`) checks the page; any serious or critical violation fails the
test, in the light theme and, once, the dark one.

The Lab needs the repository's own problems and model, so a second server
without JUDGE_ROOT (a scratch workspace and cache) serves it: the Lab is
opened from the header, generates 30 tokens (the text streams in, the six
parts are all the reference's, the KV cache figures show), its chart has
the four stages, another step chosen with the keyboard redraws it, axe-core
checks the view before and after (the dark theme too), it stacks without
overflow at 390 px, and a run with 3 draft tokens shows the acceptance.
Then beam search, width 3: the sampling knobs are hidden, nothing streams,
its table has 3 hypotheses whose scores do not rise, the greedy path under
them, no chart, text or figures, axe-core passes (at 390 px too); and
sampling again streams and charts as before.

Usage: web_browser_test.py JUDGE_BINARY SOURCE_DIR
Exits 77 (skipped) when Chromium, chromedriver or axe-core is missing or
Chromium cannot start here, saying why (in CI, with CI set, it fails
instead). With JUDGE_WEB_SCREENSHOTS=DIR it saves DIR/web-landing-W.png and
DIR/web-failing-run-W.png for each width W, DIR/web-dark-1440.png,
DIR/web-lab-1440.png, DIR/web-lab-390.png and DIR/web-lab-beam-1440.png
(docs/ holds them).
"""
import base64
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

SKIP = 77
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
# WebDriver's codes for keys that are not characters.
CONTROL = "\ue009"
ARROW_LEFT = "\ue012"
ARROW_RIGHT = "\ue014"


def skip(why):
    # In CI every test runs: bin/setup --all-targets installs Chromium and axe-core.
    if os.environ.get("CI"):
        print(f"FAIL: {why} (CI runs every test)")
        sys.exit(1)
    print(f"SKIPPED: {why}")
    sys.exit(SKIP)


def fail(why):
    print(f"FAILED: {why}")
    sys.exit(1)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver commands the test needs, over HTTP."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: {error.code} {error.read()[:2000]!r}") from None

    def start(self, chromium, profile):
        args = ["--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,950",
                "--no-first-run", f"--user-data-dir={profile}"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        capabilities = {"browserName": "chrome",
                        "goog:chromeOptions": {"binary": chromium, "args": args}}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = value["sessionId"]

    def s(self, path):
        return f"/session/{self.session}{path}"

    def go(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def run(self, script, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": script, "args": list(args)})

    def run_async(self, script, *args):
        return self.call("POST", self.s("/execute/async"), {"script": script, "args": list(args)})

    def set_window(self, width, height):
        self.call("POST", self.s("/window/rect"), {"width": width, "height": height})

    def chord(self, *keys):
        """Presses the keys together, as a person does Ctrl-S, then lets go."""
        down = [{"type": "keyDown", "value": key} for key in keys]
        up = [{"type": "keyUp", "value": key} for key in reversed(keys)]
        self.call("POST", self.s("/actions"),
                  {"actions": [{"type": "key", "id": "keyboard", "actions": down + up}]})
        self.call("DELETE", self.s("/actions"))

    def drag(self, css, dx, dy):
        """Drags the element from its middle by (dx, dy) with the mouse."""
        element = self.call("POST", self.s("/element"), {"using": "css selector", "value": css})
        moves = [{"type": "pointerMove", "duration": 0, "origin": element, "x": 0, "y": 0},
                 {"type": "pointerDown", "button": 0},
                 {"type": "pointerMove", "duration": 100, "origin": "pointer", "x": dx, "y": dy},
                 {"type": "pointerUp", "button": 0}]
        self.call("POST", self.s("/actions"), {"actions": [
            {"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": moves}]})
        self.call("DELETE", self.s("/actions"))

    def emulate_color_scheme(self, scheme):
        """prefers-color-scheme as the page sees it ("" for the system's)."""
        self.call("POST", self.s("/goog/cdp/execute"),
                  {"cmd": "Emulation.setEmulatedMedia",
                   "params": {"features": [{"name": "prefers-color-scheme", "value": scheme}]}})

    def click(self, css):
        element = self.call("POST", self.s("/element"), {"using": "css selector", "value": css})
        self.call("POST", self.s(f"/element/{element[ELEMENT]}/click"), {})

    def screenshot(self, path):
        with open(path, "wb") as out:
            out.write(base64.b64decode(self.call("GET", self.s("/screenshot"))))

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", self.s(""))
            except Exception:
                pass

    def wait(self, script, what, timeout=240, *args):
        """Polls `script` (a function body returning a value) until truthy."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.run(script, *args)
            if value:
                return value
            time.sleep(0.2)
        state = self.run("return {verdict: document.getElementById('verdict').textContent,"
                         " status: document.getElementById('run-status').textContent}")
        fail(f"timed out waiting for {what}; the page shows {state}")


MISTAKE = "the weights are never divided by their sum"


def scratch_root(source, tests, into):
    """The repository's harness with the draws fixture beside it, and a
    catalog of its one known mistake."""
    shutil.copytree(os.path.join(source, "harness"), os.path.join(into, "harness"))
    fixture = os.path.join(tests, "fixtures", "draws")
    shutil.copytree(os.path.join(fixture, "harness"), os.path.join(into, "harness"), dirs_exist_ok=True)
    shutil.copytree(os.path.join(fixture, "problems"), os.path.join(into, "problems"))
    shutil.copytree(os.path.join(fixture, "solutions"), os.path.join(into, "solutions"))
    with open(os.path.join(into, "solutions", "draws", "solutions.yaml"), "w") as catalog:
        catalog.write("reference: reference.hpp\nwrong:\n  - file: wrong/probs_unnormalized.hpp\n"
                      f"    verdict: wrong_answer\n    mistake: {MISTAKE}\n")


def read(path):
    with open(path) as f:
        return f.read()


def start_server(judge, source, root):
    env = dict(os.environ, JUDGE_ROOT=root, JUDGE_WORKSPACE=os.path.join(root, "workspace"),
               JUDGE_CACHE_DIR=os.path.join(root, "cache"))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    server = subprocess.Popen([judge, "serve", "--port", "0", "--no-open"], cwd=source, env=env,
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.match(r"http://127\.0\.0\.1:(\d+)/\?token=[0-9a-f]{64}$", line.strip())
    if not match:
        server.kill()
        fail(f"judge serve printed {line!r}, not its URL")
    return server, line.strip()


def start_lab_server(judge, source, scratch):
    """`judge serve` on the repository's problems (no JUDGE_ROOT), with a
    workspace and a cache of its own: every part of the lab the reference's."""
    env = dict(os.environ, JUDGE_WORKSPACE=os.path.join(scratch, "workspace"),
               JUDGE_CACHE_DIR=os.path.join(scratch, "cache"))
    for name in ("JUDGE_ROOT", "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    server = subprocess.Popen([judge, "serve", "--port", "0", "--no-open"], cwd=source, env=env,
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if not re.match(r"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{64}$", line.strip()):
        server.kill()
        fail(f"judge serve (for the lab) printed {line!r}, not its URL")
    return server, line.strip()


def set_editor(driver, text):
    driver.run("window.judgeEditor.set(arguments[0]);", text)


# Records, while a run goes on, how many cases the page showed before the verdict.
WATCH_CASES = """
window.casesBeforeVerdict = 0;
const observer = new MutationObserver(() => {
  if (!document.getElementById('verdict').textContent)
    window.casesBeforeVerdict = Math.max(window.casesBeforeVerdict,
                                         document.querySelectorAll('#tab-results li.case').length);
});
observer.observe(document.getElementById('tab-results'), {childList: true, subtree: true});
"""

VERDICT_ENDS = ("const v = document.getElementById('verdict').textContent;"
                " return (v === arguments[0] || v === 'error') && v;")


def run_and_wait(driver, verdict, keyboard=False):
    driver.run(WATCH_CASES)
    if keyboard:
        driver.run("window.judgeEditor.cm.focus();")
        driver.chord(CONTROL, "\ue007")  # Ctrl-Enter
    else:
        driver.click("#run-button")
    # Waits for this verdict, or for the page's "error", which no run here should end in.
    shown = driver.wait(VERDICT_ENDS, f"the verdict {verdict}", 240, verdict)
    if shown != verdict:
        fail(f"the run ended in {shown!r}, not {verdict}: "
             + driver.run("return document.getElementById('run-status').textContent;"))


def main():
    if len(sys.argv) != 3:
        fail("usage: web_browser_test.py JUDGE_BINARY SOURCE_DIR")
    judge, source = sys.argv[1], sys.argv[2]
    tests = os.path.join(source, "tests")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        skip("Chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
    axe = axe_source(source)
    shots = os.environ.get("JUDGE_WEB_SCREENSHOTS")

    with tempfile.TemporaryDirectory(prefix="judge-web-") as scratch:
        root = os.path.join(scratch, "root")
        scratch_root(source, tests, root)
        server, url = start_server(judge, source, root)
        port = free_port()
        driver_process = subprocess.Popen([chromedriver, f"--port={port}"], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        driver = WebDriver(port)
        try:
            for _ in range(100):
                try:
                    if driver.call("GET", "/status").get("ready"):
                        break
                except Exception:
                    pass
                time.sleep(0.1)
            try:
                driver.start(chromium, os.path.join(scratch, "profile"))
            except Exception as error:
                skip(f"Chromium cannot start here: {error}")
            check_the_page(driver, url, root, tests, shots, axe)
            lab_server, lab_url = start_lab_server(judge, source, os.path.join(scratch, "lab"))
            try:
                check_the_lab(driver, lab_url, shots, axe)
            finally:
                lab_server.terminate()
                lab_server.wait(10)
        finally:
            driver.quit()
            driver_process.terminate()
            server.terminate()
            driver_process.wait(10)
            server.wait(10)
    print("PASSED: the token kept from other ports; at 1440, 1024 and 390 px the course, a problem, a keyboard save,"
          " a failing run with its hint, an accepted one, History and the solution, no serious accessibility"
          " violation (light and dark); started, try, tabs, splitter and settings by keyboard, a compile error"
          " marked, an outside save seen; the Lab: streamed text, parts, figures, the stages' chart by step"
          " (keyboard), no serious accessibility violation, stacked at 390 px, speculative decoding's acceptance,"
          " beam search's table of hypotheses beside the greedy path, and sampling again after it")


def check_the_token_stays_on_its_port(driver, url):
    """The browser sends the cookies of 127.0.0.1 to every port of it: a
    server another user runs on another port, visited by the owner, must
    not receive the token. The page opened again without the token in the
    URL still works."""
    token = url.split("token=")[1]
    cookies = []

    class Record(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            cookies.append(self.headers.get("Cookie", ""))
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<p>another server</p>")

        def log_message(self, *args):
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Record)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        driver.go(f"http://127.0.0.1:{other.server_port}/")
    finally:
        other.shutdown()
        other.server_close()
    if not cookies:
        fail("the browser did not reach the other port")
    if any(token in cookie for cookie in cookies):
        fail(f"the browser sent the token to another port of 127.0.0.1: {cookies}")
    driver.go(url.split("?")[0])
    driver.wait("return document.querySelector('#problem-list li[data-slug=\"draws\"]');",
                "the problem list, opened again without the token in the URL")


WIDTHS = [(1440, 900), (1024, 768), (390, 844)]
SHOWN = "const e = document.querySelector(arguments[0]); return !!e && e.getClientRects().length > 0;"


def check_the_page(driver, url, root, tests, shots, axe):
    driver.go(url)
    driver.wait("return document.querySelector('#problem-list li[data-slug=\"draws\"]');", "the problem list")
    check_the_token_stays_on_its_port(driver, url)
    status = driver.run("return document.querySelector('#problem-list li[data-slug=\"draws\"] .status').textContent;")
    if status != "not started":
        fail(f"the list says {status!r} for a problem not started")
    if "token=" in driver.run("return location.href;"):
        fail("the token stays in the address bar")
    for index, (width, height) in enumerate(WIDTHS):
        driver.set_window(width, height)
        session(driver, root, tests, shots, axe, width, first=index == 0)


def session(driver, root, tests, shots, axe, width, first):
    """What a learner does at one window width: the course, a problem,
    an edit saved with the keyboard, a wrong run and its hint, a right one,
    History and Solution. The first session also starts the problem and
    checks what needs checking once."""
    workspace_file = os.path.join(root, "workspace", "draws.hpp")
    check_the_course(driver, width, first)
    check_accessibility(driver, axe, f"the course at {width} px")
    if shots:
        driver.screenshot(os.path.join(shots, f"web-landing-{width}.png"))
    if first:
        driver.click("#next-button")
    else:
        driver.click('#course tr[data-slug="draws"] a')
    # The title stays from the last session while the course shows: the view must be the problem's too.
    driver.wait("return !document.getElementById('problem').hidden &&"
                " document.getElementById('title').textContent.includes('Draws');", "the statement")
    if first:
        check_the_statement(driver)
        check_start_and_the_stub(driver, workspace_file, tests)
    else:
        driver.wait("return window.judgeEditor.get().length > 0 && !document.getElementById('save-button').disabled;",
                    "the workspace file in the editor", 20)
    check_layout(driver, width)
    check_accessibility(driver, axe, f"a problem open at {width} px")

    # An edit, saved with the keyboard shortcut.
    wrong = read(os.path.join(tests, "fixtures/draws/solutions/draws/wrong/probs_unnormalized.hpp"))
    set_editor(driver, wrong)
    driver.run("window.judgeEditor.cm.focus();")
    driver.chord(CONTROL, "s")
    deadline = time.time() + 10
    while read(workspace_file) != wrong:
        if time.time() > deadline:
            fail("Ctrl-S did not save the editor's text to the workspace")
        time.sleep(0.1)
    driver.wait("return document.getElementById('file-state').textContent.endsWith('saved');", "the file marked saved", 10)

    # A wrong run (with Ctrl-Enter the first time, the Run button after).
    run_and_wait(driver, "wrong_answer", keyboard=first)
    check_the_failing_run(driver)
    check_accessibility(driver, axe, f"a failing run at {width} px")
    if first:
        check_accessibility_in_the_dark(driver, axe, shots)
    if shots:
        driver.run("document.getElementById('summary').scrollIntoView();")
        driver.screenshot(os.path.join(shots, f"web-failing-run-{width}.png"))

    # A right one: accepted, its cases folded under "N cases passed".
    accepted = read(os.path.join(tests, "fixtures/web/accepted.hpp"))
    set_editor(driver, accepted)
    run_and_wait(driver, "accepted")
    if read(workspace_file) != accepted:
        fail("Run did not save the editor's text first")
    if first and not driver.run("return window.casesBeforeVerdict > 0;"):
        fail("no case was shown before the verdict: the results did not stream")
    folded = driver.run("const p = document.getElementById('passed');"
                        " return {shown: !p.hidden, open: p.open, summary: p.querySelector('summary').textContent,"
                        " passed: p.querySelectorAll('li.passed').length,"
                        " failed: document.querySelectorAll('#cases li.failed').length};")
    if (not folded["shown"] or folded["open"] or folded["failed"] or not folded["passed"]
            or folded["summary"] != f"{folded['passed']} cases passed"):
        fail(f"the accepted run's cases are not folded under 'N cases passed': {folded}")
    driver.wait("return document.querySelector('#problem-list li[data-slug=\"draws\"] .status').textContent"
                " === 'solved';", "the list to say solved", 30)

    driver.click('.tabs button[data-tab="history"]')
    driver.wait("return document.querySelectorAll('#history tbody tr').length >= 2 &&"
                " document.querySelector('#history tbody tr:last-child td:nth-child(3)').textContent === 'accepted';",
                "History to list the runs", 20)
    driver.click('.tabs button[data-tab="solution"]')
    driver.wait("return document.getElementById('solution-reference').textContent.includes('softmax_sample');",
                "the reference solution", 20)
    if driver.run("return document.getElementById('tab-button-solution').getAttribute('aria-selected');") != "true":
        fail("the Solution tab is shown but not marked selected (aria-selected)")
    driver.click('.tabs button[data-tab="results"]')

    if first:
        check_try(driver)
        check_tabs_by_keyboard(driver)
        check_splitters_and_settings(driver)
        check_compile_error(driver, tests)
        check_the_outside_save(driver, workspace_file)


def check_the_course(driver, width, first):
    """The landing view is the course: each problem's standing and the next
    one, and nothing of a problem's page before one is open."""
    driver.run("location.hash = '#/';")
    driver.wait("return !document.getElementById('welcome').hidden &&"
                " !!document.querySelector('#course tr[data-slug=\"draws\"]');", "the course", 20)
    for css in ("#save-button", "#run-button", "#signature"):
        if driver.run(SHOWN, css):
            fail(f"the landing view shows {css} before a problem is open")
    row = driver.run("return [...document.querySelectorAll('#course tr[data-slug=\"draws\"] td')]"
                     ".map((c) => c.textContent);")
    if first:
        next_button = driver.run("const b = document.getElementById('next-button'); return b && b.textContent;")
        if next_button != "Start" or "next" not in row[1] or row[2] != "not started" or row[4] != "-":
            fail(f"the course does not show draws as the next problem, not started: {next_button!r}, {row}")
    elif row[2] != "solved" or not row[4].startswith("accepted"):
        fail(f"the course does not show draws as solved with its best result: {row}")
    collapsed = driver.run("return document.getElementById('list-toggle').getAttribute('aria-expanded') === 'false';")
    if collapsed != (width < 700):
        fail(f"at {width} px the problem list is {'folded' if collapsed else 'open'}")


def check_layout(driver, width):
    """Side by side on a wide window, stacked at a phone's width; the editor
    fills its pane."""
    boxes = driver.run("const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();"
                       "   return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };"
                       " return {statement: box('statement-pane'), editor: box('editor'), results: box('results-pane'),"
                       " codemirror: document.querySelector('.CodeMirror').offsetHeight,"
                       " pane: document.getElementById('editor').clientHeight,"
                       " overflow: document.documentElement.scrollWidth - window.innerWidth};")
    statement, editor_box, results = boxes["statement"], boxes["editor"], boxes["results"]
    if boxes["overflow"] > 1:
        fail(f"at {width} px the page is wider than the window by {boxes['overflow']} px")
    if abs(boxes["codemirror"] - boxes["pane"]) > 2:
        fail(f"the editor does not fill its pane: {boxes['codemirror']} px in {boxes['pane']} px")
    if editor_box["bottom"] > results["top"] + 1:
        fail(f"the results are not under the editor at {width} px: {boxes}")
    if width < 700:
        if statement["bottom"] > editor_box["top"] + 1 or editor_box["width"] < width * 0.85:
            fail(f"at {width} px the statement is not above a full-width editor: {boxes}")
    elif statement["right"] > editor_box["left"]:
        fail(f"at {width} px the statement is not beside the editor: {boxes}")


def check_the_statement(driver):
    if not driver.run("return !!document.querySelector('#statement p') && !!document.querySelector('.CodeMirror');"):
        fail("the statement is not rendered as HTML, or the editor is not CodeMirror")
    if not driver.run("return !!document.querySelector('#statement .katex');"):
        fail("the statement's formula is not rendered by KaTeX")
    # A block indented past its paragraph is code, columns kept; a line
    # alone without punctuation is a heading; a formula under a list item
    # stays in the item.
    table = driver.run("return [...document.querySelectorAll('#statement pre')].map((p) => p.textContent);")
    if not any("[0, 1.0986] [0.25, 0.75]" in block for block in table):
        fail(f"the worked example's table is not a block of code with its columns: {table!r}")
    if driver.run("return document.querySelector('#statement h3')?.textContent;") != "Worked example":
        fail("the statement's heading is not a heading")
    if not driver.run("return !!document.querySelector('#statement ol li pre');"):
        fail("the formula under a numbered step left its list item")


def check_start_and_the_stub(driver, workspace_file, tests):
    # Start: the stub, as `judge start` writes it.
    driver.click("#start-button")
    driver.wait("return window.judgeEditor.get().includes('not implemented yet');", "the stub in the editor")
    if read(workspace_file) != read(os.path.join(tests, "fixtures/draws/problems/draws/stub.hpp")):
        fail("Start did not copy the stub to the workspace")
    # The stub fails every case alike: one failure shown, the others named under it.
    run_and_wait(driver, "runtime_error")
    shown = driver.run("return {failed: document.querySelectorAll('#cases li.failed').length,"
                       " passed: document.querySelectorAll('li.case.passed').length,"
                       " repeats: [...document.querySelectorAll('#cases .case-repeats')].map((r) => r.textContent)};")
    named = sum(len(text.split(": ", 1)[1].split(", ")) for text in shown["repeats"])
    if not shown["repeats"] or shown["passed"] != 0 or shown["failed"] + named < 2:
        fail(f"the stub's identical failures are not folded under the first: {shown}")


def check_the_failing_run(driver):
    failing = driver.run("const c = document.querySelector('#cases li.failed[data-name=\"example_flat\"]');"
                         " return c && {input: c.querySelector('.case-input').textContent,"
                         " message: c.querySelector('.case-message').textContent};")
    if not failing or "logits = [0, 0]" not in failing["input"] or "wrong_answer" not in failing["message"]:
        fail(f"the failing case example_flat is not shown with its input: {failing}")
    marked = driver.run("return [...document.querySelectorAll("
                        "'#cases li.failed[data-name=\"example_flat\"] .case-details mark')].map((m) => m.textContent);")
    if not marked:
        fail("where got differs from expected is not marked in the failing case's details")
    # The hint once, numbered, above the cases; each case it explains names
    # its number instead of repeating it.
    hints = driver.run("return [...document.querySelectorAll('#hints .hint')].map((h) => h.textContent);")
    if len(hints) != 1 or not hints[0].startswith("Known mistake 1: " + MISTAKE):
        fail(f"the known mistake is not shown once, numbered, above the cases: {hints}")
    under_cases = driver.run("return [...document.querySelectorAll('#cases .case-hint')].map((h) => h.textContent);")
    if not under_cases or any(text != "explained by known mistake 1 above" for text in under_cases):
        fail(f"the cases the hint explains do not name it by its number: {under_cases}")
    if not driver.run("return document.querySelectorAll('#shrunk .shrunk').length > 0;"):
        fail("the run shows no shrunk example (nor why there is none)")
    summary = driver.run("return document.getElementById('summary').textContent;")
    if not re.match(r"wrong_answer \d+/\d+ cases passed$", summary):
        fail(f"the results do not start with a one-line summary: {summary!r}")


def check_try(driver):
    # Try (the op's sample input is filled in).
    driver.click('.tabs button[data-tab="try"]')
    driver.click("#try-button")
    driver.wait("return document.getElementById('try-summary').textContent.startsWith('agree');", "Try to agree", 120)
    driver.click('.tabs button[data-tab="results"]')


def check_tabs_by_keyboard(driver):
    driver.run("document.getElementById('tab-button-results').focus();")
    driver.chord(ARROW_RIGHT)
    selected = driver.run("return [document.querySelector('[role=tab][aria-selected=true]').dataset.tab,"
                          " document.activeElement.id, document.getElementById('tab-try').hidden];")
    if selected != ["try", "tab-button-try", False]:
        fail(f"the right arrow on the Results tab does not select and focus Try: {selected}")
    driver.click('.tabs button[data-tab="results"]')


def check_splitters_and_settings(driver):
    """The splitter moves with the arrow keys and is remembered; the keymap
    and the font size are set and remembered."""
    before = driver.run("return document.getElementById('statement-pane').getBoundingClientRect().width;")
    driver.run("document.getElementById('split-columns').focus();")
    driver.chord(ARROW_RIGHT)
    after = driver.run("return [document.getElementById('statement-pane').getBoundingClientRect().width,"
                       " localStorage.getItem('judge-split-columns')];")
    if not after[0] > before or after[1] != "42":
        fail(f"the right arrow on the splitter did not widen the statement and keep it: {before} -> {after}")
    driver.chord(ARROW_LEFT)
    driver.drag("#split-columns", -150, 0)
    dragged = driver.run("return [document.getElementById('statement-pane').getBoundingClientRect().width,"
                         " localStorage.getItem('judge-split-columns')];")
    if not dragged[0] < before - 100 or dragged[1] == "40":
        fail(f"dragging the splitter 150 px left did not narrow the statement and keep it: {before} -> {dragged}")
    driver.drag("#split-columns", 150, 0)
    choose = "const s = document.getElementById(arguments[0]); s.value = arguments[1]; s.dispatchEvent(new Event('change'));"
    driver.run(choose, "keymap", "vim")
    driver.wait("return window.judgeEditor.cm.getOption('keyMap') === 'vim' &&"
                " localStorage.getItem('judge-keymap') === 'vim';", "the vim keymap", 10)
    driver.run(choose, "keymap", "emacs")
    driver.wait("return window.judgeEditor.cm.getOption('keyMap') === 'emacs';", "the emacs keymap", 10)
    driver.run(choose, "keymap", "default")
    driver.run(choose, "font-size", "16")
    size = driver.run("return [getComputedStyle(document.querySelector('.CodeMirror')).fontSize,"
                      " localStorage.getItem('judge-font-size')];")
    if size != ["16px", "16"]:
        fail(f"the font size setting did not reach the editor or was not kept: {size}")
    driver.run(choose, "font-size", "13")


def check_compile_error(driver, tests):
    # A compile error: marked on the learner's line 9.
    set_editor(driver, read(os.path.join(tests, "fixtures/web/compile_error.hpp")))
    run_and_wait(driver, "compile_error")
    marked = driver.run("const cm = document.querySelector('.CodeMirror').CodeMirror;"
                        " const lines = [];"
                        " for (let i = 0; i < cm.lineCount(); ++i)"
                        "   if ((cm.lineInfo(i).bgClass || '').includes('judge-line-error')) lines.push(i + 1);"
                        " return lines;")
    if marked != [9]:
        fail(f"the compile error is marked on lines {marked}, not on line 9")


def check_the_outside_save(driver, workspace_file):
    # Another editor saves the file: the page shows it.
    with open(workspace_file, "w") as out:
        out.write("// saved by another editor\n")
    driver.wait("return window.judgeEditor.get() === '// saved by another editor\\n';", "the outside save", 20)
    # With changes of its own, the page offers the outside save and loses neither.
    set_editor(driver, "// typed in the page\n")
    with open(workspace_file, "w") as out:
        out.write("// saved again by another editor\n")
    driver.wait("return !document.getElementById('disk-changed').hidden;", "the offer to load the outside save", 20)
    if driver.run("return window.judgeEditor.get();") != "// typed in the page\n":
        fail("the outside save replaced the page's unsaved text")
    driver.click("#load-disk")
    driver.wait("return window.judgeEditor.get() === '// saved again by another editor\\n';", "Load it", 10)


# Counts, while the lab generates, the characters the page added as their
# token events came; those it adds once done are steps to choose, with a role.
WATCH_LAB = """
window.labStreamed = 0;
if (window.labObserver) window.labObserver.disconnect();
const observer = window.labObserver = new MutationObserver((records) => {
  for (const record of records)
    for (const node of record.addedNodes)
      if (node.classList && node.classList.contains('lab-char') && !node.hasAttribute('role')) window.labStreamed += 1;
});
observer.observe(document.getElementById('lab-generated'), {childList: true});
"""

LAB_ENDS = ("return !document.getElementById('lab-generate').disabled &&"
            " (!document.getElementById('lab-figures').hidden || document.getElementById('lab-error').textContent);")

CHART_DATA = ("const c = Chart.getChart(document.getElementById('lab-chart'));"
              " return c && {labels: c.data.labels, data: c.data.datasets.map((d) => d.data),"
              " stages: c.data.datasets.map((d) => d.label),"
              " outlined: c.data.datasets.map((d) => d.borderWidth.filter((w) => w > 0).length)};")


def set_knobs(driver, settings):
    """Sets the knobs (in the order given) as a person does: each a change."""
    for knob, value in settings.items():
        driver.run("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                   " e.dispatchEvent(new Event('change'));", knob, value)


def start_generating(driver, settings, ends):
    """Sets the knobs, presses Generate, and waits until `ends` is true."""
    set_knobs(driver, settings)
    driver.run(WATCH_LAB)
    driver.click("#lab-generate")
    running = driver.run("return [document.getElementById('lab-generate').disabled,"
                         " document.getElementById('lab-error').textContent];")
    if running[1]:
        fail(f"the lab shows an error: {running[1]}")
    if not running[0]:
        fail("Generate is not disabled while the lab runs")
    # The first run builds six reference runners: minutes on a busy machine.
    driver.wait(ends, "the lab to be done", 600)
    error = driver.run("return document.getElementById('lab-error').textContent;")
    if error:
        fail(f"the lab shows an error: {error}")


def generate(driver, settings, tokens, steps=True):
    """Sets the knobs, generates, and waits for the run to be done. The
    characters become steps to choose, except in speculative decoding,
    which keeps no step's distributions."""
    start_generating(driver, settings, LAB_ENDS)
    streamed = driver.run("return window.labStreamed;")
    shown = driver.run("return [document.querySelectorAll('#lab-generated .lab-char').length,"
                       " document.querySelectorAll('#lab-generated [role=option]').length];")
    if streamed != tokens or shown != [tokens, tokens if steps else 0]:
        fail(f"{tokens} tokens asked for: {streamed} streamed in, then {shown[0]} shown,"
             f" {shown[1]} of them to choose")


def check_the_lab(driver, url, shots, axe):
    """The Lab on the repository's problems: nothing started, so every part
    is the reference's and no reference runs beside."""
    driver.set_window(1440, 900)
    driver.go(url)
    driver.wait("return document.querySelectorAll('#problem-list li').length > 0;", "the repository's problems")
    if not driver.run("return !!document.querySelector('#welcome a[href=\"#/lab\"]');"):
        fail("the course does not lead to the Lab")
    driver.click("#lab-link")
    driver.wait("return !document.getElementById('lab').hidden && document.getElementById('welcome').hidden;",
                "the Lab view", 10)
    defaults = driver.run("const v = (id) => document.getElementById(id).value;"
                          " return [v('lab-prompt'), v('lab-max-new-tokens'), v('lab-temperature'), v('lab-penalty'),"
                          " v('lab-filter'), v('lab-filter-value'), v('lab-seed'), v('lab-draft-tokens')];")
    if defaults != ["the kernel", "200", "0.8", "1.1", "top_p", "0.9", "1", "0"]:
        fail(f"the Lab's knobs do not start at the defaults: {defaults}")
    check_accessibility(driver, axe, "the Lab before generating")

    generate(driver, {"lab-max-new-tokens": "30"}, 30)
    parts = driver.run("return [...document.querySelectorAll('#lab-parts tbody tr')]"
                       ".map((r) => r.querySelector('.whose').textContent);")
    if parts != ["the reference"] * 6:
        fail(f"the parts are not six, all the reference's: {parts}")
    figures = driver.run("return document.getElementById('lab-figure-list').textContent;")
    if not re.search(r"KV cache by the formula\d+ bytes", figures) or "tokens a second" not in figures:
        fail(f"the figures do not show the KV cache bytes and the speed: {figures!r}")
    if driver.run("return document.getElementById('lab-reference').hidden;") is not True:
        fail("a reference run is shown though no part is the learner's")

    first = driver.run(CHART_DATA)
    if not first or len(first["data"]) != 4 or len(first["labels"]) < 15 or first["outlined"] != [1, 1, 1, 1]:
        fail(f"the chart of the first step does not show the four stages over the tokens, the chosen marked: {first}")
    if driver.run("return document.getElementById('lab-generated').getAttribute('aria-activedescendant');") != "lab-step-0":
        fail("the first step is not chosen by default")
    driver.run("document.getElementById('lab-generated').focus();")
    driver.chord(ARROW_RIGHT)
    chosen = driver.run("return [document.getElementById('lab-generated').getAttribute('aria-activedescendant'),"
                        " document.getElementById('lab-step-title').textContent];")
    if chosen[0] != "lab-step-1" or not chosen[1].startswith("Token 2 of 30"):
        fail(f"the right arrow on the text does not choose the second step: {chosen}")
    second = driver.run(CHART_DATA)
    if not second or len(second["data"]) != 4 or second["data"] == first["data"]:
        fail("choosing the second step did not redraw the chart with its distributions")
    check_accessibility(driver, axe, "the Lab after generating")
    driver.emulate_color_scheme("dark")
    try:
        check_accessibility(driver, axe, "the Lab in the dark theme")
    finally:
        driver.emulate_color_scheme("")
    if shots:
        driver.screenshot(os.path.join(shots, "web-lab-1440.png"))

    driver.set_window(390, 844)
    boxes = driver.run("const box = (id) => document.getElementById(id).getBoundingClientRect();"
                       " return {overflow: document.documentElement.scrollWidth - window.innerWidth,"
                       " form: box('lab-form').bottom, text: box('lab-text').top, chart: box('lab-chart-box').right,"
                       " width: window.innerWidth};")
    if boxes["overflow"] > 1 or boxes["form"] > boxes["text"] or boxes["chart"] > boxes["width"]:
        fail(f"at 390 px the Lab does not stack the knobs over the text and chart within the window: {boxes}")
    check_accessibility(driver, axe, "the Lab at 390 px")
    if shots:
        driver.run("document.getElementById('lab-text-heading').scrollIntoView();")
        driver.screenshot(os.path.join(shots, "web-lab-390.png"))

    driver.set_window(1440, 900)
    generate(driver, {"lab-max-new-tokens": "40", "lab-draft-tokens": "3"}, 40, steps=False)
    acceptance = driver.run("const t = (css) => document.querySelector(css)?.textContent;"
                            " return [t('.figure-acceptance'), t('.figure-passes')];")
    if (not acceptance[0] or not re.search(r"measured \d\.\d{3} .*predicted \d\.\d{3} ± \d\.\d{3}", acceptance[0])
            or not acceptance[1] or not re.match(r"target passes saved\d+ ", acceptance[1])):
        fail(f"the speculative run does not show measured against predicted acceptance and passes saved: {acceptance}")
    check_beam_search(driver, shots, axe)


BEAM_ENDS = ("return !document.getElementById('lab-generate').disabled &&"
             " (!document.getElementById('lab-beam').hidden || document.getElementById('lab-error').textContent);")

# Which of the Lab's parts a person can see: those with a box on the page.
SHOWN_BY_ID = ("const shown = (id) => document.getElementById(id).getClientRects().length > 0;"
         " return Object.fromEntries(arguments[0].map((id) => [id, shown(id)]));")

# The beam's table as shown: each body's rows, their cells' text.
BEAM_TABLE = ("const rows = (css) => [...document.querySelectorAll(css)]"
              ".map((r) => [...r.cells].map((c) => c.textContent));"
              " return {beam: rows('#lab-beam-yours table > tbody:not(.lab-greedy) > tr'),"
              " greedy: rows('#lab-beam-yours table > tbody.lab-greedy > tr'),"
              " headers: [...document.querySelectorAll('#lab-beam-yours thead th')]"
              ".map((h) => h.scope + ':' + h.textContent),"
              " summary: document.getElementById('lab-beam-summary').textContent};")


def check_beam_search(driver, shots, axe):
    """Beam search, width 3: its knobs instead of the sampler's, no text
    streamed, a table of 3 hypotheses best score first with the greedy path
    under them, none of sampling's chart and figures; then sampling again
    streams and charts."""
    set_knobs(driver, {"lab-decoding": "beam"})
    knobs = driver.run(SHOWN_BY_ID, ["lab-beam-width", "lab-length-penalty", "lab-temperature", "lab-penalty",
                                     "lab-filter", "lab-filter-value", "lab-seed", "lab-draft-tokens", "lab-greedy",
                                     "lab-max-new-tokens"])
    beam_knobs = ["lab-beam-width", "lab-length-penalty", "lab-max-new-tokens"]
    if any(knobs[k] != (k in beam_knobs) for k in knobs):
        fail(f"choosing beam search does not show its knobs alone: {knobs}")
    if driver.run("return document.getElementById('lab-beam-width').value;") != "4":
        fail("the beam width does not start at 4")
    start_generating(driver, {"lab-beam-width": "3", "lab-max-new-tokens": "30"}, BEAM_ENDS)
    if driver.run("return window.labStreamed;") != 0:
        fail("beam search streamed characters into the text")
    table = driver.run(BEAM_TABLE)
    if table["headers"] != ["col:rank", "col:text", "col:tokens", "col:log_prob", "col:score", "col:ended"]:
        fail(f"the beam's table does not have its column headers: {table['headers']}")
    scores = [float(row[4]) for row in table["beam"]]
    if len(table["beam"]) != 3 or scores != sorted(scores, reverse=True):
        fail(f"the beam of width 3 is not 3 hypotheses with scores that do not rise: {table['beam']}")
    if ([row[0] for row in table["beam"]] != ["1", "2", "3"]
            or not all(row[1].startswith("the kernel") and row[5] in ("yes", "no") for row in table["beam"])):
        fail(f"the beam's rows are not ranked 1 to 3, each the prompt and its text, ended or not: {table['beam']}")
    greedy = table["greedy"]
    if len(greedy) != 1 or greedy[0][0] != "greedy" or not re.match(r"-?\d+\.\d{4}$", greedy[0][4]):
        fail(f"the greedy path is not under the beam with its score: {greedy}")
    if not re.search(r"asked the model \d+ times in \d+\.\d\d s", table["summary"]):
        fail(f"the beam does not say how often it asked the model and how long it took: {table['summary']!r}")
    gone = driver.run(SHOWN_BY_ID, ["lab-text", "lab-step", "lab-chart", "lab-figures", "lab-reference"])
    if any(gone.values()) or driver.run("return !!Chart.getChart(document.getElementById('lab-chart'));"):
        fail(f"beam search shows sampling's parts: {gone}")
    parts = driver.run("return [...document.querySelectorAll('#lab-parts tbody tr')].map((r) => r.dataset.problem);")
    if parts != ["beam_search"]:
        fail(f"the beam's parts are not beam_search alone: {parts}")
    check_accessibility(driver, axe, "beam search in the Lab")
    if shots:
        driver.run("document.getElementById('lab-title').scrollIntoView();")
        driver.screenshot(os.path.join(shots, "web-lab-beam-1440.png"))
    driver.set_window(390, 844)
    overflow = driver.run("return document.documentElement.scrollWidth - window.innerWidth;")
    if overflow > 1:
        fail(f"at 390 px the beam's table is {overflow} px wider than the window")
    check_accessibility(driver, axe, "beam search in the Lab at 390 px")
    driver.set_window(1440, 900)

    generate(driver, {"lab-decoding": "sampling", "lab-max-new-tokens": "30", "lab-draft-tokens": "0"}, 30)
    back = driver.run(SHOWN_BY_ID, ["lab-text", "lab-step", "lab-figures", "lab-beam", "lab-temperature", "lab-beam-width"])
    if back != {"lab-text": True, "lab-step": True, "lab-figures": True, "lab-beam": False, "lab-temperature": True,
                "lab-beam-width": False}:
        fail(f"sampling after beam search does not show the text, the chart and the figures again: {back}")
    chart = driver.run(CHART_DATA)
    if not chart or len(chart["data"]) != 4:
        fail(f"sampling after beam search does not chart the first step: {chart}")


def check_accessibility(driver, axe, when):
    """axe-core's serious and critical violations on the page as it is."""
    if not driver.run("return !!window.axe;"):
        driver.run(axe)
    found = driver.run_async(AXE_RUN)
    if isinstance(found, dict):
        fail(f"axe-core could not check the page ({when}): {found}")
    if found:
        lines = [f"  {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found]
        fail(f"accessibility violations with {when}:\n" + "\n".join(lines))


def check_accessibility_in_the_dark(driver, axe, shots):
    driver.emulate_color_scheme("dark")
    try:
        background = driver.run("return getComputedStyle(document.body).backgroundColor;")
        if background != "rgb(13, 17, 23)":
            fail(f"the page is not dark when the system prefers it: the background is {background}")
        check_accessibility(driver, axe, "a failing run in the dark theme")
        if shots:
            driver.screenshot(os.path.join(shots, "web-dark-1440.png"))
    finally:
        driver.emulate_color_scheme("")


AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then((results) => done(results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`)}))),
  (error) => done({error: String(error)}));
"""


def axe_source(source):
    """axe-core from tests/web/node_modules (npm ci --prefix tests/web)."""
    path = os.path.join(source, "tests", "web", "node_modules", "axe-core", "axe.min.js")
    if not os.path.exists(path):
        skip(f"axe-core is needed for the accessibility check ({path} is missing: npm ci --prefix tests/web)")
    return read(path)


if __name__ == "__main__":
    main()

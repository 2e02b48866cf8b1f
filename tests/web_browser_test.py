#!/usr/bin/env python3
"""The page of `judge serve` in a real browser: headless Chromium driven
through chromedriver's WebDriver HTTP API (the standard library only).

It serves the fixture problem `draws` (tests/fixtures/draws) from a scratch
root, opens the printed URL, visits a server on another port of 127.0.0.1
(which must not receive the token) and comes back without the token in the
URL, starts the problem, fills the editor with a
correct solution, runs it and sees "accepted" (with cases shown before the
verdict), tries an input and sees the solution; then a wrong one, and sees the failing case with its input; then
one that does not compile, and sees the error marked on its line; then a
save by another editor appearing in the page.

Usage: web_browser_test.py JUDGE_BINARY SOURCE_DIR
Exits 77 (skipped) when Chromium or chromedriver is missing or cannot
start here, saying why. With JUDGE_WEB_SCREENSHOTS=DIR it saves
DIR/web-problem.png and DIR/web-failing-run.png (docs/ holds them).
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


def skip(why):
    # In CI every test runs: bin/setup --all-targets installs Chromium.
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


def scratch_root(source, tests, into):
    """The repository's harness with the draws fixture beside it."""
    shutil.copytree(os.path.join(source, "harness"), os.path.join(into, "harness"))
    fixture = os.path.join(tests, "fixtures", "draws")
    shutil.copytree(os.path.join(fixture, "harness"), os.path.join(into, "harness"), dirs_exist_ok=True)
    shutil.copytree(os.path.join(fixture, "problems"), os.path.join(into, "problems"))
    shutil.copytree(os.path.join(fixture, "solutions"), os.path.join(into, "solutions"))


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


def set_editor(driver, text):
    driver.run("window.judgeEditor.set(arguments[0]);", text)


# Records, while a run goes on, how many cases the page showed before the verdict.
WATCH_CASES = """
window.casesBeforeVerdict = 0;
const observer = new MutationObserver(() => {
  if (!document.getElementById('verdict').textContent)
    window.casesBeforeVerdict = Math.max(window.casesBeforeVerdict,
                                         document.querySelectorAll('#cases li').length);
});
observer.observe(document.getElementById('cases'), {childList: true});
"""

VERDICT_IS = "return document.getElementById('verdict').textContent === arguments[0];"


def run_and_wait(driver, verdict):
    driver.run(WATCH_CASES)
    driver.click("#run-button")
    driver.wait(VERDICT_IS, f"the verdict {verdict}", 240, verdict)


def main():
    if len(sys.argv) != 3:
        fail("usage: web_browser_test.py JUDGE_BINARY SOURCE_DIR")
    judge, source = sys.argv[1], sys.argv[2]
    tests = os.path.join(source, "tests")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        skip("Chromium and chromedriver are needed (apt-get install chromium chromium-driver)")
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
            check_the_page(driver, url, root, tests, shots)
        finally:
            driver.quit()
            driver_process.terminate()
            server.terminate()
            driver_process.wait(10)
            server.wait(10)
    print("PASSED: the token kept from other ports, started, accepted, try, the solution, a failing case with its input, a compile error marked, an outside save seen")


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


def check_the_page(driver, url, root, tests, shots):
    workspace_file = os.path.join(root, "workspace", "draws.hpp")
    driver.go(url)
    driver.wait("return document.querySelector('#problem-list li[data-slug=\"draws\"]');", "the problem list")
    check_the_token_stays_on_its_port(driver, url)
    status = driver.run("return document.querySelector('#problem-list li[data-slug=\"draws\"] .status').textContent;")
    if status != "not started":
        fail(f"the list says {status!r} for a problem not started")
    if "token=" in driver.run("return location.href;"):
        fail("the token stays in the address bar")
    driver.click('#problem-list li[data-slug="draws"] a')
    driver.wait("return document.getElementById('title').textContent.includes('Draws');", "the statement")
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

    # Start: the stub, as `judge start` writes it.
    driver.click("#start-button")
    driver.wait("return window.judgeEditor.get().includes('not implemented yet');", "the stub in the editor")
    if read(workspace_file) != read(os.path.join(tests, "fixtures/draws/problems/draws/stub.hpp")):
        fail("Start did not copy the stub to the workspace")

    # The stub fails every case alike: one failure shown, the others named under it.
    run_and_wait(driver, "runtime_error")
    shown = driver.run("return {failed: document.querySelectorAll('#cases li.failed').length,"
                       " passed: document.querySelectorAll('#cases li.passed').length,"
                       " repeats: [...document.querySelectorAll('#cases .case-repeats')].map((r) => r.textContent)};")
    named = sum(len(text.split(": ", 1)[1].split(", ")) for text in shown["repeats"])
    if not shown["repeats"] or shown["passed"] != 0 or shown["failed"] + named < 2:
        fail(f"the stub's identical failures are not folded under the first: {shown}")

    # A correct solution: accepted, with cases shown as they finished.
    accepted = read(os.path.join(tests, "fixtures/web/accepted.hpp"))
    set_editor(driver, accepted)
    run_and_wait(driver, "accepted")
    if read(workspace_file) != accepted:
        fail("Run did not save the editor's text first")
    if not driver.run("return window.casesBeforeVerdict > 0;"):
        fail("no case was shown before the verdict: the results did not stream")
    if not driver.run("return document.querySelectorAll('#cases li.passed').length > 0 &&"
                      " document.querySelectorAll('#cases li.failed').length === 0;"):
        fail("the accepted run does not list its cases as passed")
    driver.wait("return document.querySelector('#problem-list li[data-slug=\"draws\"] .status').textContent"
                " === 'solved';", "the list to say solved", 30)
    if shots:
        driver.screenshot(os.path.join(shots, "web-problem.png"))

    # Try (the op's sample input is filled in), and the solution once solved.
    driver.click('.tabs button[data-tab="try"]')
    driver.click("#try-button")
    driver.wait("return document.getElementById('try-summary').textContent.startsWith('agree');", "Try to agree", 120)
    driver.click('.tabs button[data-tab="solution"]')
    driver.wait("return document.getElementById('solution-reference').textContent.includes('softmax_sample');",
                "the reference solution", 20)
    driver.click('.tabs button[data-tab="results"]')

    # A wrong one: the failing case, its input, the verdict.
    wrong = read(os.path.join(tests, "fixtures/draws/solutions/draws/wrong/probs_unnormalized.hpp"))
    set_editor(driver, wrong)
    run_and_wait(driver, "wrong_answer")
    failing = driver.run("const c = document.querySelector('#cases li.failed[data-name=\"example_flat\"]');"
                         " return c && {input: c.querySelector('.case-input').textContent,"
                         " message: c.querySelector('.case-message').textContent};")
    if not failing or "logits = [0, 0]" not in failing["input"] or "wrong_answer" not in failing["message"]:
        fail(f"the failing case example_flat is not shown with its input: {failing}")
    marked = driver.run("return [...document.querySelectorAll("
                        "'#cases li.failed[data-name=\"example_flat\"] .case-details mark')].map((m) => m.textContent);")
    if not marked:
        fail("where got differs from expected is not marked in the failing case's details")
    if not driver.run("return document.querySelectorAll('#shrunk .shrunk').length > 0;"):
        fail("the run shows no shrunk example (nor why there is none)")
    if shots:
        driver.run("document.querySelector('#cases li.failed').scrollIntoView();")
        driver.screenshot(os.path.join(shots, "web-failing-run.png"))

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

    # Another editor saves the file: the page shows it.
    with open(workspace_file, "w") as out:
        out.write("// saved by another editor\n")
    driver.wait("return window.judgeEditor.get() === '// saved by another editor\\n';", "the outside save", 20)


if __name__ == "__main__":
    main()

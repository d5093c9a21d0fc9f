"""What the browser tests share: the real insetd, a socket client, the browser,
the testbed, and helpers that read insetd.js's state from a page.

Debian's chromium-headless-shell driven by Playwright, against the real insetd
(started as the Swift end-to-end tests start it) under umockdev, so a hardware
keyboard can be plugged in. Run by scripts/web-test; expected values are worked
out by hand from the test configuration below:

  screen 390x844 portrait: keyboard 336 high -> frame (0, 508, 390, 336)
  landscape 844x390:        keyboard 209 high -> frame (0, 181, 844, 209)
  hardware keyboard:        accessory bar 44  -> frame (0, 800, 390, 44)
"""
import argparse
import atexit
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from testbed import Testbed  # noqa: E402

ARGS = argparse.Namespace(insetd=".build/debug/insetd", screenshots=None)
PORTRAIT = [0, 508, 390, 336]
LANDSCAPE = [0, 181, 844, 209]
ACCESSORY = [0, 800, 390, 44]
HIDDEN = [0, 0, 0, 0]
# Below the portrait keyboard's top (508) yet inside the viewport (844) at
# scroll 0, so the browser does not scroll it into view by itself on focus.
BOTTOM_FIELD = "#postcode"

playwright = None
browser = None
testbed = None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_page(test, port, html):
    """`html` at every path of http://127.0.0.1:`port` (an origin of the
    test's own) until `test` ends."""
    body = html.encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    test.addCleanup(server.server_close)
    test.addCleanup(server.shutdown)


class Daemon:
    """The real insetd with a WebSocket listener on `port`."""

    def __init__(self, port, origins=(), control=False, directory=None, extra=""):
        self.port = port
        if directory is None:
            directory = tempfile.mkdtemp(prefix="insetd-web-")
            # A daemon may be stopped and started again within a test, so its
            # directory (socket, config, log) goes when the run ends.
            atexit.register(shutil.rmtree, directory, ignore_errors=True)
        self.directory = directory
        self.socket = os.path.join(self.directory, "insetd.sock")
        self.config = os.path.join(self.directory, "insetd.yaml")
        with open(self.config, "w") as f:
            f.write("screen: {width: 390, height: 844}\n"
                    "keyboard: {portrait-height: 336, landscape-height: 209, accessory-bar-height: 44}\n"
                    f"websocket: {{listen: \"127.0.0.1:{port}\", origins: {json.dumps(list(origins))}, "
                    f"control: {'true' if control else 'false'}}}\n" + extra)
        self.start()

    def start(self):
        self.log = open(os.path.join(self.directory, "insetd.log"), "a")
        # The C environment is inherited (env=None): umockdev's preload and UMOCKDEV_DIR.
        self.process = subprocess.Popen(
            [ARGS.insetd, "--config", self.config, "--socket", self.socket, "--uevent-source", "udev"],
            stderr=self.log, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"insetd exited: {self.log_text()}")
                time.sleep(0.02)
        raise RuntimeError(f"insetd never listened on {self.port}: {self.log_text()}")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=10)
        self.log.close()
        return code

    def log_text(self):
        with open(os.path.join(self.directory, "insetd.log")) as f:
            return f.read()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"


class LineClient:
    """A Unix socket client, to compare with what the WebSocket gets."""

    def __init__(self, path, hello=True):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.sock.settimeout(5)
        self.buffer = b""
        if hello:
            self.send('{"type":"hello","version":1,"client":"web-test"}')
            assert self.next("welcome")

    def close(self):
        self.sock.close()

    def send(self, line):
        self.sock.sendall(line.encode() + b"\n")

    def read(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def next(self, kind):
        for _ in range(100):
            message = self.read()
            if message is None or message.get("type") == kind:
                return message
        return None


def keyboard(page):
    return page.evaluate("() => { const r = insetd.boundingRect; return [r.x, r.y, r.width, r.height]; }")


def css_keyboard(page):
    return page.evaluate("""() => ['x', 'y', 'width', 'height'].map((k) =>
        document.documentElement.style.getPropertyValue('--insetd-keyboard-' + k))""")


def wait_for_keyboard(page, frame, field=None):
    """Until insetd.js reports `frame`, and `field` (if given) is settled inside
    the visible area above it."""
    condition = f"(r => r.x === {frame[0]} && r.y === {frame[1]} && r.width === {frame[2]} && r.height === {frame[3]})(insetd.boundingRect)"
    if field:
        condition += f""" && (() => {{
            const f = document.querySelector('{field}').getBoundingClientRect();
            const top = insetd.boundingRect.height > 0 ? insetd.boundingRect.y : innerHeight;
            return f.top >= 0 && f.bottom <= top && ![...insetd.views.values()].some((v) => v.animating);
        }})()"""
    try:
        page.wait_for_function(f"() => {condition}", timeout=5000)
    except Exception as error:
        # Say what did hold, so a failure can be read without re-running.
        seen = page.evaluate(f"""() => ({{
            keyboard: insetd.boundingRect, innerHeight, scrollY,
            field: {f"document.querySelector('{field}').getBoundingClientRect().toJSON()" if field else "null"},
            views: [...insetd.views.values()].map((v) => ({{animating: v.animating}}))
        }})""")
        raise AssertionError(f"keyboard {frame} / field {field} not settled within 5 s; page: {seen}") from error


def screenshot(page, name):
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
        page.screenshot(path=os.path.join(ARGS.screenshots, name))


def open_demo(daemon, width=390, height=844):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{daemon.url}/demo/")
    page.wait_for_function("() => window.insetd && insetd.connected", timeout=5000)
    return page


def run(modules):
    """Starts the browser and the testbed, runs the tests in `modules`, exits."""
    global playwright, browser, testbed, ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--insetd", default=ARGS.insetd)
    parser.add_argument("--screenshots", help="save the demo's screenshots in this directory")
    ARGS, rest = parser.parse_known_args()
    ARGS.insetd = os.path.abspath(ARGS.insetd)
    # The browser runs without umockdev's preload; insetd and this process with it.
    preload = os.environ.pop("LD_PRELOAD", "")
    from playwright.sync_api import sync_playwright
    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=os.environ.get("INSETD_CHROMIUM", "/usr/bin/chromium-headless-shell"), args=["--no-sandbox"])
    os.environ["LD_PRELOAD"] = preload
    testbed = Testbed()
    try:
        result = unittest.main(module=None, argv=[sys.argv[0]] + rest + modules, exit=False, verbosity=2).result
    finally:
        browser.close()
        playwright.stop()
        testbed.close()
    sys.exit(0 if result.wasSuccessful() else 1)


"""insetd's WebSocket endpoint, insetd.js and the demo in a real browser.

Debian's chromium-headless-shell driven by Playwright, against the real insetd
(started as the Swift end-to-end tests start it) under umockdev, so a hardware
keyboard can be plugged in. Run by scripts/web-test; expected values are worked
out by hand from the test configuration below:

  screen 390x844 portrait: keyboard 336 high -> frame (0, 508, 390, 336)
  landscape 844x390:        keyboard 209 high -> frame (0, 181, 844, 209)
  hardware keyboard:        accessory bar 44  -> frame (0, 800, 390, 44)
"""
import argparse
import json
import re
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import http.client
import http.server

sys.path.insert(0, os.path.dirname(__file__))
from testbed import Keyboard, Testbed  # noqa: E402

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


class Daemon:
    """The real insetd with a WebSocket listener on `port`."""

    def __init__(self, port, origins=(), control=False, directory=None):
        self.port = port
        self.directory = directory or tempfile.mkdtemp(prefix="insetd-web-")
        self.socket = os.path.join(self.directory, "insetd.sock")
        self.config = os.path.join(self.directory, "insetd.yaml")
        with open(self.config, "w") as f:
            f.write("screen: {width: 390, height: 844}\n"
                    "keyboard: {portrait-height: 336, landscape-height: 209, accessory-bar-height: 44}\n"
                    f"websocket: {{listen: \"127.0.0.1:{port}\", origins: {json.dumps(list(origins))}, "
                    f"control: {'true' if control else 'false'}}}\n")
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
    page.wait_for_function(f"() => {condition}", timeout=5000)


def screenshot(page, name):
    if ARGS.screenshots:
        os.makedirs(ARGS.screenshots, exist_ok=True)
        page.screenshot(path=os.path.join(ARGS.screenshots, name))


def open_demo(daemon, width=390, height=844):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{daemon.url}/demo/")
    page.wait_for_function("() => window.insetd && insetd.connected", timeout=5000)
    return page


class DemoInTheBrowser(unittest.TestCase):
    def test_focus_rotate_blur(self):
        daemon = Daemon(free_port())
        try:
            page = open_demo(daemon)
            self.assertEqual(keyboard(page), HIDDEN)
            self.assertEqual(css_keyboard(page), ["0px", "0px", "0px", "0px"])
            before = page.evaluate(f"() => document.querySelector('{BOTTOM_FIELD}').getBoundingClientRect().toJSON()")
            self.assertGreater(before["bottom"], 508, "the field starts where the keyboard will be")
            self.assertLess(before["bottom"], 844, "and visible, so the browser does not scroll by itself")

            # Focus: the full keyboard, and the field scrolled above it.
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "508px", "390px", "336px"])
            # The document's bottom inset is the whole keyboard (no safe area here).
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "336px")
            self.assertEqual(page.evaluate("() => document.scrollingElement.style.scrollPaddingBottom"), "336px")
            panel = page.evaluate("""() => { const p = document.querySelector('[data-insetd-emulated-keyboard]');
                return [p.dataset.state, p.style.top, p.style.height]; }""")
            self.assertEqual(panel, ["shown", "508px", "336px"])
            page.wait_for_timeout(300)  # the panel's slide
            screenshot(page, "web-portrait.png")

            # Rotate: the landscape keyboard, the field still visible above it.
            page.set_viewport_size({"width": 844, "height": 390})
            wait_for_keyboard(page, LANDSCAPE, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "181px", "844px", "209px"])
            page.wait_for_timeout(300)
            screenshot(page, "web-landscape.png")

            # Blur: keyboard gone, the page's own layout back.
            page.evaluate("() => document.activeElement.blur()")
            wait_for_keyboard(page, HIDDEN)
            page.wait_for_function("() => document.body.style.paddingBottom === ''", timeout=5000)
            self.assertEqual(css_keyboard(page), ["0px", "0px", "0px", "0px"])
            self.assertEqual(page.evaluate("() => document.scrollingElement.style.scrollPaddingBottom"), "")
            page.wait_for_function(
                "() => document.querySelector('[data-insetd-emulated-keyboard]').style.display === 'none'",
                timeout=5000)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_hardware_keyboard_shrinks_to_the_accessory_bar(self):
        daemon = Daemon(free_port())
        device = Keyboard(number=40)
        try:
            page = open_demo(daemon)
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            testbed.add(device)
            # After the 200 ms hardware hold-off, only the accessory bar.
            wait_for_keyboard(page, ACCESSORY, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "800px", "390px", "44px"])
            status = LineClient(daemon.socket)
            status.send('{"type":"status","id":1}')
            self.assertEqual(status.next("status")["state"]["hardwareKeyboard"], True)
            status.close()
            state = page.evaluate("() => document.querySelector('[data-insetd-emulated-keyboard]').dataset.state")
            self.assertEqual(state, "accessory-bar")
            page.wait_for_function("() => document.body.style.paddingBottom === '44px'", timeout=5000)
            page.wait_for_timeout(300)
            screenshot(page, "web-hardware-keyboard.png")
            testbed.remove(device)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_daemon_restart_reconnects_and_resyncs(self):
        daemon = Daemon(free_port())
        try:
            page = open_demo(daemon)
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            self.assertEqual(daemon.stop(), 0)
            page.wait_for_function("() => !insetd.connected", timeout=5000)
            self.assertEqual(keyboard(page), HIDDEN, "no daemon, no keyboard")
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            daemon.start()
            # insetd.js comes back by itself and tells the new daemon everything.
            page.wait_for_function("() => insetd.connected", timeout=10000)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            status = LineClient(daemon.socket)
            status.send('{"type":"status","id":1}')
            reply = status.next("status")
            self.assertEqual(reply["views"], 1, "the page's document view is registered again")
            self.assertEqual(reply["clients"], 2, "the page and this client")
            self.assertEqual(reply["state"]["keyboard"], {"x": 0, "y": 508, "width": 390, "height": 336})
            status.close()
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)


class Endpoint(unittest.TestCase):
    """The WebSocket's rules: origins, errors, limits, control commands."""

    def setUp(self):
        self.other_port = free_port()
        self.other_origin = f"http://127.0.0.1:{self.other_port}"

    def serve_other_origin(self, insetd_url):
        """A page of another origin that imports insetd.js from insetd."""
        page_html = f"""<!doctype html><body><input id=f><script type=module>
            import {{ connect }} from "{insetd_url}/insetd.js";
            window.insetd = connect({{ name: "other-origin" }});
            window.refused = false;
            insetd.socket.addEventListener("close", () => {{ window.refused = !insetd.connected; }});
            </script>""".encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page_html)))
                self.end_headers()
                self.wfile.write(page_html)

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", self.other_port), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.shutdown)
        self.addCleanup(server.server_close)

    def test_a_page_of_another_origin_is_refused_unless_allowed(self):
        daemon = Daemon(free_port())
        try:
            self.serve_other_origin(daemon.url)
            page = browser.new_page()
            page.goto(self.other_origin + "/")
            page.wait_for_function("() => window.refused", timeout=5000)
            self.assertFalse(page.evaluate("() => insetd.connected"))
            self.assertIn("origin not allowed", daemon.log_text())
            page.close()
            # The refusal as HTTP: a 403 that says what to configure.
            connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=5)
            connection.request("GET", "/", headers={
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://evil.example"})
            response = connection.getresponse()
            self.assertEqual(response.status, 403)
            self.assertIn("websocket.origins", response.read().decode())
        finally:
            self.assertEqual(daemon.stop(), 0)
        allowed = Daemon(free_port(), origins=[self.other_origin])
        try:
            page = browser.new_page()
            # The other-origin server from above still imports from the old port: serve anew.
            self.other_port = free_port()
            self.other_origin = f"http://127.0.0.1:{self.other_port}"
            allowed.stop()
            allowed = Daemon(allowed.port, origins=[self.other_origin])
            self.serve_other_origin(allowed.url)
            page.goto(self.other_origin + "/")
            page.wait_for_function("() => insetd.connected", timeout=5000)
            page.close()
        finally:
            self.assertEqual(allowed.stop(), 0)

    def run_in_page(self, page, url, script):
        """Runs `script` with a fresh WebSocket `ws` and `received` (its messages)."""
        return page.evaluate(f"""async () => {{
            const ws = new WebSocket({json.dumps(url)});
            const received = [];
            let closed = null;
            ws.onmessage = (e) => received.push(JSON.parse(e.data));
            ws.onclose = (e) => {{ closed = e.code; }};
            await new Promise((resolve) => {{ ws.onopen = resolve; }});
            const until = async (count) => {{
                for (let i = 0; i < 200 && received.length < count && closed === null; i++)
                    await new Promise((r) => setTimeout(r, 10));
            }};
            const closing = async () => {{
                for (let i = 0; i < 300 && closed === null; i++) await new Promise((r) => setTimeout(r, 10));
                return closed;
            }};
            {script}
        }}""")

    BAD = [
        "{not json",
        '{"kind":"focus"}',
        '{"type":"teleport"}',
        '{"type":"focus","field":{"x":0,"y":0,"width":10,"height":10}}',
        '{"type":"unregister","view":"nowhere","id":7}',
    ]

    def test_bad_input_gets_the_socket_errors_and_an_oversized_frame_closes_that_session_only(self):
        daemon = Daemon(free_port())
        try:
            page = browser.new_page()
            page.goto(f"{daemon.url}/insetd.js")
            ws_url = f"ws://127.0.0.1:{daemon.port}/"
            lines = json.dumps(self.BAD)
            over_ws = self.run_in_page(page, ws_url, f"""
                ws.send('{{"type":"status","id":0}}');
                ws.send('{{"type":"hello","version":1,"client":"bad"}}');
                await until(2);
                for (const line of {lines}) ws.send(line);
                await until(2 + {len(self.BAD)});
                return received;""")
            socket_client = LineClient(daemon.socket, hello=False)
            socket_client.send('{"type":"status","id":0}')
            socket_client.send('{"type":"hello","version":1,"client":"bad"}')
            over_socket = [socket_client.read(), socket_client.read()]
            for line in self.BAD:
                socket_client.send(line)
                over_socket.append(socket_client.read())
            self.assertEqual(over_ws[0]["code"], "hello-required")
            self.assertEqual(over_ws[1]["type"], "welcome")
            codes = [m.get("code") for m in over_ws[2:]]
            self.assertEqual(
                codes, ["malformed-json", "unknown-type", "unknown-type", "invalid-field", "unknown-view"], over_ws)
            self.assertEqual(over_ws[-1]["id"], 7)
            # Same codes, same messages, as over the Unix socket (the client ids differ).
            def strip(message):
                text = json.dumps({k: v for k, v in message.items() if k not in ("client", "state")})
                return re.sub(r'"c[0-9]+/', '"C/', re.sub(r' c[0-9]+/', ' C/', text))

            self.assertEqual([strip(m) for m in over_ws], [strip(m) for m in over_socket])

            # An oversized message: line-too-long, close 1009, this session only.
            result = self.run_in_page(page, ws_url, """
                ws.send('{"type":"hello","version":1,"client":"big"}');
                await until(1);
                const other = new WebSocket(ws.url);
                const otherGot = [];
                other.onmessage = (e) => otherGot.push(JSON.parse(e.data));
                await new Promise((r) => { other.onopen = r; });
                other.send('{"type":"hello","version":1,"client":"neighbour"}');
                ws.send('{"type":"register","view":"' + 'x'.repeat(70 * 1024) + '"}');
                const code = await closing();
                other.send('{"type":"status","id":"s"}');
                for (let i = 0; i < 200 && otherGot.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
                return { code, received, otherGot, otherOpen: other.readyState === WebSocket.OPEN };""")
            self.assertEqual(result["code"], 1009)
            self.assertEqual(result["received"][-1].get("code"), "line-too-long", result["received"])
            self.assertTrue(result["otherOpen"])
            self.assertEqual([m["type"] for m in result["otherGot"]], ["welcome", "status"])
            socket_client.send('{"type":"status","id":"still"}')
            self.assertEqual(socket_client.next("status")["id"], "still")
            socket_client.close()

            # Control commands: refused over the WebSocket by default.
            refused = self.run_in_page(page, ws_url, """
                ws.send('{"type":"hello","version":1}');
                ws.send('{"type":"command","command":"show","id":"c"}');
                await until(2);
                return received.find((m) => m.type === "error");""")
            self.assertEqual(refused["code"], "not-authorized")
            self.assertEqual(refused["id"], "c")
            self.assertIn("websocket.control", refused["message"])
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_control_commands_with_websocket_control_true(self):
        daemon = Daemon(free_port(), control=True)
        try:
            page = browser.new_page()
            page.goto(f"{daemon.url}/insetd.js")  # insetd's origin, no insetd.js running
            replies = self.run_in_page(page, f"ws://127.0.0.1:{daemon.port}/", """
                ws.send('{"type":"hello","version":1}');
                ws.send('{"type":"command","command":"show","id":"c"}');
                for (let i = 0; i < 200 && !(received.some((m) => m.type === "keyboard")
                    && received.some((m) => m.type === "ok")); i++)
                    await new Promise((r) => setTimeout(r, 10));
                return received;""")
            self.assertIn({"type": "ok", "id": "c"}, replies)
            shown = next(m for m in replies if m["type"] == "keyboard")
            self.assertEqual(shown["end"], {"x": 0, "y": 508, "width": 390, "height": 336})
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_static_files(self):
        daemon = Daemon(free_port())
        try:
            connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=5)
            connection.request("GET", "/insetd.js")
            response = connection.getresponse()
            body = response.read().decode()
            self.assertEqual(response.status, 200)
            self.assertEqual(response.getheader("Content-Type"), "text/javascript; charset=utf-8")
            self.assertIn("export function connect", body)
            with open(os.path.join(os.path.dirname(__file__), "../../web/insetd.js")) as f:
                self.assertEqual(body, f.read().rstrip("\n"))
            connection.request("GET", "/demo/")
            response = connection.getresponse()
            self.assertEqual(response.status, 200)
            self.assertIn("insetd inspector", response.read().decode())
            connection.request("GET", "/nothing")
            response = connection.getresponse()
            self.assertEqual(response.status, 404)
            response.read()
        finally:
            self.assertEqual(daemon.stop(), 0)


def main():
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
        result = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2).result
    finally:
        browser.close()
        playwright.stop()
        testbed.close()
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()

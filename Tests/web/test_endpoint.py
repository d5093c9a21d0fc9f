"""The WebSocket endpoint's rules, through a real browser: origins, the same
errors as the socket, the size limit, control commands, the static files."""
import http.client
import json
import os
import base64
import re
import socket
import struct
import time
import unittest

import harness
from harness import Daemon, LineClient, free_port, serve_page


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
            </script>"""
        serve_page(self, self.other_port, page_html)

    def test_a_page_of_another_origin_is_refused_unless_allowed(self):
        port = free_port()
        self.serve_other_origin(f"http://127.0.0.1:{port}")
        daemon = Daemon(port)
        try:
            page = harness.browser.new_page()
            page.goto(self.other_origin + "/")
            page.wait_for_function("() => window.refused", timeout=5000)
            self.assertFalse(page.evaluate("() => insetd.connected"))
            self.assertIn("origin not allowed", daemon.log_text())
            page.close()
            # The refusal as HTTP: a 403 that says what to configure.
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/", headers={
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://evil.example"})
            response = connection.getresponse()
            self.assertEqual(response.status, 403)
            self.assertIn("websocket.origins", response.read().decode())
        finally:
            self.assertEqual(daemon.stop(), 0)
        # The same page once its origin is on the allow-list.
        allowed = Daemon(port, origins=[self.other_origin])
        try:
            page = harness.browser.new_page()
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
            page = harness.browser.new_page()
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
            page = harness.browser.new_page()
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

    def raw_websocket(self, daemon):
        """A WebSocket client in bytes (RFC 6455), for frames no browser sends."""
        sock = socket.create_connection(("127.0.0.1", daemon.port), timeout=5)
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{daemon.port}\r\nOrigin: {daemon.url}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(1)
        self.assertTrue(head.startswith(b"HTTP/1.1 101"), head)
        return sock

    @staticmethod
    def send_frame(sock, fin, opcode, payload):
        mask = os.urandom(4)
        assert len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        sock.sendall(bytes([(0x80 if fin else 0) | opcode, 0x80 | len(payload)]) + mask + masked)

    @staticmethod
    def read_frame(sock):
        def exactly(n):
            data = b""
            while len(data) < n:
                chunk = sock.recv(n - len(data))
                if not chunk:
                    raise EOFError("the daemon closed the connection")
                data += chunk
            return data
        first, second = exactly(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", exactly(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", exactly(8))[0]
        return first & 0x0F, exactly(length)

    def test_a_fragmented_message_is_one_message(self):
        daemon = Daemon(free_port())
        try:
            sock = self.raw_websocket(daemon)
            # hello in three fragments, a ping between them (RFC 6455 5.4, 5.5).
            self.send_frame(sock, False, 0x1, b'{"type":"hello",')
            self.send_frame(sock, False, 0x0, b'"version":1,')
            self.send_frame(sock, True, 0x9, b"between")
            self.send_frame(sock, True, 0x0, b'"client":"fragments"}')
            self.assertEqual(self.read_frame(sock), (0xA, b"between"))
            opcode, payload = self.read_frame(sock)
            self.assertEqual(opcode, 0x1)
            self.assertEqual(json.loads(payload)["type"], "welcome")
            # A continuation with no message begun: close with 1002 (protocol error).
            self.send_frame(sock, True, 0x0, b"stray")
            opcode, payload = self.read_frame(sock)
            while opcode == 0x1:  # any state the daemon sent after its welcome
                opcode, payload = self.read_frame(sock)
            self.assertEqual((opcode, struct.unpack(">H", payload[:2])[0]), (0x8, 1002))
            sock.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_page_over_the_connection_cap_backs_off(self):
        # WebSocket sessions count as one user: with a per-user cap of 1, held
        # by a raw session, every page's session is taken and then refused (a
        # framed bye too-many-connections and a close frame 1013). insetd.js
        # retries after 0.25, 0.5, 1, 2 s: opens at about 0, 0.25, 0.75 and
        # 1.75 s (each refusal's round trip on top), so 4 in the first 2.5 s
        # (3 to 5 with timing slack), where a retry that started over at every
        # open would come back every 250 ms (about 10).
        daemon = Daemon(free_port(), extra="server: {max-connections-per-user: 1}\n")
        try:
            holder = self.raw_websocket(daemon)
            self.send_frame(holder, True, 0x1, b'{"type":"hello","version":1}')
            self.assertEqual(json.loads(self.read_frame(holder)[1])["type"], "welcome")
            page = harness.browser.new_page()
            page.add_init_script("""
                window.opens = 0;
                window.closes = [];
                const Native = window.WebSocket;
                window.WebSocket = class extends Native {
                    constructor(...args) {
                        super(...args);
                        window.opens++;
                        this.addEventListener("message", (e) => window.closes.push(JSON.parse(e.data)));
                        this.addEventListener("close", (e) => window.closes.push(e.code));
                    }
                };""")
            page.goto(f"{daemon.url}/demo/")
            time.sleep(2.5)
            opens = page.evaluate("() => window.opens")
            seen = page.evaluate("() => window.closes")
            self.assertGreaterEqual(opens, 3)
            self.assertLessEqual(opens, 5)
            self.assertIn({"type": "bye", "reason": "too-many-connections"}, seen)
            self.assertEqual({code for code in seen if isinstance(code, int)}, {1013})
            self.assertFalse(page.evaluate("() => insetd.connected"))
            page.close()
            holder.close()
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
            # The parts insetd.js imports from beside it, each as in the tree.
            for part in ["insetd-geometry.js", "insetd-listeners.js", "insetd-panel.js", "insetd-view.js", "insetd-viewport.js"]:
                connection.request("GET", f"/{part}")
                response = connection.getresponse()
                body = response.read().decode()
                self.assertEqual((response.status, response.getheader("Access-Control-Allow-Origin")), (200, "*"), part)
                with open(os.path.join(os.path.dirname(__file__), "../../web", part)) as f:
                    self.assertEqual(body, f.read().rstrip("\n"), part)
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

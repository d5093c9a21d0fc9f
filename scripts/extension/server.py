"""scripts/extension-test's page server: serves the pages (scripts/extension/
pages.py) on 127.0.0.1 and, for cross-origin frames, the same server as
localhost; trades each page's report for the test's next command."""
import http.server
import json
import threading
import time


class PageServer:
    """The pages have no way to the test but HTTP: each page's probe posts
    its report (and the frames it drew) and gets the test's latest command
    back; the test waits here for reports and hands out the frames."""

    def __init__(self, render, frame_html):
        self.render, self.frame_html = render, frame_html.encode()
        self.lock = threading.Condition()
        self.reports = {}  # page -> (time, report)
        self.frames = []
        self.seq = 0
        self.command_text = None
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def reply(self, body, kind):
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.startswith("/frame/"):
                    return self.reply(server.frame_html, "text/html; charset=utf-8")
                if not self.path.startswith("/page/"):
                    self.send_error(404)
                    return
                name = self.path.split("/page/", 1)[-1].split("?")[0]
                self.reply(server.render(name, server.port).encode(), "text/html; charset=utf-8")

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with server.lock:
                    try:
                        report = json.loads(body)
                        server.frames += report.pop("frames", [])
                        server.reports[report["page"]] = (time.time(), report)
                    except (ValueError, KeyError):
                        pass
                    answer = json.dumps({"seq": server.seq, "command": server.command_text}).encode()
                    server.lock.notify_all()
                self.reply(answer, "application/json")

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def url(self, name):
        # The page with insetd.js is the one origin insetd allows besides the
        # extension's: the hostile page's own WebSocket is refused.
        host = "localhost" if name == "insetd" else "127.0.0.1"
        return f"http://{host}:{self.port}/page/{name}"

    def command(self, text):
        with self.lock:
            self.seq += 1
            self.command_text = text

    def wait_report(self, name, timeout=2.0, check=None):
        """`name`'s next report (sent after now) that passes `check`, or None."""
        after, deadline = time.time(), time.time() + timeout
        with self.lock:
            while True:
                at, report = self.reports.get(name, (0, None))
                if at > after and (check is None or check(report)):
                    return report
                left = deadline - time.time()
                if left <= 0:
                    return None
                self.lock.wait(left)

    def last(self, name):
        with self.lock:
            return self.reports.get(name, (0, None))[1]

    def take_frames(self):
        with self.lock:
            frames, self.frames = self.frames, []
            return frames

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

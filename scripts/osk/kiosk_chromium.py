"""scripts/kiosk-test's page and its Chromium: the kiosk page written against
docs/WEB.md alone (a long form in one scroller, insetd.js over the WebSocket,
a log of every frame it draws), the local server that serves it and trades
its reports for the test's commands (the Qt driver speaks the same to it), and
the app adapter that starts Debian's Chromium on it, full screen or in an app
window.
"""
import http.server
import json
import shutil
import threading
import time
from urllib.parse import parse_qs, urlsplit

from frame_rule import chromium_frame

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Check in</title>
<style>
  html, body { margin: 0; background: #fff; }
  body { font: 18px sans-serif; }
  form { display: grid; gap: 14px; padding: 16px 24px; }
  label { display: grid; gap: 4px; }
  input { font: inherit; padding: 10px; border: 2px solid #888; }
  #target { background: #ff00ff; border-color: #ff00ff; color: #fff; outline: none; }
</style></head>
<body>
<form>__FIELDS__</form>
<script type="module">
  import { connect } from "http://127.0.0.1:__WS__/insetd.js";
  // A second window of the page (--transitions' focus to another window) is
  // "?...&window=b": its own title, and its own reports and commands.
  const windowName = new URLSearchParams(location.search).get("window") ?? "a";
  if (windowName !== "a") document.title = `Check in (${windowName})`;
  const kb = connect({ name: `kiosk-test-${windowName}` });
  window.kb = kb;
  const target = document.getElementById("target");
  let seq = 0, focusedAt = 0;
  // Every frame the page draws: when (ms since the epoch, as the test's clock),
  // the viewport's height, insetd.js's padding, kb.boundingRect's height, and
  // the field's bottom in the viewport. The test judges each one (issue 35).
  // Sampled in the page's own animation-frame callback, as any page that
  // draws by frame sees it: the frame's viewport (its resize already fired)
  // and the padding as it stands then.
  let frames = [];
  // The field the judge follows: the focused one (--transitions moves the
  // focus between fields), the test's own field otherwise.
  const field = () => (document.activeElement?.tagName === "INPUT" ? document.activeElement : target);
  function frame(now) {
    const f = field().getBoundingClientRect();
    const view = kb.views.get("document");
    frames.push([performance.timeOrigin + now, innerHeight, view ? view.extraBottom : 0, kb.boundingRect.height, f.y + f.height,
      outerHeight, screenY, innerWidth]);
    if (frames.length > 4000) frames = frames.slice(-2000);
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);
  function report() {
    const f = field().getBoundingClientRect();
    const k = kb.boundingRect;
    const view = kb.views.get("document");
    return { seq, focusedAt, connected: kb.connected, active: document.activeElement?.id ?? null,
      field: { x: f.x, y: f.y, width: f.width, height: f.height },
      innerWidth, innerHeight, outerWidth, outerHeight, screenX, screenY,
      screen: { width: screen.width, height: screen.height },
      keyboard: { x: k.x, y: k.y, width: k.width, height: k.height },
      cssHeight: document.documentElement.style.getPropertyValue("--insetd-keyboard-height"),
      padding: view ? view.extraBottom : null, animating: view ? view.animating : null,
      window: kb.window, scrollY, frames: frames.splice(0),
      // The last messages both ways (geometry only), for a failure's message.
      log: kb.log.slice(-14).map((e) => `${e.direction} ${JSON.stringify(e.message).slice(0, 160)}`) };
  }
  async function poll() {
    try {
      const answer = await (await fetch(`/poll?window=${windowName}`, { method: "POST", body: JSON.stringify(report()) })).json();
      if (answer.seq > seq) {
        seq = answer.seq;
        if (answer.command === "focus") { focusedAt = Date.now(); target.focus(); }
        if (answer.command === "blur") document.activeElement?.blur();
        if (answer.command?.startsWith("focus:")) document.getElementById(answer.command.slice(6)).focus();
      }
    } catch (error) { /* the test's server is gone: the run is over */ }
    setTimeout(poll, 15);
  }
  poll();
</script>
</body></html>
"""


def page_html(ws_port):
    fields = []
    for i in range(1, 31):
        ident = {9: "target", 5: "number"}.get(i, f"f{i}")
        # Field 5 asks for digits: squeekboard answers with its number layout.
        kind = ' inputmode="numeric"' if i == 5 else ""
        fields.append(f'<label>Field {i} <input id="{ident}"{kind} autocomplete="off"></label>')
    return PAGE.replace("__FIELDS__", "\n".join(fields)).replace("__WS__", str(ws_port))


class PageWindow:
    """One window's side of the page server: its last report, its frames not
    yet taken, and the test's last command to it."""

    def __init__(self):
        self.report = None
        self.reported_at = 0.0
        self.frames = []
        self.seq = 0
        self.command = None


class PageServer:
    """Serves the page and trades the app's report (the page's, or the Qt
    driver's at /poll) for the next command; each window of the page
    (`?window=NAME` on /poll; "a" without) has its own (`PageWindow`). The
    methods speak to window "a" unless told another."""

    def __init__(self, ws_port):
        self.html = page_html(ws_port).encode()
        self.lock = threading.Condition()
        self.windows = {"a": PageWindow()}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(server.html)))
                self.end_headers()
                self.wfile.write(server.html)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                name = parse_qs(urlsplit(self.path).query).get("window", ["a"])[0]
                with server.lock:
                    window = server.windows.setdefault(name, PageWindow())
                    try:
                        window.report = json.loads(body)
                        window.frames += window.report.pop("frames", [])
                        window.reported_at = time.time()
                    except ValueError:
                        pass
                    answer = json.dumps({"seq": window.seq, "command": window.command}).encode()
                    server.lock.notify_all()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def report(self):
        """Window "a"'s last report (None before its first)."""
        with self.lock:
            return self.windows["a"].report

    def send(self, command, window="a"):
        with self.lock:
            w = self.windows.setdefault(window, PageWindow())
            w.seq += 1
            w.command = command
            return w.seq

    def fresh_report(self, after=None, window="a"):
        """The next report the page sends (after `after`, a time.time())."""
        after = after or time.time()
        with self.lock:
            w = self.windows.setdefault(window, PageWindow())
            self.lock.wait_for(lambda: w.reported_at > after, timeout=2)
            return w.report

    def take_frames(self, window="a"):
        """The frames the page drew since the last call, oldest first."""
        with self.lock:
            w = self.windows.setdefault(window, PageWindow())
            frames, w.frames = w.frames, []
            return frames

    def reset(self):
        with self.lock:
            self.windows = {"a": PageWindow()}

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Chromium:
    """The app adapter for Debian's Chromium showing the kiosk page (insetd.js
    over the WebSocket): --kiosk for full screen, --app=URL for a window.
    An app adapter (this, scripts/osk/kiosk_qt.py's Qt) starts the app in a
    run's session, talking to the run's PageServer, and turns its frame log
    into the judge's records."""

    name, title, wm_class = "chromium", "Check in", "chrom"
    # Where --transitions moves the focus from field 9: down, up, and to field 5,
    # which asks for digits (squeekboard's number layout).
    other_fields = ("f24", "f3", "number")
    frame = staticmethod(chromium_frame)
    needs = ["/usr/bin/chromium"]

    def prepare(self):
        pass

    def start(self, run, window="a"):
        """(process, clean-up) of a fresh Chromium on the page (`window`: the
        page's window name, for a second window with a profile of its own)."""
        suffix = "" if window == "a" else f"-{window}"
        url = f"http://127.0.0.1:{run.page.port}/?{run.osk}-{run.mode}" + ("" if window == "a" else f"&window={window}")
        mode = ["--kiosk", url] if run.mode == "kiosk" else [f"--app={url}"]
        if run.mode == "app" and run.session.compositor in ("kwin", "mir", "gnome"):
            mode.append("--start-maximized")  # KWin, Mir and GNOME Shell leave a new window floating
        profile = f"{run.session.dir}/chrome-{run.osk}-{run.mode}{suffix}"
        process = run.session.spawn(
            "chromium", "chromium", "--ozone-platform=wayland", "--no-first-run", "--no-default-browser-check",
            f"--user-data-dir={profile}", "--no-sandbox", "--disable-gpu", "--password-store=basic", *mode,
            logname=f"chromium-{run.osk}-{run.mode}{suffix}")
        return process, lambda: shutil.rmtree(profile, ignore_errors=True)

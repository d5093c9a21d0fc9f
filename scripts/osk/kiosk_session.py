"""The real-stack session of scripts/kiosk-test (and scripts/extension-test):
a headless compositor as an unprivileged uid inside dbus-run-session
(scripts/osk/*-session.sh), what the test asks it (the keyboard's zone, the
app's window, screenshots), and the readings of a screenshot and of insetd
that the checks use. Its processes are a Processes' (scripts/osk/processes.py).
"""
import json
import os
import socket
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UID = 65534
OUTPUT = (540, 960)


class Session:
    """One headless compositor session of a run, as uid UID: started once,
    asked by every cycle where the keyboard and the app's window are (by IPC
    on sway, by an adapter on KWin, Mir and GNOME), ended by the run's
    Processes with everything it started."""

    def __init__(self, directory, processes, compositor="sway"):
        self.dir = directory
        self.processes = processes
        self.compositor = compositor
        # KWin and Mir answer the test's questions through an adapter each.
        self.adapter = None
        # The app's window, as the compositors' adapters find it: its title
        # (Mir's trace) and its class (KWin); the app adapter sets them.
        self.app_title, self.app_class = "Check in", "chrom"
        if compositor in ("kwin", "mir", "gnome", "phosh"):
            if compositor == "kwin":
                from kiosk_kwin import KWin
                self.adapter = KWin(self)
            elif compositor == "gnome":
                from kiosk_gnome import Gnome
                self.adapter = Gnome(self)
            elif compositor == "phosh":
                from kiosk_phosh import Phosh
                self.adapter = Phosh(self)
            else:
                from kiosk_mir import Mir
                self.adapter = Mir(self)
        self.kwin = self.adapter if compositor == "kwin" else None
        # The output as it is now (--transitions turns it).
        self.output = OUTPUT
        self.gnome = self.adapter if compositor == "gnome" else None

    def start(self):
        for sub in ("", "/xdg", "/config"):
            os.makedirs(self.dir + sub, mode=0o700, exist_ok=True)
            os.chown(self.dir + sub, UID, UID)
        env = ["env", "-i", "PATH=/usr/bin:/bin", f"HOME={self.dir}", f"XDG_CONFIG_HOME={self.dir}/config",
               f"XDG_RUNTIME_DIR={self.dir}/xdg", f"OSK_SESSION_DIR={self.dir}",
               f"OSK_OUTPUT={OUTPUT[0]}x{OUTPUT[1]}",
               # A kiosk's sway: windows without borders or title bars.
               "OSK_SWAY_CONFIG=default_border none\ndefault_floating_border none"]
        # A test run's mark (scripts/leftovers checks nothing outlived the run).
        if os.environ.get("INSETD_TEST_RUN"):
            env.append(f"INSETD_TEST_RUN={os.environ['INSETD_TEST_RUN']}")
        script = {"sway": "session.sh", "phoc": "phoc-session.sh", "kwin": "kwin-session.sh",
                  "mir": "mir-session.sh", "gnome": "gnome-session.sh", "phosh": "phosh-session.sh"}[self.compositor]
        # Mir runs on Xvfb: a private /tmp/.X11-unix (as root, before the uid
        # drops), and a display number of the run's own.
        private_x = []
        if self.compositor == "mir":
            env.append(f"OSK_X_DISPLAY={100 + os.getpid() % 800}")
            private_x = ["unshare", "-m", "sh", "-c", 'mount -t tmpfs -o mode=1777 none /tmp/.X11-unix && exec "$@"', "sh"]
        self.process = self.processes.start(
            "session", private_x + ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups"] + env
            + ["dbus-run-session", "--", f"{ROOT}/scripts/osk/{script}"], f"{self.dir}/session.log")
        deadline = time.time() + (45 if self.compositor == "gnome" else 15)  # the Shell takes 8-10 s on 2 busy cores
        while not os.path.exists(f"{self.dir}/env"):
            if time.time() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"the {self.compositor} session did not start: {read(self.dir + '/session.log')}")
            time.sleep(0.05)

    def argv(self, *command):
        return [f"{ROOT}/scripts/osk/as-session", self.dir] + list(command)

    def run(self, *command, timeout=5):
        result = subprocess.run(self.argv(*command), capture_output=True, timeout=timeout)
        return result.returncode, result.stdout

    def spawn(self, name, *command, logname=None):
        return self.processes.start(name, self.argv(*command), f"{self.dir}/{logname or name}.log")

    def workspace(self, flag):
        """sway's first workspace with `flag` set ("visible", "focused"); None
        elsewhere, or if sway cannot say."""
        if self.compositor != "sway":
            return None
        code, out = self.run("swaymsg", "-r", "-t", "get_workspaces")
        found = [w for w in json.loads(out) if w.get(flag)] if code == 0 else []
        return found[0] if found else None

    def workspace_rect(self):
        visible = self.workspace("visible")
        return visible["rect"] if visible else None

    def current_workspace(self):
        """sway's focused workspace's name."""
        focused = self.workspace("focused")
        return focused["name"] if focused else None

    def slides_keyboard(self):
        """Whether the compositor slides the keyboard in and out and can say
        what of it is on the screen at each moment (GNOME Shell): then that
        (`drawn_zone`) is the frame judge's truth."""
        return hasattr(self.adapter, "drawn_zone")

    def drawn_zone(self):
        """What of the keyboard is on the screen now (None: unreadable), where
        `slides_keyboard`."""
        return self.adapter.drawn_zone()

    def keyboard_zone(self):
        """The bottom exclusive zone's height (the OSK's), from sway's usable area."""
        if self.adapter:
            return self.adapter.keyboard_zone()
        rect = self.workspace_rect()
        return None if rect is None else self.output[1] - (rect["y"] + rect["height"])

    def window_mode(self, mode):
        """The window mode of the run that asks next (Phosh lays out by it)."""
        if hasattr(self.adapter, "mode"):
            self.adapter.mode = mode

    def keyboard_bottom(self):
        """The keyboard's bottom edge on the screen: the output's, but above
        Phosh's home bar in an app window."""
        bottom = self.adapter.bottom() if hasattr(self.adapter, "bottom") else None
        return OUTPUT[1] if bottom is None else bottom

    def unseen_y(self):
        """How far down the compositor put the window where no client can
        know it (Chromium and Qt on Wayland know no position): Phosh's top
        bar; 0 where the window is at the output's top or the app is told."""
        top = self.adapter.top() if hasattr(self.adapter, "top") else None
        return top or 0

    def squeekboard_visible(self):
        """squeekboard's `Visible`; False while its name is not on the bus (it
        is not running, so it draws nothing); None when the bus cannot say."""
        result = subprocess.run(self.argv("busctl", "--user", "get-property", "sm.puri.OSK0", "/sm/puri/OSK0",
                                          "sm.puri.OSK0", "Visible"), capture_output=True, timeout=5)
        if result.returncode == 0:
            return result.stdout.strip() == b"b true"
        return False if b"was not provided by any" in result.stderr else None

    def window_rect(self, pid_hint=None):
        """Chromium's window on the screen, as sway placed it (None elsewhere)."""
        if self.adapter:
            return self.adapter.window_rect()
        if self.compositor != "sway":
            return None
        code, out = self.run("swaymsg", "-r", "-t", "get_tree")
        if code != 0:
            return None
        found = []

        def walk(node):
            if node.get("type") in ("con", "floating_con") and node.get("pid") and node.get("name") is not None:
                found.append(node)
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                walk(child)
        walk(json.loads(out))
        return found[0]["rect"] if found else None

    def screenshot(self, path, kind="png"):
        if self.kwin or self.gnome:
            ppm = self.adapter.screenshot_ppm()
            if path:
                with open(path, "wb") as f:
                    f.write(ppm)
            return ppm
        code, out = self.run("grim", "-t", kind, "-", timeout=10)
        if code != 0:
            raise RuntimeError("grim failed")
        if path:
            with open(path, "wb") as f:
                f.write(out)
        return out


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()[-3000:]
    except OSError:
        return ""


def parse_ppm(data):
    """(width, height, rgb bytes) of a binary PPM, as grim -t ppm writes it."""
    parts, i = [], 0
    while len(parts) < 4:
        while data[i:i + 1].isspace():
            i += 1
        j = i
        while not data[j:j + 1].isspace():
            j += 1
        parts.append(data[i:j])
        i = j
    assert parts[0] == b"P6" and parts[3] == b"255", parts
    return int(parts[1]), int(parts[2]), data[i + 1:]


def magenta_rows(ppm):
    """The first and last rows with the field's magenta, or None."""
    width, height, pixels = parse_ppm(ppm)
    rows = []
    for y in range(height):
        row = pixels[y * width * 3:(y + 1) * width * 3]
        if row.count(b"\xff\x00\xff") >= 20:
            rows.append(y)
    return (rows[0], rows[-1]) if rows else None


def white_fraction(ppm, top, bottom):
    """How much of rows top..<bottom is the page's pure white (the OSKs draw none)."""
    width, height, pixels = parse_ppm(ppm)
    top, bottom = max(0, top), min(height, bottom)
    if bottom <= top:
        return None
    count = white = 0
    for offset in range(top * width * 3, bottom * width * 3, 3 * 13):
        count += 1
        white += pixels[offset:offset + 3] == b"\xff\xff\xff"
    return white / count


def insetd_status(path, client="kiosk-test"):
    """insetd's answer to `status` (its state, clients and views), over its
    Unix socket; None when it closes first."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(3)
        s.connect(path)
        s.sendall(b'{"type":"hello","version":1,"client":"%s"}\n{"type":"status","id":1}\n' % client.encode())
        buffer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return None
            buffer += chunk
            for line in buffer.split(b"\n")[:-1]:
                message = json.loads(line)
                if message.get("type") == "status":
                    return message


def insetd_state(path):
    """insetd's `status` state, over its Unix socket."""
    status = insetd_status(path)
    return status and status["state"]

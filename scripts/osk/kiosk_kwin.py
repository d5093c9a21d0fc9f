"""scripts/kiosk-test's KWin adapter (--compositor kwin): what the test asks a
compositor (the keyboard on the screen, where the window is, a screenshot),
answered by KWin 5.27 with maliit-keyboard (scripts/osk/kwin-session.sh).

KWin has no usable-area IPC like sway's: the keyboard on the screen is KWin's
`visible` (org.kde.kwin.VirtualKeyboard) together with the rectangle maliit
last reported to KWin (`keyboard is reporting <x y w h>: < 0 672 540 288 >` in
KWin's log, the session's kwin.log). Windows come from a KWin script run over
D-Bus (/Scripting loadScript, start, unloadScript) whose print() lines land in
the same log, marked with a sequence number so that each answer is the
script's own. Screenshots are spectacle's PNG, turned into the PPM the test's
pixel checks read.
"""
import json
import os
import re
import struct
import time
import zlib

VK = ("org.kde.KWin", "/VirtualKeyboard", "org.kde.kwin.VirtualKeyboard")
MALIIT = re.compile(rb"keyboard is reporting <x y w h>: < (-?\d+) (-?\d+) (\d+) (\d+) >")
WINDOWS_JS = """
const out = [];
for (const w of workspace.clientList()) {
    const g = w.frameGeometry;
    out.push({caption: String(w.caption), cls: String(w.resourceClass), x: g.x, y: g.y,
              width: g.width, height: g.height, fullScreen: w.fullScreen});
}
print("KIOSKTEST-WINDOWS __SEQ__ " + JSON.stringify(out));
"""
# Every window's frame as KWin changes it, with KWin's clock (ms since the
# epoch, the test's clock too): where a floating window was at each frame.
GEOMETRY_JS = """
function log(w) {
    const g = w.frameGeometry;
    print("KIOSKTEST-GEOM " + Date.now() + " " + String(w.resourceClass) + " " + g.x + " " + g.y + " " + g.width + " " + g.height);
}
function watch(w) { w.frameGeometryChanged.connect(function () { log(w); }); log(w); }
for (const w of workspace.clientList()) watch(w);
workspace.clientAdded.connect(watch);
"""
# Moves the app's window (a normal window whose class has __CLASS__) to y __Y__.
MOVE_JS = """
for (const w of workspace.clientList()) {
    if (w.normalWindow && String(w.resourceClass).indexOf("__CLASS__") >= 0) {
        const g = w.frameGeometry;
        w.frameGeometry = {x: g.x, y: __Y__, width: g.width, height: g.height};
    }
}
"""
GEOM = re.compile(rb"KIOSKTEST-GEOM (\d+) (\S+) (-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+)")


class KWin:
    """The test's questions to KWin, for one session (Session.run runs a
    command as the session's user)."""

    def __init__(self, session):
        self.session = session
        self.log = os.path.join(session.dir, "kwin.log")
        self.seq = 0

    def visible(self):
        code, out = self.session.run("busctl", "--user", "get-property", *VK, "visible")
        return None if code != 0 else out.strip() == b"b true"

    def maliit_frame(self):
        """maliit's last reported keyboard rectangle (x, y, w, h), or None.

        On a blur maliit is deactivated and reports its 36 px word row; on
        the next focus it is activated and reports its whole keyboard a
        moment later; KWin can say `visible` in between. So a report counts
        only after maliit's last activation, with no deactivation since:
        None until then (the keyboard of this focus is not known yet)."""
        try:
            with open(self.log, "rb") as f:
                data = f.read()[-200000:]
        except OSError:
            return None
        found = list(MALIIT.finditer(data))
        activated = data.rfind(b"zwp_input_method_v1_activate")
        if not found or data.rfind(b"zwp_input_method_v1_deactivate") > activated or activated > found[-1].start():
            return None
        return tuple(int(v) for v in found[-1].groups())

    def keyboard_zone(self):
        """The keyboard's height on the screen: maliit's rectangle while KWin
        says it is visible, 0 once it says it is not (None: cannot tell)."""
        visible = self.visible()
        if visible is None:
            return None
        frame = self.maliit_frame()
        return (frame[3] if frame else None) if visible else 0

    SCRIPTING = ["busctl", "--user", "call", "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting"]

    def script(self, text, keep=False):
        """Runs a KWin script (its print() lines land in the log); unloaded
        at once unless `keep` (then it lives with the session's KWin, or
        until `unload`)."""
        self.seq += 1
        name = f"kiosktest{self.seq}"
        path = os.path.join(self.session.dir, f"{name}.js")
        with open(path, "w") as f:
            f.write(text.replace("__SEQ__", str(self.seq)))
        os.chmod(path, 0o644)
        self.session.run(*self.SCRIPTING, "loadScript", "ss", path, name)
        self.session.run(*self.SCRIPTING, "start")
        if not keep:
            time.sleep(0.2)
            self.unload(name)
        return name

    def unload(self, name):
        self.session.run(*self.SCRIPTING, "unloadScript", "s", name)
        os.unlink(os.path.join(self.session.dir, f"{name}.js"))

    def watch_geometry(self):
        """From now on every window's frame change is in the log (`track`)."""
        self.script(GEOMETRY_JS, keep=True)

    def move_app_window(self, y):
        self.script(MOVE_JS.replace("__CLASS__", self.session.app_class).replace("__Y__", str(int(y))))

    def track(self):
        """The app window's frames as KWin set them: [(seconds, x, y, w, h)]."""
        with open(self.log, "rb") as f:
            data = f.read()
        cls = self.session.app_class.encode()
        return [(int(m.group(1)) / 1000, *(float(v) for v in m.groups()[2:]))
                for m in GEOM.finditer(data) if cls in m.group(2)]

    def windows(self):
        """Every window KWin manages, from a script's print() in its log."""
        name = self.script(WINDOWS_JS, keep=True)
        marker = f"KIOSKTEST-WINDOWS {self.seq} ".encode()
        answer = None
        deadline = time.time() + 2
        while answer is None and time.time() < deadline:
            with open(self.log, "rb") as f:
                for line in f.read()[-200000:].splitlines():
                    if marker in line:
                        answer = json.loads(line.split(marker, 1)[1])
            if answer is None:
                time.sleep(0.02)
        self.unload(name)
        return answer

    def window_rect(self):
        """The app's window frame (KWin draws no decoration here: no breeze)."""
        found = [w for w in self.windows() or [] if self.session.app_class in w["cls"]]
        return {k: found[0][k] for k in ("x", "y", "width", "height")} if found else None

    def screenshot_ppm(self):
        return png_screenshot(self.session, "spectacle", "env", "QT_QPA_PLATFORM=wayland", "spectacle", "-b", "-n",
                              "-f", "-o")


def png_screenshot(session, tool, *argv):
    """A screenshot taken in the session by `argv` + a PNG path (the tool's
    name for errors), as a binary PPM; the PNG is removed."""
    path = os.path.join(session.dir, "shot.png")
    code, _ = session.run(*argv, path, timeout=15)
    if code != 0 or not os.path.exists(path):
        raise RuntimeError(f"{tool} failed")
    with open(path, "rb") as f:
        data = f.read()
    os.unlink(path)
    return png_to_ppm(data)


def png_to_ppm(data):
    """An 8-bit RGB or RGBA, non-interlaced PNG (spectacle's) as a binary PPM."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    i, idat, width = 8, b"", 0
    while i < len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        i += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    previous = bytearray(stride)
    out = bytearray()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for x in range(bpp, stride):
                line[x] = (line[x] + line[x - bpp]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, previous))
        elif kind == 3:
            for x in range(stride):
                left = line[x - bpp] if x >= bpp else 0
                line[x] = (line[x] + ((left + previous[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b, c = previous[x], previous[x - bpp] if x >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous = line
        out += line if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3)
    return b"P6\n%d %d\n255\n" % (width, height) + bytes(out)

"""scripts/kiosk-test's Phosh adapter (--compositor phosh): what the test asks
a compositor (the keyboard on the screen, where the window is), answered for
Phosh 0.24 on phoc 0.24 with squeekboard (scripts/osk/phosh-session.sh).

phoc has no IPC and no client of its foreign-toplevel carries geometry, so
the layout is read from the shell's and the OSK's own Wayland logs (both run
with WAYLAND_DEBUG=client): Phosh's top bar and home bar are layer surfaces
whose exclusive zones (phoc's draggable-layer-surface `set_exclusive`: 32 and
40 px) phoc takes off every window, and squeekboard's layer surface says its
height (`set_size(0, 172)`). phoc maximizes an app window into what is left:
from under the top bar down to the keyboard, which sits above the home bar.
A full-screen window covers the output and neither bar nor keyboard is drawn
over it (phoc 0.24 shows the top layer over a full-screen view only while the
shell has it revealed). Screenshots are grim's, as on phoc.
"""
import os
import re

from kiosk_session import OUTPUT, parse_ppm

LAYER = re.compile(r'zwlr_layer_shell_v1@\d+\.get_layer_surface\(new id zwlr_layer_surface_v1@(\d+), .*"([^"]*)"\)')
DRAGGABLE = re.compile(r"get_draggable_layer_surface\(new id zphoc_draggable_layer_surface_v1@(\d+), "
                       r"zwlr_layer_surface_v1@(\d+)\)")
EXCLUSIVE = re.compile(r"zphoc_draggable_layer_surface_v1@(\d+)\.set_exclusive\((-?\d+)\)")
SIZE = re.compile(r"zwlr_layer_surface_v1@\d+\.set_size\((\d+), (\d+)\)")
# squeekboard's background between its keys (its default theme under Phosh),
# seen in its screenshots here; neither app draws it.
SQUEEKBOARD_GREY = b"\xde\xde\xde"


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


class Phosh:
    """The test's questions to Phosh, for one session; `mode` is the window
    mode of the run asking (the test's `kiosk` or `app`)."""

    def __init__(self, session):
        self.session = session
        self.mode = "app"

    def bars(self):
        """{namespace: exclusive zone} of Phosh's draggable bars, from its log
        ("phosh top-panel" and "phosh home")."""
        log = read(os.path.join(self.session.dir, "phosh.log"))
        namespaces = dict(LAYER.findall(log))  # layer surface id -> namespace
        draggables = {d: namespaces.get(s) for d, s in DRAGGABLE.findall(log)}
        zones = {}
        for draggable, zone in EXCLUSIVE.findall(log):
            if draggables.get(draggable):
                zones[draggables[draggable]] = int(zone)
        return zones

    def top(self):
        return 0 if self.mode == "kiosk" else self.bars().get("phosh top-panel")

    def bottom(self):
        """Where the keyboard's bottom edge is: above the home bar in an app window."""
        home = self.bars().get("phosh home")
        return None if home is None else OUTPUT[1] - (0 if self.mode == "kiosk" else home)

    def keyboard_height(self):
        """squeekboard's layer surface's height (its last set_size), None before it made one."""
        sizes = SIZE.findall(read(os.path.join(self.session.dir, "squeekboard.log")))
        return int(sizes[-1][1]) if sizes else None

    def keyboard_zone(self):
        """squeekboard's height on the screen while it says it is Visible, 0
        once it says it is not (None: cannot tell)."""
        visible = self.session.squeekboard_visible()
        if visible is None:
            return None
        return self.keyboard_height() if visible else 0

    def visible(self):
        return self.session.squeekboard_visible()

    def window_rect(self):
        """The app's window as phoc lays it out: full screen, or maximized
        between the top bar and the keyboard (or the home bar)."""
        if self.mode == "kiosk":
            return {"x": 0, "y": 0, "width": OUTPUT[0], "height": OUTPUT[1]}
        top, bottom, zone = self.top(), self.bottom(), self.keyboard_zone()
        if top is None or bottom is None or zone is None:
            return None
        return {"x": 0, "y": top, "width": OUTPUT[0], "height": bottom - zone - top}

    @staticmethod
    def keyboard_drawn(ppm, top, height):
        """Whether squeekboard is on the screen in rows top..top+height: its
        grey fills at least a third of them (the Qt app's grey background
        is not white, so the page's white cannot tell)."""
        width, rows, pixels = parse_ppm(ppm)
        top, bottom = max(0, top + 4), min(rows, top + height - 4)
        if bottom <= top:
            return False
        samples = [pixels[o:o + 3] for o in range(top * width * 3, bottom * width * 3, 3 * 13)]
        return sum(p == SQUEEKBOARD_GREY for p in samples) >= len(samples) / 3

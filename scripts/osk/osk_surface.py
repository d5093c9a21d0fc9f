"""When the OSK's keyboard was drawn, read from the OSK's own Wayland log.

scripts/kiosk-test starts squeekboard and wvkbd with WAYLAND_DEBUG=client:
libwayland then writes every request the OSK makes, stamped with the wall
clock (libwayland 1.21: microseconds since the epoch, truncated to 32 bits,
printed as milliseconds). The keyboard is drawn with the first commit of a
buffer to its layer surface's wl_surface after that surface was made: the
compositor shows it at its next frame. The exclusive zone comes with the
surface's first commit, before any buffer (squeekboard: 80 ms before it drew,
seen here), which is why the compositor shrinks a window before the keyboard
is on the screen. A destroyed layer surface (or a null buffer) is the
keyboard gone.

Only the OSK's requests are read, and the test types nothing: the log holds
no keystroke (it is in the run's directory, removed with it).
"""
import re
import time

LINE = re.compile(r"^\[\s*(\d+)\.(\d{3})\]\s+->\s+(\w+)@(\d+)\.(\w+)\((.*)\)\s*$")
WRAP = 2 ** 32  # the stamp's microseconds wrap here (about 71.6 minutes)


def wall_time(stamp_us, reference):
    """The stamp as seconds since the epoch: the latest time at or before
    `reference` (a wall-clock time after the line was written) that has it."""
    now_us = int(reference * 1e6)
    candidate = now_us - (now_us % WRAP) + stamp_us
    if candidate > now_us:
        candidate -= WRAP
    return candidate / 1e6


def drawn_times(path, reference):
    """The times (seconds since the epoch) the OSK drew its keyboard, in order."""
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
    except OSError:
        return []
    layer_surfaces = set()  # wl_surface ids that are layer surfaces now
    attached, shown, drawn = set(), set(), []
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        stamp_us = int(m.group(1)) * 1000 + int(m.group(2))
        interface, oid, request, args = m.group(3), m.group(4), m.group(5), m.group(6)
        if interface == "zwlr_layer_shell_v1" and request == "get_layer_surface":
            surface = re.search(r"wl_surface@(\d+)", args)
            if surface:
                layer_surfaces.add(surface.group(1))
                attached.discard(surface.group(1))
                shown.discard(surface.group(1))
        elif interface == "wl_surface" and oid in layer_surfaces:
            if request == "attach" and args.startswith("nil"):
                attached.discard(oid)
                shown.discard(oid)
            elif request == "attach":
                attached.add(oid)
            elif request == "commit" and oid in attached and oid not in shown:
                shown.add(oid)
                drawn.append(wall_time(stamp_us, reference))
            elif request == "destroy":
                layer_surfaces.discard(oid)
                attached.discard(oid)
                shown.discard(oid)
    return drawn


def drawn_for(path, since, up_at, until):
    """When the OSK (its Wayland log at `path`) drew the keyboard the test saw
    up at `up_at`: its last drawing in [since, until) by then, since a show
    squeekboard dropped and insetd-osk asked for again is drawn twice, else
    its first drawing in that span; None without one (an OSK started without
    that log: maliit, the Shell's keyboard)."""
    drawn = [t for t in drawn_times(path, time.time()) if since <= t < until]
    before = [t for t in drawn if up_at is not None and t <= up_at]
    return before[-1] if before else drawn[0] if drawn else None


CONFIGURE = re.compile(r"^\[\s*\d+\.\d{3}\]\s+zwlr_layer_surface_v1@(\d+)\.configure\(\d+, \d+, (\d+)\)\s*$")


class ShownHeight:
    """How tall the OSK's keyboard is on the screen now, by its own Wayland
    log: the height the compositor configured for a layer surface that has
    drawn (a buffer committed) and is neither destroyed nor emptied since;
    0 when none has. Where no IPC says where the keyboard is (phoc) and the
    OSK has no Visible to ask (wvkbd), this is what can honestly be read: the
    OSK's word that it drew, at the compositor's size. Reads only what the
    log gained since the last call."""

    def __init__(self, path):
        self.path, self.offset, self.tail = path, 0, ""
        self.surfaces = {}  # zwlr_layer_surface_v1 id -> its wl_surface id
        self.heights = {}  # wl_surface id -> configured height
        self.attached, self.shown = set(), set()

    def __call__(self):
        try:
            with open(self.path, errors="replace") as f:
                f.seek(self.offset)
                text = f.read()
                self.offset = f.tell()
        except OSError:
            return None
        lines = (self.tail + text).split("\n")
        self.tail = lines.pop()  # a line still being written
        for line in lines:
            self.take(line)
        return max((self.heights.get(s, 0) for s in self.shown), default=0)

    def take(self, line):
        m = CONFIGURE.match(line)
        if m:
            if m.group(1) in self.surfaces:
                self.heights[self.surfaces[m.group(1)]] = int(m.group(2))
            return
        m = LINE.match(line)
        if not m:
            return
        interface, oid, request, args = m.group(3), m.group(4), m.group(5), m.group(6)
        if interface == "zwlr_layer_shell_v1" and request == "get_layer_surface":
            ids = re.search(r"zwlr_layer_surface_v1@(\d+), wl_surface@(\d+)", args)
            if ids:
                self.surfaces[ids.group(1)] = ids.group(2)
                self.forget(ids.group(2))
        elif interface == "zwlr_layer_surface_v1" and request == "destroy":
            self.forget(self.surfaces.pop(oid, None))
        elif interface == "wl_surface" and oid in self.surfaces.values():
            if request == "attach":
                (self.attached.add if not args.startswith("nil") else self.forget)(oid)
            elif request == "commit" and oid in self.attached:
                self.shown.add(oid)
            elif request == "destroy":
                self.forget(oid)

    def forget(self, surface):
        self.attached.discard(surface)
        self.shown.discard(surface)

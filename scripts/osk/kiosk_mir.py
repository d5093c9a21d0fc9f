"""scripts/kiosk-test's Mir adapter (--compositor mir): what the test asks a
compositor (the keyboard on the screen, where the window is), answered by Mir
2.12's miral-shell with squeekboard (scripts/osk/mir-session.sh).

Mir has no IPC and its foreign-toplevel carries no geometry: the only account
of where windows are is miral-shell's --window-management-trace (the session's
mir.log), one line per window-management call with the window's name, state,
top-left and size. The OSK is the `state=attached` window (squeekboard's layer
surface, name empty), gone at its advise_delete_window. The keyboard on the
screen is squeekboard's Visible together with that window's height.
Screenshots are grim's, as on sway (Mir offers screencopy with
--add-wayland-extensions all).
"""
import os
import re

TRACE = re.compile(rb"miral::Window Management: (\w+) window_info=\{name=(.*?), type=\w+, state=(\w+), "
                   rb"top_left=(-?\d+), (-?\d+), size=\((\d+), (\d+)\)")
EDGES = re.compile(rb"attached_edges=(\d+)")
NORTH = 4  # MirPlacementGravity: west 1, east 2, north 4, south 8


class Mir:
    """The test's questions to Mir, for one session."""

    def __init__(self, session):
        self.session = session
        self.log = os.path.join(session.dir, "mir.log")

    def windows(self):
        """(name, attached) -> {state, x, y, width, height}, every window the
        trace shows alive. The OSK's attached window is kept apart from the
        others: its name is empty, as is that of the full-screen window
        miral-shell makes at its start and deletes later, whose deletion must
        not take the keyboard with it. insetd-osk's layer-shell gauge, an
        attached window at every edge, is not the keyboard and is left out."""
        try:
            with open(self.log, "rb") as f:
                data = f.read()
        except OSError:
            return {}
        alive = {}
        for line in data.splitlines():
            found = TRACE.search(line)
            if not found:
                continue
            call, name, state, x, y, width, height = found.groups()
            edges = EDGES.search(line)
            # insetd-osk's own gauge is an attached window too, at every edge
            # (west, east, north, south: 15); the OSK is not at the north edge.
            if state == b"attached" and edges and int(edges.group(1)) & NORTH:
                continue
            key = (name.decode(errors="replace"), state == b"attached")
            if call == b"advise_delete_window":
                alive.pop(key, None)
            else:
                alive[key] = {"state": state.decode(), "x": int(x), "y": int(y), "width": int(width),
                              "height": int(height)}
        return alive

    def keyboard_zone(self):
        """squeekboard's height on the screen: its attached window while it
        says it is Visible, 0 once it says it is not (None: cannot tell)."""
        visible = self.session.squeekboard_visible()
        if visible is None:
            return None
        if not visible:
            return 0
        osk = [w for w in self.windows().values() if w["state"] == "attached"]
        return osk[0]["height"] if osk else None

    def window_rect(self):
        """The app's window (by its title: the session's app_title)."""
        found = [w for (name, attached), w in self.windows().items() if not attached and self.session.app_title in name]
        return {k: found[0][k] for k in ("x", "y", "width", "height")} if found else None

"""KWin's floating window for scripts/kiosk-test (--compositor kwin --mode
float): Chromium's --app window as KWin places it (520x390, not maximized),
moved by the test to y LOW_Y so that its bottom, and the focused field, are
under maliit. When maliit shows KWin moves the window up until it ends at
the keyboard's top, without resizing it: a moved window, covered by nothing
(docs/OSK.md, "Where the window is, from the compositor"). Chromium cannot
tell the page where its window is; insetd-osk's KWin script tells insetd,
which places the page (`placed`).

The judge's truth for each frame is where KWin had the window then: a KWin
script of the test's own logs every frame change with KWin's clock
(kiosk_kwin.py `watch_geometry`, `track`), and the keyboard covers of the
viewport what lies below its top at that frame.
"""
import time

from frame_rule import FRAME_MS

LOW_Y = 540


class Floating:
    """One floating-window run's window: put low before the cycles, then
    asked where it was at each frame."""

    def __init__(self, session):
        self.kwin = session.kwin
        self.output_height = session.output[1]

    def place_low(self):
        """Logs the window's frames from now on and moves it to LOW_Y;
        the window's frame once there (None if KWin did not move it)."""
        self.kwin.watch_geometry()
        self.kwin.move_app_window(LOW_Y)
        deadline = time.time() + 3
        while time.time() < deadline:
            track = self.kwin.track()
            if track and track[-1][2] == LOW_Y:
                return track[-1][1:]
            time.sleep(0.05)
        return None

    def cover(self, kb_top):
        """The judge's `cover` for a cycle: how much of a frame's viewport
        (its bottom, the window's bottom) lies below `kb_top` where KWin had
        the window then; None within a frame of a move (either place may
        have been on the screen)."""
        track = self.kwin.track()
        slack = FRAME_MS / 1000

        def at(f):
            before = [r for r in track if r[0] <= f.t - slack]
            near = [r for r in track if f.t - slack < r[0] <= f.t + slack]
            if not before or any(r[2] != before[-1][2] for r in near):
                return None
            _, _, y, _, height = before[-1]
            bottom = min(y + height, self.output_height)
            return max(0.0, min(bottom - kb_top, f.viewport))
        return at


def forge_report(session, bridge_pid):
    """The hostile case: another program on the session bus calls insetd-osk's
    object as if it were KWin's script, putting the page's window at the
    output's top. insetd-osk must refuse it (only the owner of org.kde.KWin
    is heard): busctl's answer (its error), or None if the call was taken."""
    code, out = session.run("busctl", "--user", "list", "--no-legend", "--unique")
    names = [line.split()[0].decode() for line in out.splitlines()
             if len(line.split()) > 1 and line.split()[1] == str(bridge_pid).encode()] if code == 0 else []
    if not names:
        return f"insetd-osk's bus name not found (busctl list: {code})"
    result = session.run("sh", "-c", f"busctl --user call {names[0]} /org/insetd/KWin1 org.insetd.KWin1 "
                                     "FocusedWindow dddd 10 0 520 390 2>&1")
    return None if result[0] == 0 else result[1].decode(errors="replace").strip()

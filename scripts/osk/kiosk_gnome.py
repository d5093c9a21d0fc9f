"""scripts/kiosk-test's GNOME Shell adapter (--compositor gnome): what the
test asks a compositor (the keyboard on the screen, where the window is, a
screenshot), answered by GNOME Shell 43 through insetd's own Shell extension
(gnome-shell/insetd@insetd, org.insetd.Shell1 on the session bus; the session
is scripts/osk/gnome-session.sh). The extension is what insetd-osk drives too,
but the test reads its properties itself: Visible and KeyboardFrame for the
keyboard (KeyboardDrawn for what of it is on the screen while it slides), WindowFrame (the focused window as drawn, so a window the Shell slid
would show it) for the window. Screenshots are gnome-screenshot's PNG (allowed
without unsafe mode), turned into the PPM the test's pixel checks read.
"""
import re

from kiosk_kwin import png_screenshot

SHELL = ("org.insetd.Shell1", "/org/insetd/Shell1", "org.insetd.Shell1")


class Gnome:
    """The test's questions to GNOME Shell, for one session."""

    def __init__(self, session):
        self.session = session

    def _get(self, name):
        code, out = self.session.run("busctl", "--user", "get-property", *SHELL, name)
        return None if code != 0 else out.decode().strip()

    def visible(self):
        out = self._get("Visible")
        return None if out is None else out == "b true"

    def _rect(self, name):
        out = self._get(name)
        found = out and re.fullmatch(r"\(iiii\) (-?\d+) (-?\d+) (\d+) (\d+)", out)
        return tuple(int(v) for v in found.groups()) if found else None

    def keyboard_zone(self):
        visible = self.visible()
        if visible is None:
            return None
        frame = self._rect("KeyboardFrame")
        return (frame[3] if frame else None) if visible else 0

    def animates(self):
        """Whether the Shell animates (its keyboard slides in 150 ms); as
        insetd-osk takes it, so where the extension cannot say."""
        return self._get("Animates") != "b false"

    def drawn_zone(self):
        """How much of the keyboard is on the screen now, also while the Shell
        slides it in or out (150 ms): the extension's KeyboardDrawn."""
        frame = self._rect("KeyboardDrawn")
        return None if frame is None else frame[3]

    def window_rect(self):
        frame = self._rect("WindowFrame")
        if not frame or frame[2] == 0:
            return None
        return dict(zip(("x", "y", "width", "height"), frame))

    def screenshot_ppm(self):
        return png_screenshot(self.session, "gnome-screenshot", "gnome-screenshot", "-f")

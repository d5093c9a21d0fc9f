"""The output turned under a stock app with a field focused and the keyboard
up (issue 35's "rotation while shown", for the input-method modules' apps):
a check of scripts/osk/kiosk_qtim.py's and kiosk_gtk_checks.py's, on sway.

The app is full screen (its window is the output, so nothing but the
keyboard covers it). sway turns the output to landscape (`transform 90`,
960x540) and back. What must be true, from the screen alone:

  - insetd's screen is the turned output's size once the app's window is
    (the module told insetd of the turn);
  - once the keyboard's zone is steady on the turned output, the app's last
    frame has the focused field above it, inside the window less that zone
    (+1 px);
  - no frame through the turns has more inset than the keyboard on the screen
    covers of the window then (+1 px), the zone read all along
    (frame_rule.CellJudge.timeline).
"""
import time

import im_frames
from frame_rule import CellJudge
from kiosk_session import OUTPUT, insetd_status

STEADY_S = 0.5  # the zone unchanged this long is the OSK laid out for the output


class Turn:
    """One check: `reading` gives ("up"|"gone"|"moving", zone) of the screen,
    `log_path` is the app's log (its `insetd-frame` lines), `app` "gtk" or
    "qt-im" (how its frames read)."""

    def __init__(self, session, socket, reading, log_path, app):
        self.session, self.socket, self.reading, self.log_path, self.app = session, socket, reading, log_path, app
        self.readings = []  # (start, end, zone) back to back, zone 0 while none is up

    def read(self):
        start = time.time()
        r = self.reading()
        end = time.time()
        if r is not None and r[0] != "moving":
            self.readings.append((start, end, r[1] if r[0] == "up" else 0))
        return r

    def frames(self, since):
        raw, _, told = im_frames.read_log(self.log_path)
        return [f for f in im_frames.frames_of(raw, told, self.app) if f.t >= since]

    def screen(self):
        status = insetd_status(self.socket, "im-turn")
        return status and status["state"].get("screen")

    def steady_zone(self, timeout=6.0):
        """The keyboard's zone once it has held for STEADY_S, or None."""
        deadline, zone, since = time.time() + timeout, None, None
        while time.time() < deadline:
            r = self.read()
            current = r[1] if r is not None and r[0] == "up" else None
            if current != zone:
                zone, since = current, time.time()
            elif zone and time.time() - since >= STEADY_S:
                return zone
            time.sleep(0.02)
        return None

    def wait(self, condition, timeout=5.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            self.read()
            if condition():
                return True
            time.sleep(0.02)
        return condition()

    def __call__(self):
        """(failures, a line of what was seen)."""
        failures, seen = [], []
        since = time.time()
        if self.steady_zone() is None:
            return ["the keyboard is not up before the turn"], ""
        try:
            for transform, output in (("90", OUTPUT[::-1]), ("normal", OUTPUT)):
                code, out = self.session.run("swaymsg", "output", "HEADLESS-1", "transform", transform)
                if code != 0:
                    return [f"sway did not take transform {transform}: {out!r}"], ""
                self.session.output = output
                where = f"{output[0]}x{output[1]}"

                if not self.wait(lambda: self.screen() == {"width": output[0], "height": output[1]}):
                    failures.append(f"{where}: insetd's screen is {self.screen()}")
                    continue
                zone = self.steady_zone()
                if zone is None:
                    failures.append(f"{where}: the keyboard's zone is not steady")
                    continue

                def field_clear():
                    frames = self.frames(since)
                    last = frames[-1] if frames else None
                    return (last is not None and round(last.viewport) == output[1] and 0 <= last.field_bottom
                            and last.field_bottom <= last.viewport - zone + 1)
                if not self.wait(field_clear, timeout=3):
                    last = self.frames(since)[-1:]
                    failures.append(f"{where}: the field is not above the {zone} px keyboard: last frame {last}")
                    continue
                seen.append(f"{where} keyboard {zone}")
        finally:
            if self.session.output != OUTPUT:
                self.session.run("swaymsg", "output", "HEADLESS-1", "transform", "normal")
                self.session.output = OUTPUT
        self.read()
        judge = CellJudge()
        wrong = judge.timeline(self.frames(since), self.readings, None, False)
        if wrong:
            failures.append("frames with more inset than the keyboard on the screen covers: " + "; ".join(wrong))
        return failures, f"{', '.join(seen)}; {judge.judged} of {judge.frames} frames judged, {judge.excess} over"

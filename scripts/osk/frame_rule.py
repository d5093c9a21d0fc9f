"""The motion rule of issue 35, applied to every frame an app drew in one cell.

scripts/kiosk-test runs every app (Chromium with insetd.js, the Qt app with
the Insetd module) through the same cycles; scripts/gtk-test and
scripts/qt-im-test run stock GTK and Qt apps with insetd's input-method
modules, which cycle focus themselves (scripts/osk/im_frames.py reads the screen
for them). Each app's own frame log is turned into Frame records
(chromium_frame, qt_frame, gtk_frame, qt_im_frame) and CellJudge judges those,
whichever app drew them, so one rule decides every frame:

  - no frame applies more inset than the keyboard on the screen covers of the
    app's window at that frame (+1 px): a wrong frame, and the cycle fails;
  - once the keyboard is on the screen, the focused field is above it: frames
    with the field covered are counted, as is the time from the keyboard
    confirmed up to the first frame with the field visible;
  - P6 (issue 35): where the OSK's own log says when it drew the keyboard
    (scripts/osk/osk_surface.py), the time from that to the first frame the
    app drew after it with the field above the keyboard.
"""
import bisect
from collections import namedtuple

FRAME_MS = 16.7  # one frame at 60 Hz: the slack either side of a reading of the screen


class Readings:
    """The keyboard on the screen read all along: (start, end, zone) back to
    back (scripts/osk/kiosk_transitions.py's Truth)."""

    def __init__(self, readings):
        self.readings = readings
        self.starts, self.ends = [r[0] for r in readings], [r[1] for r in readings]

    def certain(self, t, slack=FRAME_MS / 1000):
        """The zone at `t` where the screen is certain then: the last reading
        ended `slack` before t and the first begun `slack` after t, and every
        reading from one to the other, say the same zone; else None."""
        before = bisect.bisect_right(self.ends, t - slack) - 1
        after = bisect.bisect_left(self.starts, t + slack)
        if before < 0 or after >= len(self.readings):
            return None
        zones = {r[2] for r in self.readings[before:after + 1]}
        return zones.pop() if len(zones) == 1 else None

# One frame as the judge sees it, whatever drew it. t: seconds since the epoch
# (the test's clock); viewport: the height the app lays out in (a page's
# innerHeight, a Qt window's height); inset: the bottom inset the app applied
# beyond its own (insetd.js's padding, the Flickable's bottomMargin less its
# own); told: the keyboard height the app was told covers it (kb.boundingRect,
# Insetd.keyboard.rectangle, QInputMethod's keyboardRectangle; None where the
# app's log does not say); field_bottom: the focused field's bottom in the
# viewport; outer, screen_y: where the window is, for a failure's message;
# width: the viewport's width, where the app logs it (which way the screen
# is turned).
Frame = namedtuple("Frame", "t viewport inset told field_bottom outer screen_y width", defaults=(None,))


def chromium_frame(raw):
    """The page's requestAnimationFrame log: [ms, innerHeight, padding,
    kb.boundingRect height, field bottom, outerHeight, screenY, innerWidth]."""
    t_ms, inner, padding, keyboard, field_bottom, outer, screen_y, *width = raw
    return Frame(t_ms / 1000, inner, padding, keyboard, field_bottom, outer, screen_y, *width)


def qt_frame(raw, own_margin=0.0):
    """The Qt driver's frameSwapped log (scripts/osk/kiosk_qt.qml): [ms, window
    height, the Flickable's bottomMargin, Insetd.keyboard.rectangle height,
    field bottom, window height, window y, window width]."""
    t_ms, height, margin, keyboard, field_bottom, outer, screen_y, *width = raw
    return Frame(t_ms / 1000, height, margin - own_margin, keyboard, field_bottom, outer, screen_y, *width)


def gtk_frame(raw):
    """gtk/tests/gtk-app.py's GdkFrameClock after-paint log: [ms, window
    height, the bottom margin the module added, scroll value, field bottom].
    The app logs nothing of what the module was told."""
    t_ms, height, margin, _scroll, field_bottom = raw
    return Frame(t_ms / 1000, height, margin, None, field_bottom, height, 0)


def qt_im_frame(raw, told=None):
    """qt/imcontext/tests' forms (QT_IM_MODULE=insetd): [ms, window height,
    the margin under the scroller's viewport, its offset, the focused field's
    bottom or -1]; told: the keyboardRectangle height QInputMethod gave the
    app last before the frame (its `insetd-im` log), 0 while not visible."""
    t_ms, height, margin, _offset, field_bottom = raw
    return Frame(t_ms / 1000, height, margin, told, field_bottom, height, 0)


def percentile(values, p):
    ordered = sorted(values)
    if not ordered:
        return None
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(len(ordered) - 1, int(k) + 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


class CellJudge:
    """Counts over one cell (compositor x OSK x app x window mode), cycle by
    cycle: frames drawn and judged, frames with excess inset (and how many after a
    blur), the peak excess, frames told of more keyboard than covers the
    window, frames with the field covered, keyboard up -> field visible."""

    def __init__(self):
        self.frames = self.judged = self.excess = self.after_blur = self.told = self.covered = 0
        self.untold = 0  # frames whose app's log does not say what it was told
        self.dropped = 0  # frames while the OSK dropped the keyboard by itself (`timeline`)
        self.peak = 0.0
        self.visible_after = []
        self.drawn_to_visible = []

    def cycle(self, frames, zone, base_viewport, app_window, up_at, blurred_at, gone_at, drawn_at=None, held=False,
              cover=None):
        """Judges one focus/blur cycle's frames; returns the wrong frames'
        descriptions (empty: every frame right).

        The screen's truth is the test's own polling: the keyboard (`zone`
        px, at the output's bottom) is up from `up_at` until the blur, and
        gone from `gone_at`; in between it is leaving. A frame is judged only
        where that truth is certain, one frame's slack either side. In an app
        window the compositor shrinks the window by the zone, so a shrunk
        viewport is covered by nothing; in full screen (or before the shrink)
        the keyboard covers its height of it while up.

        `drawn_at`: when the OSK drew the keyboard (its own log); the first
        frame after it with the field above the keyboard is P6's end.

        `held`: the app draws only what changes (the input-method modules'
        stock apps), so its last frame before the keyboard was up (or drawn)
        is still on the screen then: with the field above the keyboard,
        visible at up_at (and at drawn_at, P6's end).

        `cover`: for a window the compositor moves rather than resizes (KWin's
        floating window), a function of a frame giving how much of its
        viewport the keyboard covers where the window was at that frame
        while the keyboard is up, or None where the window moved within a
        frame of it (not judged); without it the keyboard covers `zone`.
        """
        slack = FRAME_MS / 1000
        wrong, visible_at, shown_at = [], None, None

        def shrunk_window(f):
            return app_window and base_viewport is not None and f.viewport < base_viewport - 0.5

        def covered(f):
            return zone if cover is None else cover(f)

        def field_clear(f, shrunk):
            """The field above what the keyboard covers of the viewport (+1 px)."""
            return f.field_bottom <= f.viewport - (0 if shrunk else covered(f) or 0) + 1

        if held and up_at is not None:
            shown = [f for f in frames if f.t <= up_at + slack]
            if shown and 0 <= shown[-1].field_bottom and field_clear(shown[-1], shrunk_window(shown[-1])):
                visible_at = up_at
        if held and drawn_at is not None:
            # The same for P6: a frame drawn before the OSK drew, with the
            # field clear, is on the screen when the keyboard comes.
            shown = [f for f in frames if f.t <= drawn_at]
            if shown and 0 <= shown[-1].field_bottom and field_clear(shown[-1], shrunk_window(shown[-1])):
                shown_at = drawn_at

        def when(t):
            return (f"{(t - up_at) * 1000:+.0f} ms from up" if up_at and t < blurred_at
                    else f"{(t - blurred_at) * 1000:+.0f} ms from blur")

        for f in frames:
            shrunk = shrunk_window(f)
            if drawn_at is not None and shown_at is None and drawn_at <= f.t < blurred_at and field_clear(f, shrunk):
                shown_at = f.t
            up = up_at is not None and up_at + slack < f.t < blurred_at
            if shrunk or (gone_at is not None and f.t > gone_at + slack):
                allowed = 0
            elif up and covered(f) is not None:
                allowed = covered(f)
            else:
                continue
            self.judged += 1
            if f.inset > allowed + 1:
                self.excess += 1
                self.after_blur += f.t >= blurred_at
                self.peak = max(self.peak, f.inset - allowed)
                if len(wrong) < 6:
                    wrong.append(f"{when(f.t)}: viewport {f.viewport:g}, inset {f.inset:g}, allowed {allowed:g}")
            if f.told is not None and f.told > allowed + 1:
                self.told += 1
            # The field, once the keyboard is up, above it: inside the
            # viewport less what the keyboard covers of it.
            if up:
                if not field_clear(f, shrunk):
                    self.covered += 1
                elif visible_at is None:
                    visible_at = f.t
        self.frames += len(frames)
        self.untold += sum(f.told is None for f in frames)
        if visible_at is not None and up_at is not None:
            self.visible_after.append(max(0.0, (visible_at - up_at) * 1000))
        if shown_at is not None:
            self.drawn_to_visible.append((shown_at - drawn_at) * 1000)
        return wrong

    def timeline(self, frames, readings, base_viewport, app_window, drops=()):
        """Judges frames against the keyboard on the screen read all along:
        `readings` are (start, end, zone) back to back, zone 0 while no
        keyboard is up (scripts/osk/kiosk_transitions.py's Truth). A frame at
        t is judged where the screen is certain then: the last reading ended
        a frame before t and the first begun a frame after t, and every
        reading from one to the other, say the same zone. Returns the wrong
        frames' descriptions, as `cycle` does.

        `base_viewport`: the app window's unshrunk viewport height, or a
        function of the frame giving it (the screen may turn meanwhile).

        `drops`: (start, end) spans in which the OSK dropped the keyboard by
        itself and came back with nobody asking for a hide (squeekboard at
        Chromium's text-input change): frames in them are counted apart
        (`dropped`), not judged."""
        slack = FRAME_MS / 1000
        wrong = []
        truth = Readings(readings)
        for f in frames:
            if any(start - slack <= f.t <= end + slack for start, end in drops):
                self.dropped += 1
                continue
            zone = truth.certain(f.t, slack)
            if zone is None:
                continue
            base = base_viewport(f) if callable(base_viewport) else base_viewport
            # A window the compositor shrank lost its bottom to the keyboard's
            # zone as it was then; a keyboard grown since (a new size or a turn:
            # the window is resized a frame or more after the zone) covers the
            # difference until the window follows.
            lost = base - f.viewport if app_window and base is not None and f.viewport < base - 0.5 else 0
            allowed = max(0, zone - lost)
            self.judged += 1
            if f.inset > allowed + 1:
                self.excess += 1
                self.peak = max(self.peak, f.inset - allowed)
                if len(wrong) < 6:
                    wrong.append(f"{f.t:.3f}: viewport {f.viewport:g}, inset {f.inset:g}, allowed {allowed:g} (zone {zone})")
            if f.told is not None and f.told > allowed + 1:
                self.told += 1
            if zone and f.field_bottom > f.viewport - allowed + 1:
                self.covered += 1
        self.frames += len(frames)
        self.untold += sum(f.told is None for f in frames)
        return wrong

    def summary(self):
        v50, v99 = percentile(self.visible_after, 0.5), percentile(self.visible_after, 0.99)
        d50, d99 = percentile(self.drawn_to_visible, 0.5), percentile(self.drawn_to_visible, 0.99)
        p6 = (f", OSK drawn -> field visible (P6) p50 {d50:.0f} ms p99 {d99:.0f} ms (n={len(self.drawn_to_visible)})"
              if d50 is not None else "")
        return (f"frames {self.frames}: inset over {self.excess} ({self.after_blur} after blur; peak {self.peak:g} px), "
                + (f"told of more keyboard {self.told}, " if not 0 < self.frames == self.untold else "")
                + f"field covered {self.covered}"
                + (f", in the OSK's own drops or end {self.dropped}" if self.dropped else "")
                + (f", up -> field visible p50 {v50:.0f} ms p99 {v99:.0f} ms" if v50 is not None else "") + p6)

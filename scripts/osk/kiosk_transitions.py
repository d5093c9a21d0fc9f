"""Issue 35's transitions beyond focus and blur, for scripts/kiosk-test
(--transitions): with the keyboard up, the focus moves to another field (one
further down, then one near the top, then a numeric one, which squeekboard
answers with its number layout), insetd-osk is killed and started again, and
the OSK itself is killed and started again. Each is judged at every frame the
app drew, against the keyboard on the screen as a thread of the test saw it
the whole time (scripts/osk/frame_rule.py's `CellJudge.timeline`): no frame
with more inset than the keyboard covers of the window then (+1 px), and the
focused field above the keyboard once it settled.

What must be true, derived from what the screen shows (not from insetd):
  - field to field: the keyboard stays up (insetd-osk asks squeekboard again
    if it drops a show at Chromium's text-input change); each field ends
    above the keyboard; nothing is padded beyond the keyboard's cover.
  - insetd-osk killed and started again: the keyboard on the screen does not
    change, so neither does the page: still padded by the keyboard's height
    in full screen, 0 in the shrunk app window, the field visible throughout.
  - the OSK killed: the keyboard leaves the screen before anyone can know, so
    the frames up to the app's first unpadded one are counted apart, and that
    reaction must be within CRASH_REACTION; every frame after it is judged.
    Started again with the field still focused, insetd-osk shows it again and
    the field ends above it.
  - (sway) the output turned to landscape and back: the keyboard stays up,
    at the OSK's height for each orientation, and the field ends above it. An
    app window's frame is judged against the unshrunk height of its own
    orientation (`unshrunk`): smaller, sway shrank it for the keyboard, and
    only a keyboard taller than what the window lost covers any of it (the
    window follows a grown keyboard a frame or more late); not yet smaller,
    the keyboard's whole zone is.
  - (sway, squeekboard, Chromium) the keyboard's height changed: the output's mode
    widened to 720x960 and back (squeekboard 1.21 grows with the output's
    width alone: 172 -> 230 -> 172 px, docs/OSK.md), the window as tall; judged
    as the turn is, and the field ends above the keyboard of each height.
  - (sway, Chromium) focus to a second window and back: kiosk_windows.py.
"""
import json
import os
import subprocess

from kiosk_session import OUTPUT
from kiosk_windows import OTHER, OtherWindow
import threading
import time


class Truth(threading.Thread):
    """The keyboard on the screen over time: (t, zone) samples, zone 0 when
    no keyboard is up (the OSK's own Visible where it says, and the
    compositor's exclusive zone; where the compositor slides the keyboard and
    says where it is, GNOME Shell, what of it is drawn at that moment), read
    back to back until stopped."""

    def __init__(self, run):
        super().__init__(daemon=True)
        self.run_ = run
        self.samples = []
        self.errors = []
        self.stopped = threading.Event()

    def run(self):
        slides = self.run_.session.slides_keyboard()
        while not self.stopped.is_set():
            before = time.time()
            try:
                if slides:
                    zone = self.run_.session.drawn_zone()
                    if zone is None:
                        raise RuntimeError("KeyboardDrawn unreadable")
                    up = zone > 0
                else:
                    up, zone = self.run_.osk_up()
            except Exception as error:  # noqa: BLE001 (a reading that failed leaves a gap: nothing judged there)
                self.errors.append(repr(error))
                time.sleep(0.05)
                continue
            # A reading spans two questions: it holds from the first's start to the second's end.
            self.samples.append((before, time.time(), (zone or 0) if up else 0))
            if slides:
                time.sleep(0.005)  # each reading is a process and a Shell round trip

    def seen_up(self, timeout=2.0):
        """Waits until a reading has the keyboard up: a step that acts as soon
        as the test saw it (an OSK killed) may otherwise end a show shorter
        than one reading (squeekboard up 43 ms before its kill on Mir, between
        two readings), and its frames be judged against no keyboard."""
        deadline = time.time() + timeout
        while not any(zone > 0 for _, _, zone in self.samples) and time.time() < deadline:
            time.sleep(0.005)

    def stop(self):
        self.stopped.set()
        self.join(timeout=5)
        return self.samples


class Transitions:
    """The transitions of one Run (an OSK in a window mode), after its
    focus/blur cycles, with the app still running. `keyboard` is kiosk-test's
    OSK: it ends insetd-osk and the OSK as a crash would and starts them
    again."""

    # An OSK killed leaves the screen before anyone can know: insetd-osk hears
    # it from the session bus, tells insetd, insetd hides, the app draws. The
    # frames from the kill to the app's first unpadded one are counted apart
    # (as the OSK's own drops), not judged, when that reaction is within this
    # bound (10-50 ms measured here; a loaded 2-core CI host took ~170 ms).
    # A reaction beyond it fails the step: the bug this catches left the page
    # padded 1.48 s for a keyboard nobody drew.
    CRASH_REACTION = 0.5

    def __init__(self, run, keyboard, log):
        self.run, self.keyboard, self.log = run, keyboard, log
        self.killed_at = None
        self.reactions = []  # seconds from an OSK's kill to the app unpadded

    def execute(self):
        steps = [("field to field", self.field_to_field), ("insetd-osk restarted", self.bridge_restarted),
                 ("a hardware keyboard plugged in and out", self.hardware_keyboard)]
        if self.keyboard.restartable:
            steps.append((f"{self.run.osk} restarted", self.osk_restarted))
        if self.run.session.compositor == "sway":
            steps.append(("the screen turned and back", self.rotated))
            if self.run.app.name == "chromium" and self.run.osk == "squeekboard":
                steps.append(("the keyboard's height changed", self.height_changed))
            if self.run.app.name == "chromium":
                steps.append(("focus to another window and back", OtherWindow(self)))
        # KIOSK_STEPS (words, comma-separated): only the steps whose names hold one, to work on a step alone.
        only = [w for w in os.environ.get("KIOSK_STEPS", "").split(",") if w]
        for name, step in steps:
            if not only or any(w in name for w in only):
                self.step(name, step)

    def step(self, name, body):
        run, page = self.run, self.run.page
        page.take_frames()
        truth = Truth(run)
        truth.start()
        try:
            page.send("focus")
            up, zone = run.wait(run.osk_up)
            if not up:
                run.fail(name, f"the OSK is not up after focus (zone {zone})")
                return
            run.zone = zone
            truth.seen_up()
            self.settled(name, "target")
            body(name)
            page.send("blur")
            gone, _ = run.wait(run.osk_gone)
            if not gone:
                run.fail(name, "the OSK is still up after the blur")
            fields = ("target",) + tuple(run.app.other_fields)
            ok, r = run.wait(lambda: ((r := page.fresh_report()) is not None and r["padding"] == 0
                                      and r["keyboard"]["height"] == 0 and r["active"] not in fields, r), interval=0.02)
            if not ok:
                run.fail(name, f"after the blur the page still has padding or a keyboard: {r}")
            time.sleep(0.1)
            page.fresh_report()
        finally:
            samples = truth.stop()
        if truth.errors:
            # Frames around a failed reading are not judged (a gap in the truth).
            self.log(f"  {name}: {len(truth.errors)} readings of the screen failed: {truth.errors[:2]}")
        frames = [run.app.frame(f) for f in page.take_frames()]
        # The second window's frames, where the step had one: judged alike.
        other = body.frames() if isinstance(body, OtherWindow) else []
        frames = sorted(frames + other, key=lambda f: f.t)
        # The focus moving to another field, or to another window's, is a
        # text-input change, at which squeekboard may drop its show
        # (insetd-osk asks again): its drops there are its own.
        moves_focus = body == self.field_to_field or isinstance(body, OtherWindow)
        drops, reaction = self.drops(samples) if moves_focus else [], ""
        if body == self.osk_restarted:
            span, reaction = self.crash_reaction(name, frames)
            drops = [span]
        judged, dropped = run.judge.judged, run.judge.dropped
        wrong = run.judge.timeline(frames, samples, self.unshrunk, run.mode == "app", drops)
        if wrong:
            run.fail(name, "frames with more inset than the keyboard on the screen covers: " + "; ".join(wrong))
        if wrong or self.run.args.keep:
            self.record(name, frames, samples, other, getattr(body, "switches", None))
        self.log(f"  {name}: {len(frames)} frames, {run.judge.judged - judged} judged against {len(samples)} readings "
                 f"of the screen ({run.judge.dropped - dropped} in the OSK's own drops or end){reaction}")

    def unshrunk(self, frame):
        """The app window's viewport height with no keyboard, for the way the
        screen is turned at `frame` (`unshrunk_at`)."""
        return self.unshrunk_at(frame.width)

    def unshrunk_at(self, width):
        """The same for a viewport `width` wide: the output's height less what
        the browser puts above the viewport (the app window's bar), known from
        the portrait window before any keyboard; the portrait one where the
        app logs no width."""
        base = self.run.base_inner
        if base is None or width is None or round(width) != OUTPUT[1]:
            return base
        return OUTPUT[0] - (OUTPUT[1] - base)

    def record(self, name, frames, samples, other=(), switches=None):
        """A step with wrong frames (every step, with --keep) leaves them, and
        the readings of the screen they were judged against, in the run's
        directory (kept on a failure). Frames of a second window say so
        (`window`), and the workspace switches are listed with their times."""
        path = os.path.join(self.run.session.dir, f"{self.run.osk}-{self.run.mode}-{name.replace(' ', '-')}.json")
        others = set(map(id, other))
        with open(path, "w") as f:
            json.dump({"killed_at": self.killed_at, "switches": switches,
                       "frames": [{**f._asdict(), "window": OTHER if id(f) in others else "a"} for f in frames],
                       "readings": samples}, f, indent=0)
        self.log(f"  {name}: its frames and readings in {path}")

    def crash_reaction(self, name, frames):
        """The span from the OSK's kill to the app's first frame with no
        inset and no keyboard told (its reaction), and its words for the log.
        A reaction over CRASH_REACTION fails the step, and only its bound is
        excused."""
        killed = self.killed_at
        gone = next((f.t for f in frames if f.t > killed and f.inset == 0 and not f.told), None)
        reaction = None if gone is None else gone - killed
        if reaction is None or reaction > self.CRASH_REACTION:
            self.run.fail(name, f"the app still applied an inset {self.CRASH_REACTION * 1000:.0f} ms after "
                                f"{self.run.osk} ended" + (f" (unpadded after {reaction * 1000:.0f} ms)" if reaction else ""))
            return (killed, killed + self.CRASH_REACTION), ""
        self.reactions.append(reaction)
        return (killed, gone), f", unpadded {reaction * 1000:.0f} ms after the kill"

    @staticmethod
    def drops(samples):
        """The spans in which the keyboard left the screen and came back with
        no hide asked for: the OSK's own drops (field to field, and window to
        window, ask for none until the blur, after which the keyboard does
        not come back)."""
        spans, left, seen_up = [], None, False
        for start, end, zone in samples:
            if zone == 0 and left is None and seen_up:
                left = start
            elif zone:
                seen_up = True
                if left is not None:
                    spans.append((left, end))
                    left = None
        return spans

    def settled(self, name, field, window="a"):
        """The page (its `window`) settled with `field` focused: padded by the
        keyboard's cover of the viewport, the field's bottom above the
        keyboard's top. The frame judge's rule decides the cover: none in an
        app window the compositor shrank, all of the keyboard otherwise (full
        screen, GNOME Shell's maximized window, which it never resizes, and
        an app window the compositor left as it was, as Mir once did for a
        restarted squeekboard)."""
        run, page = self.run, self.run.page

        def check():
            r = page.fresh_report(window=window)
            if not r or r["active"] != field or r["animating"]:
                return False, r
            base = self.unshrunk_at(r.get("innerWidth"))
            shrunk = run.mode == "app" and base is not None and r["innerHeight"] < base - 0.5
            covered = 0 if shrunk else run.zone
            # The inset is the keyboard's cover of the scroller the app follows
            # (the Qt app's Flickable ends above its footer).
            kb_top = r["innerHeight"] - covered
            view_covered = max(0, r.get("viewBottom", r["innerHeight"]) - kb_top)
            field_bottom = r["field"]["y"] + r["field"]["height"]
            clear = field_bottom <= kb_top + 0.5 and r["field"]["y"] >= 0
            return r["padding"] == view_covered and r["keyboard"]["height"] == covered and clear, r

        ok, r = run.wait(check, timeout=3)
        if not ok:
            run.fail(name, f"not settled with {field} focused (window {window}): " + (
                f"padding {r['padding']}, kb {r['keyboard']}, field {r['field']}, inner {r['innerHeight']}, "
                f"active {r['active']}, zone {run.zone}" if r else "no report"))
        return ok

    def field_to_field(self, name):
        run = self.run
        for field in self.run.app.other_fields:
            run.page.send(f"focus:{field}")
            up, zone = run.wait(run.osk_up)
            if not up:
                run.fail(name, f"the OSK is not up with {field} focused")
                return
            run.zone = zone
            self.settled(name, field)
            time.sleep(0.3)

    def hardware_keyboard(self, name):
        """A USB keyboard plugged in with the field focused: insetd's default
        policy shows the accessory bar, 0 px here, so no keyboard at all
        (docs/insetd.yaml.5); the OSK leaves the screen and nothing is padded,
        the field still focused. Unplugged: the keyboard comes back."""
        run = self.run
        self.testbed("plug", "usb-keyboard", "--name", "transitions")
        gone, zone = run.wait(run.osk_gone)
        if not gone:
            run.fail(name, f"the OSK is still on the screen with a hardware keyboard plugged in (zone {zone})")
        self.unpadded(name, "with a hardware keyboard", focused=True)
        time.sleep(0.5)
        self.testbed("unplug", "transitions")
        self.comes_back(name, "the hardware keyboard unplugged", timeout=6)

    def unpadded(self, name, when, focused=False):
        """The page shows no keyboard: no padding, kb.boundingRect empty, and
        (`focused`) the field still focused."""
        page = self.run.page
        ok, r = self.run.wait(lambda: ((r := page.fresh_report()) is not None and r["padding"] == 0
                                       and r["keyboard"]["height"] == 0 and (not focused or r["active"] == "target"), r),
                              interval=0.02)
        if not ok:
            self.run.fail(name, f"{when}, the page still has padding or a keyboard" + (", or lost its focus" if focused else "")
                          + f": {r}")

    def comes_back(self, name, when, timeout):
        """The keyboard is up again with the field still focused, and the page settles on it."""
        run = self.run
        up, zone = run.wait(run.osk_up, timeout=timeout)
        if not up:
            run.fail(name, f"{when} with the field focused, the keyboard is not back (zone {zone})")
            return
        run.zone = zone
        self.settled(name, "target")

    def rotated(self, name):
        """The output turned to landscape (sway's `transform 90`: 960x540) and
        back with the field focused: the keyboard stays up at the OSK's height
        for each orientation (measured anew for landscape), and the field ends
        above it in both. The output is turned back whatever happens."""
        self.reshaped(name, [(("transform", "90"), OUTPUT[::-1], None), (("transform", "normal"), OUTPUT, None)])

    def height_changed(self, name):
        """squeekboard's height changed while shown: 1.21 sizes itself from
        the output's width alone (172/540 of it from 540 px wide; no layout,
        hint or language changes it, docs/OSK.md), so the output's mode
        widens to 720x960 and back, its height kept: the keyboard goes 172 ->
        230 -> 172 px (with Chromium) with the app's window as tall as before. The field ends
        above the keyboard of each height, and no frame is padded beyond what
        covers the window. The mode is set back whatever happens."""
        wide = (720, OUTPUT[1])
        # ceil(172 * 720 / 540) = ceil(229.3): squeekboard rounds its height up.
        # It takes it when it makes its panel anew, as Chromium's text input
        # changing at the resize has it do every time. Under the Qt app it
        # mostly keeps its 172 px panel, so the step is Chromium's only
        # (docs/OSK.md says what the Qt app window shows).
        self.reshaped(name, [(("mode", f"{wide[0]}x{wide[1]}"), wide, 230),
                             (("mode", f"{OUTPUT[0]}x{OUTPUT[1]}"), OUTPUT, 172)])

    def reshaped(self, name, changes):
        """Each (sway `output` setting, the output's size then, the keyboard's
        height expected then or None) in turn, the keyboard left up; the
        output is set back to OUTPUT (portrait, its mode) whatever happens."""
        session = self.run.session
        try:
            for setting, output, height in changes:
                if not self.turn(name, setting, output, height):
                    return
        finally:
            if session.output != OUTPUT:
                session.run("swaymsg", "output", "HEADLESS-1", "transform", "normal", "mode", f"{OUTPUT[0]}x{OUTPUT[1]}")
                session.output = OUTPUT

    def turn(self, name, setting, output, height=None):
        run, session = self.run, self.run.session
        code, out = session.run("swaymsg", "output", "HEADLESS-1", *setting)
        if code != 0:
            run.fail(name, f"sway did not take {' '.join(setting)}: {out!r}")
            return False
        session.output = output
        ok, r = run.wait(lambda: ((r := run.page.fresh_report()) is not None and r["innerWidth"] == output[0], r),
                         timeout=5)
        if not ok:
            run.fail(name, f"the page is not {output[0]} wide after the turn: {r and r['innerWidth']}")
            return False
        # The OSK lays itself out for the new output a moment later (squeekboard
        # in 0.2-0.5 s): the keyboard is the zone the readings agree on for half
        # a second.
        since = [None, None]  # the zone, and since when

        def steady():
            up, zone = run.osk_up()
            if not up or zone != since[0]:
                since[:] = [zone if up else None, time.time()]
            return up and time.time() - since[1] >= 0.5, zone
        up, zone = run.wait(steady, timeout=6, interval=0.05)
        if not up:
            run.fail(name, f"the keyboard is not up at {output[0]}x{output[1]} (zone {zone})")
            return False
        run.zone = zone
        self.log(f"  {name}: {output[0]}x{output[1]}, keyboard {zone}")
        if height is not None and zone != height:
            run.fail(name, f"the keyboard is {zone} px at {output[0]}x{output[1]}, not {height}")
        return self.settled(name, "target")

    def testbed(self, *command):
        """insetd-testbed's plug or unplug, on insetd's testbed."""
        result = subprocess.run([f"{self.run.args.bin}/insetd-testbed", *command], capture_output=True, timeout=10,
                                env={**os.environ, "INSETD_TESTBED": self.run.args.testbed})
        if result.returncode != 0:
            raise RuntimeError(f"insetd-testbed {' '.join(command)}: {result.stderr.decode(errors='replace')}")

    def bridge_restarted(self, name):
        run = self.run
        self.keyboard.kill_bridge()
        time.sleep(1.0)
        self.keyboard.start_bridge()
        time.sleep(1.5)
        up, zone = run.osk_up()
        if not up or zone != run.zone:
            run.fail(name, f"the keyboard changed on the screen while insetd-osk restarted: up {up}, zone {zone}")
        self.settled(name, "target")

    def osk_restarted(self, name):
        run = self.run
        self.killed_at = time.time()
        self.keyboard.kill_keyboard()
        # Its Visible goes with it: the zone alone says the keyboard left.
        gone, zone = run.wait(lambda: ((z := run.session.keyboard_zone() if run.ipc else run.page_zone()) == 0, z))
        if not gone:
            run.fail(name, f"the keyboard is still on the screen after {run.osk} ended (zone {zone})")
        self.unpadded(name, f"{run.osk} gone")
        self.keyboard.start_keyboard()
        self.comes_back(name, f"{run.osk} started again", timeout=8)

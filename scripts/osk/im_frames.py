#!/usr/bin/env python3
"""Every frame of a stock GTK or Qt app with insetd's input-method module,
judged by the one rule (scripts/osk/frame_rule.py's CellJudge) against the
keyboard on the screen, for scripts/gtk-test and scripts/qt-im-test.

  im-frames SESSION-DIR APP-LOG CYCLES --app gtk|qt-im [--zone-only]

These apps (gtk/tests/gtk-app.py, qt/imcontext/tests' forms) focus a field and
take the focus away by themselves, logging each step (`insetd-cycle focus|blur
T`) and each frame they draw (`insetd-frame [t ms, window height, inset,
offset, field bottom]`); the test does not drive them as scripts/kiosk-test
drives its apps, so it cannot say when the keyboard came. This reads the
screen's truth meanwhile, with the time before and after each reading, through
the run's sway session (scripts/osk/kiosk_session.py: squeekboard's Visible,
sway's workspace, whose height the OSK's exclusive zone takes; --zone-only for
an OSK with no Visible, wvkbd: up while there is a zone), until the app has
logged CYCLES focus/blur pairs, and gives each cycle to CellJudge:

  - up_at: the end of the first reading of the keyboard up, in the run of such
    readings that lasts to the app's blur (a show squeekboard dropped and
    insetd-osk made again starts a new run); zone: its height;
  - gone_at: the end of the first reading of the keyboard gone after the blur;
    a cycle's frames end where that is no longer certain, at the start of the
    last reading still gone, so frames after the next focus and before the
    keyboard came are judged too, against nothing covered.

sway lays out every window shorter than the output above the zone, in either
window mode: a shrunk window is judged as covered by nothing (app_window).
These apps draw only what changes (`held`): the frame on the screen when the
keyboard came up may be one drawn before it.

Fails on any wrong frame, and when fewer frames than cycles could be judged
(a judge that judges nothing cannot pass).
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frame_rule import FRAME_MS, CellJudge, gtk_frame, qt_im_frame  # noqa: E402
from kiosk_session import OUTPUT, Session  # noqa: E402


def read_log(path):
    """(frames, steps, told): the raw frames, (kind, s) steps, (s, height) of
    what QInputMethod told a Qt app."""
    frames, steps, told = [], [], []
    with open(path, errors="replace") as log:
        for line in log:
            if "insetd-frame " in line:
                frames.append(json.loads(line.split("insetd-frame ", 1)[1]))
            elif "insetd-cycle " in line:
                kind, at = line.split("insetd-cycle ", 1)[1].split()
                steps.append((kind, int(at) / 1000))
            elif "insetd-im [" in line:
                im = json.loads(line.split("insetd-im ", 1)[1])
                if isinstance(im[0], (int, float)):  # Qt's [t, visible, x, y, w, h]; GTK's is its module list
                    told.append((im[0] / 1000, im[5] if im[1] else 0))
    return frames, steps, told


def reading(session, zone_only):
    """("up"|"gone"|"moving", zone), or None when the session did not answer."""
    try:
        zone = session.keyboard_zone()
        visible = zone is not None and zone > 0 if zone_only else session.squeekboard_visible()
    except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired) as error:
        print(f"im-frames: a reading failed: {error}", file=sys.stderr)
        return None
    if zone is None or visible is None:
        return None
    if visible and zone > 0:
        return "up", zone
    if not visible and zone == 0:
        return "gone", 0
    return "moving", zone


def frames_of(raw, told, app):
    """The judge's Frame records; a Qt app's with what QInputMethod told it last."""
    if app == "gtk":
        return [gtk_frame(f) for f in raw]
    out = []
    for f in raw:
        said = [h for t, h in told if t <= f[0] / 1000]
        out.append(qt_im_frame(f, said[-1] if said else 0))
    return out


def cycles_of(steps, samples):
    """Per focus: (focus, blur, up_at, zone, gone_at, end), end: the last
    instant the keyboard is certainly gone after the blur (None: never)."""
    focus = [at for kind, at in steps if kind == "focus"]
    blur = [at for kind, at in steps if kind == "blur"]
    out = []
    for f_at, b_at in zip(focus, blur):
        run = []  # the readings of the keyboard up that last to the blur
        for before, after, state, zone in samples:
            if before < f_at or after > b_at:
                continue
            run = run + [(after, zone)] if state == "up" else []
        up_at, zone = run[0] if run else (None, 0)
        gone_at = end = None
        for before, after, state, _ in samples:
            if before < b_at:
                continue
            if state != "gone":
                if gone_at is not None:
                    break
                continue
            if gone_at is None:
                gone_at = after
            end = before
        out.append((f_at, b_at, up_at, zone, gone_at, end))
    return out


def judge_cycles(frames, steps, samples, wanted):
    """(CellJudge, wrong frames, cycles with no reading of the keyboard up)
    over the first `wanted` cycles."""
    judge, wrong, unseen = CellJudge(), [], []
    slack = FRAME_MS / 1000
    start = steps[0][1]
    for n, (_f_at, b_at, up_at, zone, gone_at, end) in enumerate(cycles_of(steps, samples)[:wanted], 1):
        # This cycle's frames: from where the last one's ended to where the
        # keyboard is no longer certainly gone after this blur.
        until = end - slack if end is not None else b_at
        mine = [f for f in frames if start <= f.t < until]
        start = max(start, until)
        bad = judge.cycle(mine, zone, OUTPUT[1], True, up_at, b_at, gone_at, held=True)
        wrong += [f"cycle {n}: {w}" for w in bad]
        if up_at is None:
            unseen.append(n)
    return judge, wrong, unseen


def main():
    args = sys.argv[1:]
    directory, app_log, wanted = args[0], args[1], int(args[2])
    app = args[args.index("--app") + 1]
    zone_only = "--zone-only" in args
    session = Session(directory, processes=None)

    samples = []  # (before, after, state, zone)
    deadline = time.time() + 3 * wanted + 20
    while time.time() < deadline:
        before = time.time()
        state = reading(session, zone_only)
        after = time.time()
        if state:
            samples.append((before, after, *state))
        _, steps, _ = read_log(app_log)
        if sum(kind == "blur" for kind, _ in steps) >= wanted and steps[-1][0] == "blur" \
                and time.time() > steps[-1][1] + 1.0:
            break
    raw, steps, told = read_log(app_log)
    blurs = sum(kind == "blur" for kind, _ in steps)
    if blurs < wanted:
        print(f"im-frames: FAIL: the app logged {len(steps)} focus/blur steps of {2 * wanted}")
        return 1
    frames = frames_of(raw, told, app)
    judge, wrong, unseen = judge_cycles(frames, steps, samples, wanted)
    for n in unseen:
        print(f"im-frames: cycle {n}: no reading saw the keyboard up before the blur")
    print(f"im-frames: {len(frames)} frames, {judge.judged} judged over {wanted} cycles "
          f"({len(samples)} readings of the screen): " + judge.summary().split(": ", 1)[1])
    if wrong:
        print("im-frames: FAIL: more inset than the keyboard on the screen covers: " + "; ".join(wrong[:6]))
        return 1
    # Qt draws only what changes, and a reading takes 30-90 ms through the
    # session: at least one judged frame a cycle.
    if judge.judged < wanted:
        print(f"im-frames: FAIL: only {judge.judged} frames could be judged")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The apps of insetd's input-method modules, as the one harness reads them
(scripts/osk/kiosk_gtk.py, kiosk_qtim.py): stock GTK and Qt apps that focus a
field and take the focus away by themselves, logging each step (`insetd-cycle
focus|blur T`) and each frame they draw (`insetd-frame [t ms, window height,
inset, offset, field bottom]`). The test does not drive them, so it cannot say
when the keyboard came: it reads the screen's truth meanwhile (`sample`, with
the time before and after each reading), and each cycle goes to the CellJudge
(`judge_cycles`):

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
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frame_rule import FRAME_MS, gtk_frame, qt_im_frame  # noqa: E402
from kiosk_session import OUTPUT  # noqa: E402


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


# The OSKs' heights at 540 wide, as the tests configure them (wvkbd's -H) or
# find them (squeekboard lays itself out 150 high on Mir).
KEYBOARD = {"squeekboard": 172, "wvkbd": 300, "gnome": 240}


def keyboard_height(osk, compositor):
    """The OSK's height at 540 wide on `compositor`; None where no test knows it (maliit)."""
    return 150 if (osk, compositor) == ("squeekboard", "mir") else KEYBOARD.get(osk)


def adapter_reading(session):
    """("up"|"gone", zone) from a compositor adapter's keyboard_zone (Mir's
    window-management trace, KWin's word on maliit), or None."""
    zone = session.adapter.keyboard_zone()
    return None if zone is None else ("up", zone) if zone else ("gone", 0)


def reading(session, zone_only):
    """("up"|"gone"|"moving", zone), or None when the session did not answer."""
    try:
        zone = session.keyboard_zone()
        visible = zone is not None and zone > 0 if zone_only else session.squeekboard_visible()
    except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired) as error:
        print(f"im_frames: a reading failed: {error}", file=sys.stderr)
        return None
    if zone is None or visible is None:
        return None
    if visible and zone > 0:
        return "up", zone
    if not visible and zone == 0:
        return "gone", 0
    return "moving", zone


def phoc_reading(session, osk, mode, app_log, shown, squeekboard_height):
    """("up"|"gone", zone) on phoc, which has no IPC, or None: squeekboard's
    Visible with its height at 540 wide (as kiosk-test configures insetd
    there); wvkbd in an app window by what the window lost (phoc shrinks it
    for the zone: the app's last frame), in full screen (nothing shrinks) by
    its own Wayland log (`shown`, an osk_surface.ShownHeight: a drawn layer
    surface at the height phoc configured)."""
    if osk == "squeekboard":
        visible = session.squeekboard_visible()
        return None if visible is None else ("up", squeekboard_height) if visible else ("gone", 0)
    if mode == "kiosk":
        height = shown()
        return None if height is None else ("up", height) if height else ("gone", 0)
    frames, _, _ = read_log(app_log)
    if not frames:
        return None
    lost = OUTPUT[1] - frames[-1][1]
    return ("up", lost) if lost > 0 else ("gone", 0)


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


def judge_cycles(judge, frames, steps, samples, wanted, drawn_at=None, base_viewport=OUTPUT[1]):
    """Gives each of the first `wanted` cycles' frames to `judge` (a
    CellJudge): from where the last cycle's ended to where the keyboard is no
    longer certainly gone after this blur. `drawn_at(focus, up_at, blur)`:
    when the OSK drew the keyboard (P6). `base_viewport`: the app window's
    height while nothing shrinks it (the output's, but for a window under a
    top bar). Returns (n, focus, up_at, wrong frames) per cycle."""
    slack = FRAME_MS / 1000
    start = steps[0][1]
    out = []
    for n, (f_at, b_at, up_at, zone, gone_at, end) in enumerate(cycles_of(steps, samples)[:wanted], 1):
        until = end - slack if end is not None else b_at
        mine = [f for f in frames if start <= f.t < until]
        start = max(start, until)
        drawn = drawn_at(f_at, up_at, b_at) if drawn_at else None
        out.append((n, f_at, up_at, judge.cycle(mine, zone, base_viewport, True, up_at, b_at, gone_at, drawn, held=True)))
    return out


def sample(reading, log_path, wanted, deadline, process=None, pause=0.0):
    """Readings of the screen, (before, after, state, zone) from `reading()`,
    until the app's log has `wanted` focus/blur pairs and a second more, the
    app (`process`) exited, or the deadline. A reading that fails is skipped."""
    samples = []
    while time.time() < deadline:
        before = time.time()
        try:
            state = reading()
        except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired):
            state = None
        if state:
            samples.append((before, time.time(), *state))
        _, steps, _ = read_log(log_path)
        if sum(kind == "blur" for kind, _ in steps) >= wanted and steps[-1][0] == "blur" \
                and time.time() > steps[-1][1] + 1.0:
            break
        if process is not None and process.poll() is not None:
            break
        if pause:
            time.sleep(pause)
    return samples

"""What scripts/kiosk-test's GTK cells (scripts/osk/kiosk_gtk.py) check
beyond the frame judge, on the app's log (gtk/tests/gtk-app.py: `insetd-frame
[t ms, window height, padding, scroll value, field bottom]`, `insetd-cycle
focus|blur T`, `insetd-im [...]`, `insetd-text TEXT`), against values worked
out by hand:

squeekboard is 172 px tall at 540 wide (wvkbd: the -H 300 the harness starts
it with), so the keyboard's top is at 788 (660). form: content 916 tall, the
last entry at 882..916: offset 916 - 788 = 128 (256), in the shrunk window or
with 960 - 788 = 172 (300) padding in full screen; adw: the last row ends at
888: 100 (228), up to the content's end 912 - 788 = 124 (252), where GTK's
list box scrolls it itself; chat: the entry is in no scrolled window: the
window's child is padded.

On phoc a Gtk.ApplicationWindow has GTK's own title bar (client-side: phoc
offers no org_kde_kwin_server_decoration, which sway offers and GTK 4.8 asks
for), 37 px in GTK's default theme, above the content in the window's
coordinates: the form's last entry ends at 916 + 37 = 953 of the unshrunk
window and its offset is 37 px more. An Adw.ApplicationWindow has none (the
page is its content), nor has a full-screen window.

On GNOME Shell 43 (540x960) the app window is maximized under the Shell's
32 px top bar: 928 tall at y 32, never shrunk, with GTK's title bar as on phoc
(mutter offers no server-side decorations); the Shell's keyboard is 240 tall
at 720 (the extension's KeyboardFrame 0,720 540x240). It covers 960 - 720 = 240 px of the window, so the window
in its own coordinates has the keyboard's top at 720 - 32 = 688: form: padding
240 (the scrolled window ends at the window's bottom) and offset 916 + 37 - 688
= 265; adw: padding 240, offset 888 - 688 = 200 to 912 - 688 = 224. Taking the
window at the screen's top (no placement) puts the keyboard's top 32 px lower
(720 in the window): padding 208 and the field 32 px below the keyboard's top.
"""
import json

from im_frames import KEYBOARD, keyboard_height  # noqa: F401 (kiosk_gtk takes both from here)

HEIGHT = 960
TITLE_BAR = 37
# GNOME Shell's top bar: a maximized window starts below it.
GNOME_TOP_BAR = 32
# The focused field's bottom in the window at offset 0 (no title bar).
UNSCROLLED = {"form": 916, "adw": 888}


def title_bar(compositor, layout, mode):
    return TITLE_BAR if compositor in ("phoc", "gnome", "mir") and layout != "adw" and mode == "app" else 0


def window_height(compositor, mode):
    """The app window's height while no keyboard is up."""
    return HEIGHT - GNOME_TOP_BAR if compositor == "gnome" and mode == "app" else HEIGHT


def shrinks(compositor, mode):
    """Whether the compositor shrinks the app window for the keyboard (else the module pads)."""
    return mode == "app" and compositor != "gnome"


def read_app_log(path):
    frames, steps = [], []
    with open(path, errors="replace") as log:
        for line in log:
            if "insetd-frame " in line:
                frames.append(json.loads(line.split("insetd-frame ", 1)[1]))
            elif "insetd-cycle " in line:
                kind, at = line.split("insetd-cycle ", 1)[1].split()[:2]
                steps.append((kind, int(at)))
    return frames, steps


def module_is_default(text):
    """GTK's default module is this one, by its priority alone (110, above GTK's wayland 100)."""
    return any(line.startswith('insetd-im [["insetd", 110], ["wayland", 100]') for line in text.splitlines())


def check_settled(path, layout, mode, keyboard, compositor="sway"):
    """(problems, lines): each focus, from the first frame with the keyboard
    up (the window shrunk, or padded), ends with the window and padding of
    the mode, the field at or above the keyboard's top and the offset worked
    out by hand; each blur ends with no padding."""
    frames, steps = read_app_log(path)
    # The keyboard's top in the window's coordinates; it reaches the window's bottom.
    height = window_height(compositor, mode)
    top = height - keyboard
    # adw: GtkListBox also scrolls its focused row into view by itself, at
    # most to the content's end (912 - 788 = 124).
    bar = title_bar(compositor, layout, mode)
    offset = {"form": (916 + bar - top, 916 + bar - top), "adw": (888 - top, 912 - top)}.get(layout)
    want = (top, 0) if shrinks(compositor, mode) else (height, height - top)
    bad, ends, ups, covered_total = [], set(), [], 0
    # The layout as worked out: the field's bottom before the first focus.
    first = [f for f in frames if steps and f[0] < steps[0][1] and f[1] == height]
    if layout in UNSCROLLED and first and first[-1][4] != UNSCROLLED[layout] + bar:
        bad.append(f"the field's bottom before the first focus is {first[-1][4]:g}, not {UNSCROLLED[layout] + bar}")
    for i, (kind, at) in enumerate(steps):
        end = steps[i + 1][1] if i + 1 < len(steps) else at + 1500
        during = [f for f in frames if at < f[0] < end]
        if kind == "blur":
            if during and during[-1][2] != 0:
                bad.append(f"blur {i // 2 + 1}: padding {during[-1][2]} left")
            continue
        up = [f for f in during if (f[1], f[2]) == want]
        if not up:
            bad.append(f"focus {i // 2 + 1}: the keyboard never came up: no frame with window {want[0]}, padding "
                       f"{want[1]} (last frame {during[-1] if during else None})")
            continue
        _t, height, margin, value, bottom = during[-1]
        if (height, margin) != want:
            bad.append(f"focus {i // 2 + 1}: window {height}, padding {margin} at the end (want {want[0]}, {want[1]})")
        covered = [f for f in up if f[4] > top + 1]
        covered_total += len(covered)
        if covered and covered[-1] is up[-1]:
            bad.append(f"focus {i // 2 + 1}: field bottom {bottom} below the keyboard's top {top} at the end")
        if offset is not None and not offset[0] - 1 <= value <= offset[1] + 1:
            bad.append(f"focus {i // 2 + 1}: offset {value} (want {offset[0]} to {offset[1]})")
        ends.add((height, margin, value, bottom))
        ups.append(up[0][0] - at)
    if not any(kind == "focus" for kind, _ in steps):
        bad.append("no focus logged")
    lines = []
    if ups:
        ends_text = ", ".join(f"window {h} padding {m} offset {v:g} field bottom {b:g}" for h, m, v, b in sorted(ends))
        lines.append(f"settled {len(ups)} focus(es): {ends_text}; keyboard up in the app {min(ups)}-{max(ups)} ms "
                     f"after the focus; {covered_total} frame(s) with the field covered after that")
    return bad, lines


def check_absent(path, typed=True):
    """No insetd: the app as without the module (no padding), typing works
    (where the test typed)."""
    frames, _ = read_app_log(path)
    with open(path, errors="replace") as f:
        text = f.read()
    bad = []
    if typed and "insetd-text absent\n" not in text:
        bad.append("without insetd typing did not reach the field")
    if len(frames) <= 20:
        bad.append(f"without insetd the app drew {len(frames)} frames")
    if any(f[2] != 0 for f in frames):
        bad.append("without insetd the module padded")
    typing = "; typed 'absent': the field holds it" if typed else ""
    return bad, f"no insetd: {len(frames)} frames, no padding{typing}" if not bad else None


def check_killed(path, killed, restarted, keyboard=KEYBOARD["squeekboard"], typed=True):
    """insetd killed while the full-screen field was padded (times in s): the
    padding goes and stays away while insetd is, typing works; insetd back:
    the next focus is padded again."""
    frames, steps = read_app_log(path)
    with open(path, errors="replace") as f:
        text = f.read()
    focus = [at for kind, at in steps if kind == "focus"]
    killed, restarted = killed * 1000, restarted * 1000
    padded = [f for f in frames if f[0] < killed and f[2] == keyboard]
    away = [f for f in frames if killed + 100 < f[0] < restarted]
    back = [f for f in frames if focus and f[0] > max(restarted, focus[-1]) and f[2] == keyboard
            and f[4] <= HEIGHT - keyboard]
    bad = []
    if typed and "insetd-text killed\n" not in text:
        bad.append("after insetd was killed typing did not reach the field")
    if not padded:
        bad.append("never padded before the kill")
    if not away or any(f[2] for f in away):
        bad.append(f"while insetd was away: {len(away)} frames, padded: {[f for f in away if f[2]][:3]}")
    if not back:
        bad.append("not padded again at the focus after insetd came back")
    return bad, None if bad else (
        f"insetd killed: padded {keyboard} before the kill; {len(away)} frames while insetd was away, none padded; "
        + ("typed 'killed': the field holds it; " if typed else "") + f"insetd back: the last focus padded {keyboard} again, "
        f"field bottom {back[-1][4]:g}")

#!/usr/bin/python3
"""A stock GTK4 / libadwaita app with no insetd code, for scripts/gtk-test.

  gtk-app.py form|chat|adw|notes [--fullscreen|--maximized] [--cycles N] [--period S] [--max-wait S]

form: 15 labelled entries in a Gtk.ScrolledWindow, the last one focused;
notes: a Gtk.TextView at the end of a scrolled box (run by name only);
chat: messages in a Gtk.ScrolledWindow, the entry below it at the window's
bottom; adw: an Adw.PreferencesPage of Adw.EntryRow. The window first focuses
a button (so sway 1.7 tells GTK nothing of text input: no OSK by itself), then
focuses the bottom field and takes the focus away, each held PERIOD seconds
after the keyboard came (or went), starting 0.8 s after its first frame.
--maximized: a maximized window (GNOME Shell's app window, which the Shell
never shrinks for its keyboard: the module pads it, as in full screen).

Test code, not the module's: it logs every frame it draws (GdkFrameClock
after-paint) as scripts/osk/im-frames reads them (frame_rule.py's gtk_frame),
`insetd-frame [t ms, window height, extra bottom margin, scroll value, field bottom]`,
each step as `insetd-cycle focus|blur T`, the input-method modules as `insetd-im`, and the field's text (what a test
types) as `insetd-text TEXT`.
"""
import json
import sys
import time

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402

args = sys.argv[1:]
LAYOUT = args[0]
FULLSCREEN = "--fullscreen" in args
MAXIMIZED = "--maximized" in args
CYCLES = int(args[args.index("--cycles") + 1]) if "--cycles" in args else 5
PERIOD = float(args[args.index("--period") + 1]) if "--period" in args else 1.0
MAX_WAIT = float(args[args.index("--max-wait") + 1]) if "--max-wait" in args else 4.0
if LAYOUT == "adw":
    gi.require_version("Adw", "1")
    from gi.repository import Adw  # noqa: E402

LABELS = ["Name", "Surname", "E-mail", "Phone", "Street", "House number", "Postcode", "City",
          "Country", "Company", "Department", "Badge number", "Visiting", "Licence plate", "Door code"]


def now_ms():
    return round(time.time() * 1000)


def build(win):
    """The window's content; returns (field, scrolled window, the button focused first)."""
    done = Gtk.Button(label="Done", halign=Gtk.Align.START)
    if LAYOUT == "adw":
        page, group = Adw.PreferencesPage(), Adw.PreferencesGroup(header_suffix=done)
        rows = [Adw.EntryRow(title=label) for label in LABELS]
        for row in rows:
            group.add(row)
        page.add(group)
        win.set_content(page)
        return rows[-1], page.get_first_child(), done
    if LAYOUT == "notes":
        # A held-out shape: a GtkTextView at the end of a scrolled box.
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_start=12)
        box.append(done)
        for i in range(24):
            box.append(Gtk.Label(label=f"line {i}", xalign=0))
        view = Gtk.TextView(height_request=60, margin_end=12, margin_bottom=8)
        box.append(view)
        sw = Gtk.ScrolledWindow(vexpand=True, child=box)
        win.set_child(sw)
        view.get_buffer().connect("changed", lambda b: print("insetd-text " + b.get_text(
            b.get_start_iter(), b.get_end_iter(), False), flush=True))
        return view, sw, done
    if LAYOUT == "chat":
        messages = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=12, margin_start=12)
        messages.append(done)
        for i in range(30):
            messages.append(Gtk.Label(label=f"message {i}", xalign=0))
        sw = Gtk.ScrolledWindow(vexpand=True, child=messages)
        entry = Gtk.Entry(margin_start=8, margin_end=8, margin_bottom=8, placeholder_text="Message")
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
        box.append(sw)
        box.append(entry)
        win.set_child(box)
        return entry, sw, done
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=24, margin_top=12, margin_start=12, margin_end=12)
    box.append(done)
    entries = []
    for label in LABELS:
        row, entry = Gtk.Box(spacing=8), Gtk.Entry(hexpand=True)
        row.append(Gtk.Label(label=label, width_chars=13, xalign=0))
        row.append(entry)
        box.append(row)
        entries.append(entry)
    sw = Gtk.ScrolledWindow(vexpand=True, child=box)
    win.set_child(sw)
    return entries[-1], sw, done


def activate(app):
    # The input-method modules GTK loaded, highest priority first: GTK's
    # choice when neither GTK_IM_MODULE nor the gtk-im-module setting names one.
    from gi.repository import Gio
    point = Gio.IOExtensionPoint.lookup("gtk-im-module")
    print("insetd-im " + json.dumps([[e.get_name(), e.get_priority()] for e in point.get_extensions()]
                                    + [["setting", Gtk.Settings.get_default().props.gtk_im_module]]), flush=True)
    win = (Adw.ApplicationWindow if LAYOUT == "adw" else Gtk.ApplicationWindow)(application=app, title="gtk-app")
    field, sw, done = build(win)
    adj = sw.get_vadjustment()
    # Where the module may pad: the scrolled content or the window's child.
    padded = [w for w in (sw.get_child().get_child() if isinstance(sw.get_child(), Gtk.Viewport) else None,
                          win.get_child()) if w is not None]
    own = {id(w): w.get_margin_bottom() for w in padded}

    def after_paint(clock):
        ok, r = field.compute_bounds(win)
        extra = sum(w.get_margin_bottom() - own[id(w)] for w in padded)
        bottom = r.origin.y + r.size.height if ok else -1
        print("insetd-frame " + json.dumps([now_ms(), win.get_height(), extra, round(adj.get_value(), 1),
                                            round(bottom, 1)]), flush=True)

    def mapped(*_):
        win.get_frame_clock().connect("after-paint", after_paint)

    win.connect("map", mapped)
    if isinstance(field, Gtk.Editable):
        field.connect("changed", lambda e: print("insetd-text " + e.get_text(), flush=True))
    win.set_focus(done)
    # The steps start once the window is on the screen at its size (a slow
    # start on a busy machine must not eat the first focus).
    steps = [("focus" if i % 2 == 0 else "blur") for i in range(2 * CYCLES)]

    full_height = [0]

    def keyboard_seen(settled=False):
        # The window shrunk for the keyboard, or (full screen) padded for it.
        # A focus in a window the compositor shrinks is settled once it has
        # shrunk (padded for a moment before: phoc shrinks it after the
        # keyboard's first drawing, and on the first show drew nothing of the
        # app for up to 1.7 s here).
        shrunk = win.get_height() < full_height[0]
        if settled and not (FULLSCREEN or MAXIMIZED):
            return shrunk
        return shrunk or any(w.get_margin_bottom() != own[id(w)] for w in padded)

    def step(i):
        if i == len(steps):
            app.quit()
            return False
        if steps[i] == "focus":
            field.grab_focus()
        else:
            win.set_focus(done)
        print(f"insetd-cycle {steps[i]} {now_ms()}", flush=True)
        if i + 1 == len(steps):
            GLib.timeout_add(1200, step, i + 1)
            return False
        # Each step is held PERIOD seconds once the keyboard has come (after a
        # focus) or gone (after a blur), at most MAX_WAIT s more: a starved machine
        # shows the keyboard late, and a late keyboard is no wrong frame.
        started_at = time.monotonic()

        def wait():
            settled = keyboard_seen(settled=True) if steps[i] == "focus" else not keyboard_seen()
            if settled or time.monotonic() - started_at > MAX_WAIT:
                GLib.timeout_add(int(PERIOD * 1000), step, i + 1)
                return False
            return True

        GLib.timeout_add(50, wait)
        return False

    def first_frame(clock):
        if win.get_height() >= 400 and not started:
            started.append(True)
            full_height[0] = win.get_height()
            GLib.timeout_add(800, step, 0)

    started = []
    win.connect("map", lambda *_: win.get_frame_clock().connect("after-paint", first_frame))
    if FULLSCREEN:
        win.fullscreen()
    elif MAXIMIZED:
        win.maximize()
    win.present()


app = (Adw.Application if LAYOUT == "adw" else Gtk.Application)(application_id="org.example.GtkApp" + LAYOUT.title())
app.connect("activate", activate)
sys.exit(app.run([]))

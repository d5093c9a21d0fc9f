"""kiosk-test --transitions' focus moving between windows (issue 35): a second
window of the kiosk page, another Chromium on sway's workspace 2 as another
app would be, and the user switching between the two with a field focused in
each. Switching hands the text input from one window to the other (Chromium
blurs the field of the window it leaves and focuses it again in the window it
comes back to; both report it to insetd), and the keyboard on the screen
follows. Each window's frames are judged against the screen read all along,
as every other step's (kiosk_transitions.Truth).

What must be true, derived from what the screen shows:
  - in each window, once it is shown: its field focused and above the
    keyboard (padded by the keyboard in full screen, 0 in the shrunk app
    window), as after a focus;
  - no frame of either window has more inset than the keyboard on the screen
    covers of it then (+1 px), but for the OSK's own drops: squeekboard may
    hide at the text-input change and show again when insetd-osk asks (as
    field to field; measured 240 ms in 1 of about 3 runs on a loaded host).
"""
import time

OTHER = "b"  # the second window's name in the page server (the first is "a")


class OtherWindow:
    """The second window for one step: started on workspace 2, switched to and
    back twice, ended (and workspace 1 shown) whatever happens."""

    SWITCHES = 2

    def __init__(self, transitions):
        self.transitions = transitions
        self.run = transitions.run
        self.process = None
        self.cleanup = None
        self.switches = []  # (time, workspace) of each switch, for the step's record

    def __call__(self, name):
        run, session = self.run, self.run.session
        try:
            self.workspace("2")
            self.start()
            ok, _ = run.wait(lambda: ((r := run.page.fresh_report(window=OTHER)) is not None and r.get("connected"), r),
                             timeout=20, interval=0.05)
            if not ok:
                run.fail(name, "the second window's page did not connect to insetd")
                return
            run.page.send("focus", window=OTHER)
            for switch in range(self.SWITCHES):
                if not self.shown(name, OTHER, f"in the second window ({switch + 1})"):
                    return
                self.workspace("1")
                if not self.shown(name, "a", f"back in the first window ({switch + 1})"):
                    return
                if switch + 1 < self.SWITCHES:
                    self.workspace("2")
        finally:
            self.end()
            if session.current_workspace() != "1":
                self.workspace("1")

    def shown(self, name, window, when):
        """The keyboard up with `window`'s field focused, and the page settled on it."""
        run = self.run
        up, zone = run.wait(run.osk_up, timeout=6)
        if not up:
            run.fail(name, f"{when}: the keyboard is not up (zone {zone})")
            return False
        run.zone = zone
        return self.transitions.settled(name, "target", window=window)

    def workspace(self, number):
        self.switches.append((time.time(), number))
        code, out = self.run.session.run("swaymsg", "workspace", number)
        if code != 0:
            raise RuntimeError(f"swaymsg workspace {number}: {out!r}")

    def start(self):
        self.process, self.cleanup = self.run.app.start(self.run, window=OTHER)

    def end(self):
        if self.process is not None:
            self.run.session.processes.stop(self.process)
            self.process = None
            self.cleanup()

    def frames(self):
        """The second window's frames, for the step's judge."""
        return [self.run.app.frame(f) for f in self.run.page.take_frames(window=OTHER)]

"""scripts/kiosk-test's GTK app adapter (--app gtk): stock GTK4 and
libadwaita apps with no insetd code (gtk/tests/gtk-app.py: a form in a
GtkScrolledWindow, a chat with its entry below the message list, an
Adw.PreferencesPage), with insetd's input-method module (gtk/, docs/GTK.md)
picked by its priority alone (GTK_PATH points GTK at this build; no
GTK_IM_MODULE).

These apps cycle focus by themselves (a button first, so that on sway 1.7 only
insetd's decision shows the keyboard, then the bottom field and away, each
step held a period once the keyboard came or went), logging every frame they
draw and each step. A cell (`LAYOUT:MODE[:OSK]`, e.g. `form:app`,
`adw:kiosk:wvkbd`) reads the keyboard on the screen meanwhile, cuts the
cycles with scripts/osk/im_frames.py and gives each to the run's CellJudge
(scripts/osk/frame_rule.py); then checks each focus and blur settled against
values worked out by hand (scripts/osk/kiosk_gtk_checks.py), and for the
form in an app window that typing reaches the field. `hostile[:OSK]` is its own
cell: no insetd, and insetd killed while padded and started again.

The screen's truth: on sway, squeekboard's Visible and sway's workspace (the
zone), wvkbd by its zone alone; on phoc (no IPC), squeekboard's Visible with
its height at 540 wide (172, what insetd-osk measures there), wvkbd by how
much the app window lost (phoc shrinks it for the zone), as kiosk-test reads
phoc for Chromium, and in full screen by its own Wayland log
(im_frames.phoc_reading). On GNOME Shell 43 (app mode: a maximized window
under the top bar, which the Shell never shrinks) the Shell's keyboard through
insetd's extension: Visible, and how much of the focused window (WindowFrame)
the KeyboardFrame covers; no typing there (mutter has no virtual-keyboard
protocol for wtype).
"""
import os
import signal
import subprocess
import threading
import time

from frame_rule import CellJudge, percentile
from kiosk_gtk_checks import KEYBOARD, keyboard_height, check_settled, check_absent, check_killed, module_is_default, window_height
from kiosk_session import read
import im_frames as IM
from osk_surface import ShownHeight, drawn_for
from im_turn import Turn
from processes import descendants

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APP = os.path.join(ROOT, "gtk", "tests", "gtk-app.py")
# What scripts/gtk-test ran before this adapter, in kiosk-test's mode names
# (app: a window the compositor shrinks for the zone; kiosk: full screen).
# chat:app (GTK's own layout keeps the entry above a shrunk window's keyboard;
# the module only reports) runs when named.
DEFAULT_CASES = {"sway": "form:app form:kiosk chat:kiosk adw:app adw:kiosk form:app:wvkbd adw:kiosk:wvkbd hostile turned",
                 "phoc": "form:app adw:app form:kiosk form:app:wvkbd",
                 # GNOME Shell's own keyboard; app: a maximized window under the top bar.
                 "gnome": "form:app adw:app form:kiosk hostile",
                 # Mir 2.12's miral-shell with squeekboard; app: a maximized window, resized for the zone.
                 "mir": "form:app adw:app form:kiosk hostile"}
MODES = {"app": "app", "window": "app", "kiosk": "kiosk", "fullscreen": "kiosk"}


def parse_cases(text, compositor):
    """[(layout, mode, osk)] from `form:app adw:kiosk:wvkbd hostile ...`."""
    if compositor not in DEFAULT_CASES:
        raise SystemExit(f"kiosk-test: --app gtk runs on {' and '.join(DEFAULT_CASES)}, not {compositor}")
    cases = []
    default_osk = "gnome" if compositor == "gnome" else "squeekboard"
    for word in (text or DEFAULT_CASES[compositor]).split():
        # hostile[:OSK], turned[:OSK] (sway): full screen, where the padding is the OSK's height
        if word.split(":")[0] in ("hostile", "turned"):
            cases.append((word.split(":")[0], "kiosk", word.split(":")[1] if ":" in word else default_osk))
            continue
        parts = word.split(":")
        if len(parts) not in (2, 3) or parts[0] not in ("form", "chat", "adw", "notes") or parts[1] not in MODES:
            raise SystemExit(f"kiosk-test: a GTK case is LAYOUT:MODE[:OSK] (form|chat|adw|notes, app|kiosk), not {word!r}")
        cases.append((parts[0], MODES[parts[1]], parts[2] if len(parts) == 3 else default_osk))
    return cases


class Gtk:
    """The GTK apps of a kiosk-test run: which cells, in which order, each a GtkCell."""

    name, title, wm_class = "gtk", "gtk-app", "org.example"
    needs = ["/usr/bin/python3", "/usr/bin/wtype", "/usr/bin/make"]

    def __init__(self, root, insetd_socket, cases, compositor):
        self.root, self.socket = root, insetd_socket
        # How long each step is held once the keyboard came or went (s).
        self.period = float(os.environ.get("GTK_TEST_PERIOD", "1.0"))
        self.cases = parse_cases(cases, compositor)

    def osks(self):
        return list(dict.fromkeys(osk for _, _, osk in self.cases))

    def modes(self):
        return list(dict.fromkeys(mode for _, mode, _ in self.cases))

    def prepare(self):
        """The module and libinsetd, built by make (seconds when up to date)."""
        subprocess.run(["make", "-s", "-C", self.root, "gtk-im"], check=True, stdout=subprocess.DEVNULL)

    def runs(self, args, session, osk, mode, _socket=None):
        cells = {"hostile": GtkHostile, "turned": GtkTurn}
        return [cells.get(layout, GtkCell)(args, session, self, layout, osk, mode)
                for layout, m, o in self.cases if (m, o) == (mode, osk)]

    def spawn(self, session, logname, socket, *app_args):
        """The app, unmodified, with GTK pointed at this build of the module."""
        return session.spawn(
            "gtk", "env", "GDK_BACKEND=wayland", f"GTK_PATH={self.root}/.build-gtk",
            f"LD_LIBRARY_PATH={self.root}/.build-libinsetd", f"INSETD_SOCKET={socket}",
            # GTK_IM_LOG=insetd-gtk: the module's debug lines in the app's log.
            *([f"G_MESSAGES_DEBUG={os.environ['GTK_IM_LOG']}"] if os.environ.get("GTK_IM_LOG") else []),
            "/usr/bin/python3", APP, *app_args, logname=logname)


def typing_works(session):
    """wtype types through the virtual-keyboard protocol: mutter 43 has none,
    and Mir 2.12 ignores the keymap wtype sends ("insetd" arrived as "12345")."""
    return session.compositor not in ("gnome", "mir")


def gnome_reading(shell):
    """("up"|"gone"|"moving", what the Shell's keyboard covers of the focused
    window from its bottom), or None: the extension's Visible, KeyboardFrame
    and WindowFrame, read one after the other."""
    visible = shell.visible()
    if visible is None:
        return None
    if not visible:
        return "gone", 0
    keyboard, window = shell._rect("KeyboardFrame"), shell.window_rect()
    if not keyboard or not window:
        return None
    cover = window["y"] + window["height"] - keyboard[1]
    return ("up", cover) if 0 < cover <= keyboard[3] else ("moving", max(cover, 0))


class GtkCell:
    """One GTK app (layout) in one window mode under one OSK: a fresh app,
    `cycles` focus/blur cycles, every frame judged."""

    def __init__(self, args, session, app, layout, osk, mode):
        self.args, self.session, self.app, self.layout, self.osk, self.mode = args, session, app, layout, osk, mode
        self.cycles = args.cycles
        self.failures, self.latencies, self.drawn, self.notes = [], [], [], []
        self.judge = CellJudge()
        self.seconds = 0.0
        self.log_path = f"{session.dir}/gtk-{layout}-{osk}-{mode}.log"
        self.shown = ShownHeight(f"{session.dir}/{osk}.log")

    @property
    def label(self):
        return f"gtk-{self.layout}"

    def fail(self, text):
        self.failures.append(text)
        print(f"kiosk-test:   FAIL gtk {self.layout}/{self.osk}/{self.mode}: {text}", flush=True)

    def reading(self):
        """("up"|"gone"|"moving", zone) on the screen now, or None."""
        session = self.session
        if session.compositor == "sway":
            return IM.reading(session, self.osk != "squeekboard")
        if session.compositor == "gnome":
            return gnome_reading(session.gnome)
        if session.compositor == "mir":
            return IM.adapter_reading(session)
        return IM.phoc_reading(session, self.osk, self.mode, self.log_path, self.shown, KEYBOARD["squeekboard"])

    def sample(self, process, wanted, deadline):
        """Readings of the screen (before, after, state, zone) until the app
        logged `wanted` focus/blur pairs and a second more, or exited."""
        # Off sway a reading is one busctl, or none: a pause between them.
        return IM.sample(self.reading, self.log_path, wanted, deadline, process,
                         pause=0 if self.session.compositor == "sway" else 0.02)

    def type_after_focus(self, text, nth=1, delay=0.3):
        """Types `text` with wtype (the virtual-keyboard protocol) once the
        app logged its nth focus."""
        def typer():
            deadline = time.time() + 30
            while time.time() < deadline:
                _, steps, _ = IM.read_log(self.log_path)
                if sum(kind == "focus" for kind, _ in steps) >= nth:
                    break
                time.sleep(0.05)
            time.sleep(delay)
            self.session.run("wtype", text)
        thread = threading.Thread(target=typer, daemon=True)
        thread.start()
        return thread

    def start_app(self, socket, *app_args):
        return self.app.spawn(self.session, os.path.basename(self.log_path)[:-4], socket, *app_args)

    def execute(self):
        started = time.time()
        try:
            self.run_cell()
        except Exception as error:
            self.fail(f"error: {error}")
            raise
        finally:
            self.seconds = time.time() - started

    def run_cell(self):
        # GNOME Shell and Mir leave a new window floating at its natural size.
        floats = self.session.compositor in ("gnome", "mir")
        window = ["--fullscreen"] if self.mode == "kiosk" else ["--maximized"] if floats else []
        process = self.start_app(self.app.socket, self.layout, *window, "--cycles", str(self.cycles),
                                 "--period", str(self.app.period))
        try:
            # phoc drew nothing of the app for up to 1.7 s at the first show
            # here, and wtype's keys sent then were lost: it types at the
            # second focus there.
            nth = 2 if self.session.compositor == "phoc" and self.cycles > 1 else 1
            typer = (self.type_after_focus("insetd", nth)
                     if (self.layout, self.mode) == ("form", "app") and typing_works(self.session) else None)
            samples = self.sample(process, self.cycles, time.time() + 6 * self.cycles + 25)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.fail("the app did not end by itself")
            if process.returncode not in (0, None):
                self.fail(f"the app failed ({process.returncode}): {read(self.log_path)[-600:]}")
            if typer:
                typer.join(5)
            self.judge_cycles(samples)
            self.check_app(typer)
        finally:
            self.session.processes.stop(process)

    def judge_cycles(self, samples):
        """Each cycle's frames to the CellJudge, with when the OSK drew the
        keyboard (its Wayland log, for P6)."""
        raw, steps, told = IM.read_log(self.log_path)
        frames = IM.frames_of(raw, told, "gtk")
        if sum(kind == "blur" for kind, _ in steps) < self.cycles:
            self.fail(f"the app logged {len(steps)} focus/blur steps of {2 * self.cycles}")
            return
        log = f"{self.session.dir}/{self.osk}.log"
        for n, f_at, up_at, wrong in IM.judge_cycles(self.judge, frames, steps, samples, self.cycles,
                                                      lambda since, up_at, until: drawn_for(log, since, up_at, until),
                                                      window_height(self.session.compositor, self.mode)):
            if wrong:
                self.fail(f"cycle {n}: more inset than the keyboard on the screen covers: " + "; ".join(wrong))
            if up_at is None:
                self.fail(f"cycle {n}: no reading saw the keyboard up before the blur")
            else:
                self.latencies.append((up_at - f_at) * 1000)
        if self.judge.judged < self.cycles:
            self.fail(f"only {self.judge.judged} frames could be judged")

    def check_app(self, typer):
        with open(self.log_path, errors="replace") as f:
            text = f.read()
        if not module_is_default(text):
            self.fail("the module is not GTK's default (priority 110 above wayland 100)")
        keyboard = keyboard_height(self.osk, self.session.compositor)
        problems, lines = check_settled(self.log_path, self.layout, self.mode, keyboard, self.session.compositor)
        for line in lines:
            self.notes.append(line)
        for p in problems:
            self.fail(p)
        if typer:
            if "insetd-text insetd\n" not in text:
                self.fail("typing did not reach the field")
            else:
                self.notes.append("typed 'insetd' with wtype: the field holds it")

    def summary(self):
        p50, p99 = percentile(self.latencies, 0.5), percentile(self.latencies, 0.99)
        timing = f"focus -> OSK up p50 {p50:.0f} ms, p99 {p99:.0f} ms (n={len(self.latencies)})" if p50 is not None else "no timings"
        verdict = "PASS" if not self.failures else f"FAIL ({len(self.failures)} problems)"
        return (f"{self.session.compositor:5} {self.label:8} {self.osk:11} {self.mode:6} {verdict:22} {self.seconds:.0f} s, {timing}; "
                f"{self.judge.summary()}" + "".join(f"; {n}" for n in self.notes))


class GtkHostile(GtkCell):
    """No insetd (the app unchanged, typing works); insetd killed while the
    full-screen field is padded (the padding goes, the app keeps drawing and
    typing) and started again (the next focus is padded again). On GNOME
    Shell nothing is typed (no virtual-keyboard protocol for wtype)."""

    @property
    def label(self):
        return "gtk-hostile"

    def run_cell(self):
        session, directory = self.session, self.session.dir
        self.log_path = f"{directory}/gtk-hostile-absent-{self.osk}.log"
        typing = typing_works(session)
        # GNOME Shell and Mir leave a new window floating at its natural size: maximized, as in their cells.
        window = [] if typing else ["--maximized"]
        process = self.start_app(f"{directory}/absent.sock", "form", *window, "--cycles", "2", "--max-wait", "0.5",
                                 "--period", str(self.app.period))
        try:
            # phoc's first show can swallow wtype's keys (run_cell): the second focus.
            typer = self.type_after_focus("absent", 2 if session.compositor == "phoc" else 1) if typing else None
            process.wait(timeout=40)
            if typer:
                typer.join(5)
            self.report(check_absent(self.log_path, typing))
        except subprocess.TimeoutExpired:
            self.fail("without insetd the app did not end")
        finally:
            session.processes.stop(process)
        self.log_path = f"{directory}/gtk-hostile-killed-{self.osk}.log"
        process = self.start_app(self.app.socket, "form", "--fullscreen", "--cycles", "3",
                                 "--period", str(self.app.period))
        try:
            insetd = [p for name, p in session.processes.started if name == "insetd"][-1]
            self.wait_steps("focus", 1)
            # Killed while padded: a first show can take a second (insetd-osk
            # and the OSK starting up), so wait for the padding, not a time.
            self.wait_padded(keyboard_height(self.osk, session.compositor))
            time.sleep(0.3)
            # insetd itself, SIGKILL: umockdev-run around it then ends by
            # itself and removes its testbed.
            for pid in descendants(insetd.pid):
                os.kill(pid, signal.SIGKILL)
            insetd.wait(timeout=10)
            killed = time.time()
            if typing:
                self.type_after_focus("killed", nth=2).join(40)
            else:
                self.wait_steps("focus", 2, timeout=40)
                time.sleep(0.3)
            restarted = time.time()
            self.restart_insetd(insetd.args)
            process.wait(timeout=40)
            self.report(check_killed(self.log_path, killed, restarted, keyboard_height(self.osk, session.compositor), typing))
        except subprocess.TimeoutExpired:
            self.fail("the app did not end after insetd was killed")
        finally:
            session.processes.stop(process)

    def wait_steps(self, kind, count, timeout=30):
        deadline = time.time() + timeout
        while time.time() < deadline:
            _, steps, _ = IM.read_log(self.log_path)
            if sum(k == kind for k, _ in steps) >= count:
                return
            time.sleep(0.05)

    def wait_padded(self, padding, timeout=5):
        deadline = time.time() + timeout
        while time.time() < deadline:
            frames, _, _ = IM.read_log(self.log_path)
            if frames and frames[-1][2] == padding:
                return
            time.sleep(0.05)

    def restart_insetd(self, argv):
        """insetd again, as kiosk-test started it (its socket re-made)."""
        log_path = f"{self.session.dir}/insetd.log"
        def started():
            with open(log_path, errors="replace") as f:
                return f.read().count("listening")
        before = started()
        process = self.session.processes.start("insetd", argv, log_path)
        deadline = time.time() + 10
        while started() <= before and time.time() < deadline:
            if process.poll() is not None:
                break
            time.sleep(0.02)
        os.chmod(self.app.socket, 0o666)

    def report(self, result):
        problems, line = result
        for p in problems:
            self.fail(p)
        if line:
            self.notes.append(line)
            print(f"kiosk-test:   {self.label}: {line}", flush=True)

    def summary(self):
        verdict = "PASS" if not self.failures else f"FAIL ({len(self.failures)} problems)"
        return (f"{self.session.compositor:5} {self.label:8} {self.osk:11} {self.mode:6} {verdict:22} {self.seconds:.0f} s, "
                + "; ".join(self.notes))


class GtkTurn(GtkHostile):
    """The output turned to landscape and back under the full-screen form
    with its bottom entry focused (scripts/osk/im_turn.py, sway): the module
    tells insetd of the turn, and the entry ends above the keyboard of each
    orientation, no frame padded beyond it."""

    @property
    def label(self):
        return "gtk-turn"

    def run_cell(self):
        self.log_path = f"{self.session.dir}/gtk-turned-{self.osk}.log"
        # One focus held 8 s after the keyboard came: the turns happen in it.
        process = self.start_app(self.app.socket, "form", "--fullscreen", "--cycles", "1", "--period", "8")
        try:
            self.wait_steps("focus", 1)
            failures, seen = Turn(self.session, self.app.socket, self.reading, self.log_path, "gtk")()
            self.report(([f"turned: {failure}" for failure in failures], f"the screen turned and back: {seen}"))
        finally:
            self.session.processes.stop(process)

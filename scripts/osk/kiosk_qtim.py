"""scripts/kiosk-test's adapter for unmodified Qt apps with QT_IM_MODULE=insetd
(--app qt-im; the plugin in qt/imcontext, docs/QT.md, "Every Qt app, zero code").

The apps are qt/imcontext/tests' Qt Widgets form (a QScrollArea of QLineEdits)
and Qt Quick form (a Flickable of TextFields), with no insetd code: only the
environment loads the plugin. Unlike Chromium and the Insetd module's app they
are not driven by the test's page server: they focus their last field and then
their Done button themselves (`--cycle MS`, as a user would, through no test
hook the plugin could see) and log every frame they draw (`insetd-frame`), what
QInputMethod tells them (`insetd-im`), each step (`insetd-cycle`) and the text
their fields get (`insetd-text`). So a cell here reads the screen's truth
meanwhile (sway's zone and squeekboard's Visible, as kiosk-test's Run does;
phoc as im_frames.phoc_reading reads it) and gives each cycle's frames to the one judge, frame_rule.CellJudge,
with the OSK's own drawing time for P6 (osk_surface); where each step settled
is checked by scripts/osk/im-cycle-check against the keyboard's height derived
by hand (squeekboard 172 at 540 wide, wvkbd's -H).

After the cells of the run's last OSK (on sway with squeekboard, where the
hostile checks have a keyboard whose Visible they can wait for; on phoc with
squeekboard the typing alone): typing with
wtype (the virtual-keyboard protocol, as an OSK's key) reaches each form's
field, also through Debian's ibus behind the plugin (QT_IM_MODULE=insetd:ibus)
while insetd still shows the keyboard; the Insetd module's app (Examples/qt) with the plugin keeps the
module's two views and nothing of the plugin's (nothing applied twice); insetd
killed under the full-screen Widgets form: its margin comes back, the app runs
on and takes typing; no insetd at all: the Quick form runs and takes typing.
Every process is the run's (Session.spawn): kiosk-test ends them all.
"""
import collections
import glob
import json
import os
import re
import signal
import subprocess
import sys
import time

import im_frames
from frame_rule import CellJudge, percentile
from im_turn import Turn
from kiosk_session import OUTPUT, insetd_status
from osk_surface import ShownHeight, drawn_for
from processes import descendants

HERE = os.path.dirname(os.path.abspath(__file__))
QML = "/usr/lib/qt6/bin/qml"
HALF_MS = 1200  # between a focus and its blur: the OSK comes and goes in each half
# The keyboard's height at 540 wide, by hand: squeekboard's exclusive zone;
# wvkbd's is its -H (kiosk-test's WVKBD_HEIGHTS[0]).
KEYBOARD = im_frames.KEYBOARD


class Kind:
    """One of the two stock forms, as the run's summary names it."""

    def __init__(self, name):
        self.name = name


class QtIm:
    """The adapter: builds the plugin and the forms, starts a form in a run's
    session, gives kiosk-test its cells (ImRun) and its hostile checks (Checks)."""

    name, title, wm_class = "qt-im", "widgets-form", "qml"
    needs = [QML, "/usr/bin/cmake", "/usr/bin/wtype",
             "/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqwayland-generic.so"]

    def __init__(self, root, insetd_socket, bin_dir):
        self.root, self.socket, self.bin = root, insetd_socket, bin_dir
        self.build = os.path.join(root, ".build-qt-im")
        self.module_build = os.path.join(root, ".build-qt")

    def prepare(self):
        """The plugin and the Widgets form; the Insetd module, for the app that has it."""
        for source, build, extra in ((os.path.join(self.root, "qt", "imcontext"), self.build, ["-DINSETD_IM_TESTS=ON"]),
                                     (os.path.join(self.root, "qt"), self.module_build, [])):
            subprocess.run(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo", *extra],
                           check=True, stdout=subprocess.DEVNULL)
            subprocess.run(["cmake", "--build", build, "-j2"], check=True, stdout=subprocess.DEVNULL)

    def start(self, session, kind, *args, logname, socket=None, env=()):
        """A fresh form (widgets|quick|module) with the plugin; only the
        environment says insetd. as-session execs down to the app."""
        command = {"widgets": [os.path.join(self.build, "widgets-form")],
                   "quick": [QML, os.path.join(self.root, "qt", "imcontext", "tests", "quick-form.qml"), "--"],
                   "module": [QML, os.path.join(self.root, "Examples", "qt", "main.qml"), "--"]}[kind]
        return session.spawn(
            # No client-side title bar (phoc offers none server-side), as in
            # a kiosk: Qt cannot tell anyone where the window's content starts.
            kind, "env", "QT_QPA_PLATFORM=wayland", "QT_WAYLAND_DISABLE_WINDOWDECORATION=1", "QT_IM_MODULE=insetd",
            f"QT_PLUGIN_PATH={self.build}/plugins", f"QML_IMPORT_PATH={self.module_build}",
            f"INSETD_SOCKET={socket or self.socket}", *env, *([f"QT_LOGGING_RULES={os.environ['QTIM_LOG']}"] if os.environ.get("QTIM_LOG") else []), *command, *args, logname=logname)

    def runs(self, args, session, osk, mode, _socket):
        # QT_IM_FORMS=widgets: one form only (a cell scripts/test adds within its time).
        # QT_IM_FORMS= (empty): none, for running the checks alone.
        kinds = [k for k in os.environ.get("QT_IM_FORMS", "widgets,quick").split(",") if k]
        return [ImRun(self, args, session, osk, mode, kind) for kind in kinds]

    def checks(self, args, session, osk, insetd):
        if osk != "squeekboard" or session.compositor not in ("sway", "phoc"):
            return []
        # phoc: typing only (the others do not depend on the compositor).
        return [Checks(self, args, session, osk, insetd, only_typing=session.compositor == "phoc")]


class ImRun:
    """One form in one window mode under one OSK: `cycles` focus/blur cycles
    the form makes itself, every frame judged, every step's end checked."""

    def __init__(self, adapter, args, session, osk, mode, kind):
        self.adapter, self.args, self.session, self.osk, self.mode, self.kind = adapter, args, session, osk, mode, kind
        self.app = Kind(f"qt-{kind}")
        self.failures, self.latencies, self.drawn = [], [], []
        self.judge = CellJudge()
        self.log_path = f"{session.dir}/qtim-{kind}-{osk}-{mode}.log"
        self.shown = ShownHeight(f"{session.dir}/{osk}.log")

    def fail(self, text):
        self.failures.append(text)
        print(f"kiosk-test:   FAIL {self.app.name}/{self.osk}/{self.mode}: {text}", flush=True)

    def reading(self):
        """("up"|"gone"|"moving", zone) of the keyboard on the screen, or None:
        sway's workspace zone (and squeekboard's Visible where it runs);
        phoc, which has no IPC: im_frames.phoc_reading."""
        if self.session.compositor == "phoc":
            return im_frames.phoc_reading(self.session, self.osk, self.mode, self.log_path, self.shown,
                                          KEYBOARD["squeekboard"])
        if self.session.compositor in ("mir", "kwin"):
            return im_frames.adapter_reading(self.session)
        return im_frames.reading(self.session, self.osk != "squeekboard")

    def drawn_at(self, since, up_at, until):
        """When the OSK drew the keyboard that was up when the test saw it (its
        Wayland log): the last drawing by then, else the first after."""
        return drawn_for(f"{self.session.dir}/{self.osk}.log", since, up_at, until)

    def execute(self):
        cycles = self.args.cycles
        extra = ["--fullscreen"] if self.mode == "kiosk" else []
        process = self.adapter.start(self.session, self.kind, "--cycle", str(HALF_MS), *extra,
                                     logname=os.path.basename(self.log_path)[:-4])
        try:
            samples = im_frames.sample(self.reading, self.log_path, cycles, time.time() + 3 * cycles + 20, process)
            if process.poll() is not None:
                self.fail("the app is gone")
            self.judge_cells(samples, cycles)
            self.check_steps(cycles, samples)
        finally:
            self.session.processes.stop(process)

    def judge_cells(self, samples, wanted):
        raw, steps, told = im_frames.read_log(self.log_path)
        if sum(k == "blur" for k, _ in steps) < wanted:
            self.fail(f"the app logged {len(steps)} focus/blur steps of {2 * wanted}")
            return
        frames = im_frames.frames_of(raw, told, "qt-im")
        for n, f_at, up_at, wrong in im_frames.judge_cycles(self.judge, frames, steps, samples, wanted, self.drawn_at):
            if up_at is None:
                self.fail(f"cycle {n}: no reading saw the keyboard up before the blur")
            else:
                self.latencies.append((up_at - f_at) * 1000)
            if wrong:
                self.fail(f"cycle {n}: more inset than the keyboard on the screen covers: " + "; ".join(wrong))
        # Qt draws only what changes: at least one judged frame a cycle.
        if self.judge.judged < wanted:
            self.fail(f"only {self.judge.judged} frames could be judged")

    def check_steps(self, cycles, samples):
        """Where each step settled: scripts/osk/im-cycle-check against the
        keyboard's height by hand, or where none is known (maliit, laid out by
        KWin) the height the screen's readings saw it up at most often (maliit
        drops its word row now and then for a moment)."""
        keyboard = im_frames.keyboard_height(self.osk, self.session.compositor)
        if keyboard is None:
            seen = collections.Counter(zone for *_, state, zone in samples if state == "up")
            if not seen:
                self.fail("no reading of the screen saw the keyboard up: no height to check the steps against")
                return
            keyboard = seen.most_common(1)[0][0]
        argv = [os.path.join(HERE, "im-cycle-check"), self.log_path, str(cycles), "--keyboard", str(keyboard)]
        result = subprocess.run(argv + (["--fullscreen"] if self.mode == "kiosk" else []), capture_output=True, text=True)
        if result.returncode != 0:
            self.fail(result.stdout.strip() or result.stderr.strip())

    def summary(self):
        p50, p99 = percentile(self.latencies, 0.5), percentile(self.latencies, 0.99)
        timing = f"focus -> OSK up p50 {p50:.0f} ms, p99 {p99:.0f} ms (n={len(self.latencies)})" if p50 is not None else "no timings"
        verdict = "PASS" if not self.failures else f"FAIL ({len(self.failures)} problems)"
        return (f"{self.session.compositor:5} {self.app.name:10} {self.osk:11} {self.mode:6} {verdict:22} "
                f"{timing}; {self.judge.summary()}")


class Checks:
    """The checks beside the cells: typing, typing through ibus, the module
    app, insetd killed and absent. Each failure is the run's."""

    def __init__(self, adapter, args, session, osk, insetd, only_typing=False):
        self.adapter, self.args, self.session, self.osk, self.insetd = adapter, args, session, osk, insetd
        self.steps = (self.typing,) if only_typing else (
            self.typing, self.inner, self.module, self.turned, self.killed, self.absent)
        # QT_IM_CHECKS=inner,killed: only those (a check looked at alone).
        if os.environ.get("QT_IM_CHECKS"):
            wanted = os.environ["QT_IM_CHECKS"].split(",")
            self.steps = tuple(step for step in self.steps if step.__name__ in wanted)
        self.mode, self.app = "checks", Kind("qt-im")
        self.failures, self.latencies, self.drawn, self.passed = [], [], [], []
        self.judge = CellJudge()
        self.started = 0

    def fail(self, text):
        self.failures.append(text)
        print(f"kiosk-test:   FAIL qt-im checks: {text}", flush=True)

    def ok(self, text):
        self.passed.append(text)
        print(f"kiosk-test:   {text}", flush=True)

    def start(self, kind, *args, socket=None, env=()):
        self.started += 1
        self.log = f"{self.session.dir}/qtim-check-{kind}-{self.started}.log"
        return self.adapter.start(self.session, kind, *args, socket=socket, env=env,
                                  logname=os.path.basename(self.log)[:-4])

    def lines(self, marker):
        try:
            with open(self.log, errors="replace") as f:
                return [line.split(marker, 1)[1].strip() for line in f if marker in line]
        except OSError:
            return []

    def wait_for(self, seconds, test):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if test():
                return True
            time.sleep(0.1)
        return False

    def typed(self, text, seconds=5):
        self.session.run("wtype", text)
        return self.wait_for(seconds, lambda: f"field16 {text}" in self.lines("insetd-text "))

    def execute(self):
        for step in self.steps:
            try:
                step()
            except Exception as error:  # noqa: BLE001: the step's failure, the next still runs
                self.fail(f"{step.__name__}: {error}")

    def typing(self):
        """wtype's keys (what squeekboard's keys are without text-input) reach
        the focused field through the plugin."""
        for kind in ("widgets", "quick"):
            process = self.start(kind, "--hold")
            try:
                self.wait_for(5, lambda: self.session.squeekboard_visible())
                # phoc drew nothing of a GTK app for up to 1.7 s at a first
                # show, losing the keys sent then (docs/GTK.md): a second's pause.
                if self.session.compositor == "phoc":
                    time.sleep(1.0)
                if self.typed("hello qt"):
                    self.ok(f"{kind}: typed 'hello qt' into field16")
                else:
                    self.fail(f"{kind}: typed text did not reach the field")
            finally:
                self.session.processes.stop(process)

    def inner(self):
        """The user's own input method behind the plugin (QT_IM_MODULE=insetd:ibus):
        Debian's ibus-daemon in the session, on a bus address of the run's;
        wtype's keys reach the field through Qt's ibus context (its debug
        lines say it filtered them and ibus answered), and insetd still gets
        the focus: it shows squeekboard, which nothing else shows for Qt 6.4."""
        if not os.access("/usr/bin/ibus-daemon", os.X_OK):
            self.fail("inner: ibus-daemon is missing (scripts/bootstrap installs ibus)")
            return
        daemon = self.session.spawn("ibus", "ibus-daemon", "--panel=disable", "--single", "--address", self.ibus_address)
        try:
            # Qt keeps an ibus context only when ibus answers at the app's
            # start, and reconnects when ibus's address file changes: the app
            # starts once both are there and ibus answers on its bus.
            if not self.wait_for(10, self.ibus_ready):
                self.fail("inner: ibus-daemon did not start")
                return
            first = self.type_through_ibus("via ibus")
            if first is None:
                return
            # One more app when the first lost the keys: what Qt's ibus
            # context does at its start is ibus's and Qt's, and is said here;
            # a second loss is the run's failure.
            print(f"kiosk-test:   note: inner, first app: {first}", flush=True)
            second = self.type_through_ibus("via ibus")
            if second is not None:
                self.fail(f"inner, twice: {first}; then {second}")
        finally:
            self.session.processes.stop(daemon)

    @property
    def ibus_address(self):
        """The run's own bus of ibus-daemon (`inner`)."""
        return f"unix:path={self.session.dir}/ibus.sock"

    def ibus_ready(self):
        files = glob.glob(f"{self.session.dir}/config/ibus/bus/*-unix-wayland-*")
        if not (os.path.exists(f"{self.session.dir}/ibus.sock") and files):
            return False
        code, _ = self.session.run("busctl", f"--address={self.ibus_address}", "call",
                                   "org.freedesktop.IBus", "/org/freedesktop/IBus", "org.freedesktop.DBus.Peer", "Ping")
        return code == 0

    def type_through_ibus(self, text):
        """A Widgets form on the plugin and ibus: None when `text` reached its
        field through ibus, else what was seen."""
        process = self.start("widgets", "--hold", env=(
            "QT_IM_MODULE=insetd:ibus", f"IBUS_ADDRESS={self.ibus_address}", "QT_LOGGING_RULES=qt.qpa.input.methods.debug=true"))
        try:
            shown = self.wait_for(8, lambda: self.session.squeekboard_visible())
            typed = self.typed(text, seconds=8)
            with open(self.log, errors="replace") as f:
                log = f.read()
            passing = "passing input to ibus" in log
            filtered = log.count("filterEvent")
            handled = len(re.findall(r"filterEvent\S* return .* true", log))
            if shown and typed and passing and filtered:
                self.ok(f"through ibus: squeekboard shown, '{text}' typed, {filtered} key events filtered by ibus")
                return None
            got = [line for line in self.lines("insetd-text ") if line.startswith("field16 ")]
            return (f"squeekboard shown {shown}, typed {typed}, plugin passing to ibus {passing}, "
                    f"ibus filtered {filtered} events ({handled} kept by ibus), "
                    f"the field's text {got[-1][8:] if got else None!r} (log {os.path.basename(self.log)})")
        finally:
            self.session.processes.stop(process)

    def module(self):
        """Examples/qt (the Insetd module, `Insetd.follow` on its form) with
        the plugin: the module reports and applies, the plugin stands back.
        Four clients (insetd-osk, the module, the plugin, this status) and
        the module's two views (its form and its list page), not a third."""
        process = self.start("module", "--focus-last", "--report")
        try:
            def settled():
                reports = self.lines("insetd-report ")
                r = json.loads(reports[-1]) if reports else None
                # Settled: the shrunk window's form with no margin of the
                # plugin's (the module's own inset is 0 where nothing covers).
                return r and r["focused"] == "field12" and r["windowHeight"] < OUTPUT[1] \
                    and r["fieldBottom"] <= r["windowHeight"] and r["bottomMargin"] == 0
            settled_ok = self.wait_for(10, settled)
            status = insetd_status(self.adapter.socket, "qt-im-checks")
            report = self.lines("insetd-report ")[-1] if self.lines("insetd-report ") else "{}"
            r = json.loads(report)
            if not settled_ok:
                self.fail(f"the module app did not settle: {report}")
            elif status["clients"] != 4 or status["views"] != 2:
                self.fail(f"with the module and the plugin insetd has {status['clients']} clients and "
                          f"{status['views']} views, want 4 and 2 (the module's)")
            else:
                self.ok(f"Insetd module app: 4 clients, 2 views (the module's), field in the shrunk window: {report}")
        finally:
            self.session.processes.stop(process)

    def turned(self):
        """The output turned to landscape and back under the full-screen
        Widgets form with field16 focused (scripts/osk/im_turn.py): the
        plugin tells insetd of the turn, and the field ends above the
        keyboard of each orientation, no frame padded beyond it."""
        process = self.start("widgets", "--fullscreen", "--hold")
        try:
            reading = lambda: im_frames.reading(self.session, self.osk != "squeekboard")  # noqa: E731
            failures, seen = Turn(self.session, self.adapter.socket, reading, self.log, "qt-im")()
            for failure in failures:
                self.fail(f"turned: {failure}")
            if not failures:
                self.ok(f"the screen turned and back: {seen}")
        finally:
            self.session.processes.stop(process)

    def margin(self):
        frames = self.lines("insetd-frame ")
        return json.loads(frames[-1])[2] if frames else None

    def killed(self):
        """insetd killed under the full-screen Widgets form with the keyboard's
        margin applied: the margin comes back (0), the app runs on, typing works.
        The QScrollArea's viewport ends 1 px above the window's bottom (its
        frame): squeekboard covers 172 - 1 of it."""
        want = KEYBOARD[self.osk] - 1
        process = self.start("widgets", "--fullscreen", "--hold")
        try:
            if not self.wait_for(5, lambda: self.margin() == want):
                self.fail(f"no {want} px margin before the kill: {self.margin()}")
                return
            # insetd runs under umockdev-run: the daemon itself is its child.
            for pid in [self.insetd.pid] + descendants(self.insetd.pid):
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == "insetd":
                        os.kill(pid, signal.SIGKILL)
            if not self.wait_for(3, lambda: self.margin() == 0):
                self.fail(f"margin not restored after insetd died: {self.margin()}")
            elif not self.typed("still typing"):
                self.fail("typing stopped with insetd gone")
            else:
                time.sleep(1)
                if process.poll() is not None:
                    self.fail("the app died with insetd")
                else:
                    self.ok(f"insetd killed: the app kept running, margin {want} -> 0, typing works")
        finally:
            self.session.processes.stop(process)

    def absent(self):
        """No insetd at all (a socket that is not there): the Quick form runs,
        takes focus and text; libinsetd retries quietly."""
        process = self.start("quick", "--hold", socket=f"{self.session.dir}/absent.sock")
        try:
            self.wait_for(5, lambda: any(json.loads(f)[4] >= 0 for f in self.lines("insetd-frame ")))
            if not self.typed("no insetd"):
                self.fail("without insetd: typing did not reach the field")
            else:
                time.sleep(1)
                if process.poll() is not None:
                    self.fail("without insetd: the app died")
                else:
                    self.ok(f"without insetd: the app ran ({len(self.lines('insetd-frame '))} frames), typing works")
        finally:
            self.session.processes.stop(process)

    def summary(self):
        verdict = "PASS" if not self.failures else f"FAIL ({len(self.failures)} problems)"
        names = {"typing": "typing x2", "inner": "through ibus", "module": "module app", "turned": "turned",
                 "killed": "insetd killed", "absent": "insetd absent"}
        count = sum(2 if step.__name__ == "typing" else 1 for step in self.steps)
        wanted = f"{count} checks: " + ", ".join(names[step.__name__] for step in self.steps)
        return (f"{self.session.compositor:5} {self.app.name:10} {self.osk:11} {self.mode:6} {verdict:22} "
                f"{len(self.passed)} of {wanted}")

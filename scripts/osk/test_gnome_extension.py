"""insetd's GNOME Shell extension in a real GNOME Shell 43 (headless, as
scripts/kiosk-test starts it): the hold a bridge puts on the keyboard while a
hardware keyboard is usable (SetHardwareKeyboard). While it holds, the
keyboard does not open, asked or not; it ends when its caller says so or
leaves the bus, so a bridge that crashes cannot leave the Shell without its
keyboard. Needs root (the session runs as an unprivileged uid) and GNOME Shell;
skips without either.
  python3 -m unittest scripts/osk/test_gnome_extension.py
"""
import os
import shutil
import sys
import tempfile
import textwrap
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_session import Session, read  # noqa: E402
from processes import Processes  # noqa: E402

# One bus connection for the whole script: the hold is this process's while it
# runs. Prints what it read, one word a line.
CLIENT = textwrap.dedent("""
    import sys, time
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    NAME, PATH, IFACE = 'org.insetd.Shell1', '/org/insetd/Shell1', 'org.insetd.Shell1'
    def call(method, args=None):
        bus.call_sync(NAME, PATH, IFACE, method, args, None, Gio.DBusCallFlags.NONE, 5000, None)
    def get(name):
        reply = bus.call_sync(NAME, PATH, 'org.freedesktop.DBus.Properties', 'Get',
                              GLib.Variant('(ss)', (IFACE, name)), None, Gio.DBusCallFlags.NONE, 5000, None)
        return reply.unpack()[0]
    def settles(name, value, seconds=3.0):
        # The property once it is `value`, or when `seconds` are up.
        deadline = time.time() + seconds
        while get(name) != value and time.time() < deadline:
            time.sleep(0.05)
        return get(name)
    for step in sys.argv[1:]:
        if step == 'hold':
            call('SetHardwareKeyboard', GLib.Variant('(b)', (True,)))
        elif step == 'release':
            call('SetHardwareKeyboard', GLib.Variant('(b)', (False,)))
        elif step == 'show':
            call('Show')
        elif step == 'hide':
            call('Hide')
            settles('Visible', False)
        elif step == 'ask-hide':
            call('Hide')
        elif step == 'closes?':
            print('opened' if settles('Visible', False) else 'closed')
        elif step == 'wait':
            print('waiting', flush=True)
            time.sleep(60)
        elif step == 'held?':
            print('held' if get('HardwareKeyboard') else 'free')
        elif step == 'freed?':
            # The Shell hears a caller leave the bus a moment after it left.
            print('held' if settles('HardwareKeyboard', False) else 'free')
        elif step == 'opens?':
            # GNOME 43 opens 300 ms after the ask, then slides 150 ms.
            print('opened' if settles('Visible', True, 1.5) else 'closed')
""")


@unittest.skipUnless(os.getuid() == 0 and shutil.which("gnome-shell"), "needs root and GNOME Shell")
class GnomeExtensionHold(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="gnome-extension-test-")
        os.chmod(cls.directory, 0o755)
        cls.processes = Processes(cls.directory)
        cls.session = Session(cls.directory, cls.processes, compositor="gnome")
        try:
            cls.session.start()
        except Exception:
            cls.tearDownClass()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.processes.stop_all()
        shutil.rmtree(cls.directory, ignore_errors=True)

    def client(self, *steps):
        code, out = self.session.run("python3", "-c", CLIENT, *steps, timeout=20)
        self.assertEqual(code, 0, out)
        return out.decode().split()

    def test_a_held_keyboard_does_not_open_and_the_hold_ends_with_its_caller(self):
        # Held: asked to open, it stays closed.
        self.assertEqual(self.client("hold", "held?", "show", "opens?"), ["held", "closed"])
        # That caller has left the bus: the hold went with it.
        self.assertEqual(self.client("freed?", "show", "opens?", "hide"), ["free", "opened"])

    def test_a_hold_lifted_by_its_caller(self):
        self.assertEqual(self.client("hold", "release", "held?", "show", "opens?", "hide"), ["free", "opened"])

    def test_a_second_hold_by_the_same_caller_is_one_hold(self):
        self.assertEqual(self.client("hold", "hold", "release", "held?"), ["free"])

    def test_a_keyboard_up_when_the_hold_comes_still_closes(self):
        # A hardware keyboard plugged in with the keyboard up: insetd-osk asks
        # it to hide and holds it, the hold while the close is under way.
        self.assertEqual(self.client("show", "opens?", "ask-hide", "hold", "closes?", "release"), ["opened", "closed"])
        self.assertEqual(self.client("show", "opens?", "hold", "ask-hide", "closes?", "release"), ["opened", "closed"])

    def test_each_caller_holds_its_own(self):
        first = self.session.spawn("holder", "python3", "-c", CLIENT, "hold", "wait")
        try:
            log = f"{self.directory}/holder.log"
            deadline = time.time() + 10
            while "waiting" not in read(log) and time.time() < deadline:
                time.sleep(0.05)
            self.assertIn("waiting", read(log))
            # A second caller's release leaves the first one's hold.
            self.assertEqual(self.client("hold", "release", "held?", "show", "opens?"), ["held", "closed"])
        finally:
            self.processes.stop(first)
        self.assertEqual(self.client("freed?"), ["free"])


if __name__ == "__main__":
    unittest.main()

"""scripts/kiosk-test's Qt app adapter (--app qt): Examples/qt/main.qml, the
form app written with the Insetd QML module (docs/QT.md), on Qt's Wayland
platform, driven by scripts/osk/kiosk_qt.qml.

The driver speaks the kiosk page's protocol to the run's PageServer (a report
of the app's state and its frames every ~15 ms, a focus or blur command back),
so the run's cycles, checks and frame judge are the ones Chromium gets. The
module talks to insetd over its Unix socket (INSETD_SOCKET).

Window modes: full screen (the test's `kiosk`) is Window.FullScreen; the app
window is sway's tiled window, phoc's maximized one, and Window.Maximized
where the compositor leaves a new window floating (KWin, Mir, GNOME). Qt's
own title bar (drawn where the compositor offers no server-side decoration:
Mir, GNOME) is turned off, as in a kiosk: Qt places its window at 0,0 and
cannot tell a title bar's height to insetd.
"""
import os
import subprocess

QML = "/usr/lib/qt6/bin/qml"


class Qt:
    """The Qt app in one run's session."""

    name, title, wm_class = "qt", "insetd form", "qml"
    # Where --transitions moves the focus from the last field: the middle, then the top.
    other_fields = ("field6", "field0")
    needs = [QML, "/usr/bin/cmake",
             "/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqwayland-generic.so"]

    def __init__(self, root, insetd_socket):
        self.root = root
        self.socket = insetd_socket
        self.build = os.path.join(root, ".build-qt")

    @staticmethod
    def frame(raw):
        from frame_rule import qt_frame
        return qt_frame(raw)

    def prepare(self):
        """The Insetd module, built as docs/QT.md says (CMake; a few seconds
        when it is up to date)."""
        subprocess.run(["cmake", "-S", os.path.join(self.root, "qt"), "-B", self.build,
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", self.build, "-j2"], check=True, stdout=subprocess.DEVNULL)

    def start(self, run):
        """(process, clean-up) of a fresh app: as-session execs down to qml."""
        if run.mode == "kiosk":
            window = "fullscreen"
        else:
            window = "maximized" if run.session.compositor in ("kwin", "mir", "gnome") else "tiled"
        url = f"http://127.0.0.1:{run.page.port}/poll"
        process = run.session.spawn(
            "qt", "env", "QT_QPA_PLATFORM=wayland", "QT_WAYLAND_DISABLE_WINDOWDECORATION=1",
            f"INSETD_SOCKET={self.socket}", f"QML_IMPORT_PATH={self.build}",
            # QT_LOG=insetd.debug=true: the module's debug lines, stamped, in the app's log.
            # Qt logs to the journal, not stderr, unless told to.
            *([f"QT_LOGGING_RULES={os.environ['QT_LOG']}", "QT_FORCE_STDERR_LOGGING=1",
               "QT_MESSAGE_PATTERN=%{time yyyy-MM-ddThh:mm:ss.zzz} %{message}"]
              if os.environ.get("QT_LOG") else []),
            QML, os.path.join(self.root, "scripts", "osk", "kiosk_qt.qml"), "--",
            url, os.path.join(self.root, "Examples", "qt", "main.qml"), window,
            logname=f"qt-{run.osk}-{run.mode}")
        return process, lambda: None

"""Every process a real-stack test starts, and how it ends them (scripts/kiosk-test,
scripts/extension-test): by recorded pids and their recorded descendants, then
whatever still carries the run's private directory in its environment
(helpers the session bus activated)."""
import os
import signal
import subprocess
import time


def children_of():
    """pid -> [child pids], from /proc."""
    tree = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid):
    tree, found, todo = children_of(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


class Processes:
    """Everything the run started, and how to end it: SIGTERM to the top
    process, up to `grace` seconds, then SIGKILL to it and to every descendant
    recorded before the SIGTERM (Chromium's zygotes die badly if killed first)."""

    def __init__(self, directory):
        self.directory = directory
        self.started = []  # (name, Popen)

    def start(self, name, argv, logfile, **kwargs):
        out = open(logfile, "ab")
        process = subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL, **kwargs)
        out.close()
        self.started.append((name, process))
        return process

    def stop(self, process, grace=5.0, sig=signal.SIGTERM):
        if process.poll() is not None:
            for pid in descendants(process.pid):
                self._kill(pid, signal.SIGKILL)
            return
        recorded = descendants(process.pid)
        self._kill(process.pid, sig)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._kill(process.pid, signal.SIGKILL)
            process.wait()
        recorded += descendants(process.pid)
        for pid in recorded:
            self._kill(pid, signal.SIGKILL)
        self.started = [(n, p) for n, p in self.started if p is not process]

    @staticmethod
    def _kill(pid, sig):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass

    def stop_all(self):
        for _, process in reversed(list(self.started)):
            self.stop(process, grace=3.0)
        # What the session bus activated (its own children are gone with it; a
        # helper that outlived it was reparented): ours by the run's directory.
        swept = []
        for _ in range(3):
            for entry in os.listdir("/proc"):
                if not entry.isdigit() or int(entry) == os.getpid():
                    continue
                try:
                    with open(f"/proc/{entry}/environ", "rb") as f:
                        environment = f.read().split(b"\0")
                except OSError:
                    continue
                mark = self.directory.encode()
                if any(v.endswith(b"=" + mark) or (b"=" + mark + b"/") in v for v in environment) and alive(int(entry)):
                    swept.append(int(entry))
                    self._kill(int(entry), signal.SIGKILL)
            time.sleep(0.1)
        self.unmount()
        return swept

    def unmount(self):
        """A FUSE file system a helper mounted in the run's directory (the
        document portal GTK and Chromium have the session bus start, at
        xdg/doc) outlives the helper: detached, so the directory can go."""
        try:
            with open("/proc/self/mounts") as f:
                points = [line.split()[1] for line in f]
        except OSError:
            return
        for point in reversed(points):
            point = point.replace("\\040", " ")
            if point.startswith(self.directory.rstrip("/") + "/"):
                subprocess.run(["umount", "-l", point], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

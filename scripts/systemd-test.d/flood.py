#!/usr/bin/python3
"""Holds unfinished connections on insetd's WebSocket port, as a hostile local
program would: the abuse tests' flood (Tests/InsetServerTests/WebSocketFloodTests
and scripts/systemd-test, docs/RELIABILITY.md).

    flood.py PORT STALLED SILENT SECONDS REPORT

opens STALLED connections to 127.0.0.1:PORT that send half an HTTP request and
SILENT ones that send nothing, waits until insetd has taken them all from the
kernel's queue (its listener's queue may hold every one of them at once),
appends `held N failed F` to REPORT, holds them
for SECONDS, appends `closed C of N` (how many insetd closed meanwhile), lets
them go and appends `released`.
"""
import os
import resource
import socket
import sys
import time

port, stalled, silent, hold, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
# None of the parent's descriptors, and as many of its own as the hard limit allows.
os.closerange(3, 65536)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def report(line):
    with open(out, "a") as f:
        f.write(line + "\n")


held, failed = [], 0
for i in range(stalled + silent):
    s = socket.socket()
    s.settimeout(5)
    try:
        s.connect(("127.0.0.1", port))
        if i < stalled:
            s.send(b"GET /insetd.js HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(s)
    except OSError:
        failed += 1
        s.close()


def accept_queue():
    """Connections waiting in the kernel's queue of the loopback listener on
    PORT: /proc/net/tcp's receive queue of a listening (0A) socket."""
    local = "0100007F:%04X" % port
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            if fields[1] == local and fields[3] == "0A":
                return int(fields[4].split(":")[1], 16)
    return None


deadline = time.monotonic() + 60
while accept_queue() != 0 and time.monotonic() < deadline:
    time.sleep(0.05)
report("held %d failed %d" % (len(held), failed))
time.sleep(hold)
closed = 0
for s in held:
    s.setblocking(False)
    try:
        if s.recv(65536) == b"":
            closed += 1
    except BlockingIOError:
        pass
    except OSError:
        closed += 1
report("closed %d of %d" % (closed, len(held)))
for s in held:
    s.close()
report("released")

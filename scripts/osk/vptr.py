#!/usr/bin/env python3
"""Gives a headless phoc its seat: phoc (0.24) creates seat0 only when an input
device appears, and squeekboard and Chromium need a wl_seat. A minimal Wayland
client on the raw wire protocol that asks for a virtual pointer with a null
seat and stays connected (the device lives as long as the client).
Recipe from /work/shared/hil/KIOSK-MATRIX.md."""
import os
import socket
import struct
import sys

s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"]))


def send(obj, op, payload=b""):
    s.sendall(struct.pack("<IHH", obj, op, 8 + len(payload)) + payload)


def wstr(text):
    b = text.encode() + b"\0"
    b += b"\0" * ((4 - len(b) % 4) % 4)
    return struct.pack("<I", len(text) + 1) + b


send(1, 1, struct.pack("<I", 2))  # wl_display.get_registry -> id 2
send(1, 0, struct.pack("<I", 3))  # wl_display.sync -> callback id 3
buf, globs, done = b"", {}, False
while not done:
    chunk = s.recv(65536)
    if not chunk:
        sys.exit("the compositor closed the connection")
    buf += chunk
    while len(buf) >= 8:
        obj, op, size = struct.unpack("<IHH", buf[:8])
        if len(buf) < size:
            break
        body, buf = buf[8:size], buf[size:]
        if obj == 2 and op == 0:  # wl_registry.global(name, interface, version)
            name, length = struct.unpack("<II", body[:8])
            globs[body[8:8 + length - 1].decode()] = name
        elif obj == 3:
            done = True
name = globs.get("zwlr_virtual_pointer_manager_v1") or sys.exit("no virtual pointer manager")
send(2, 0, struct.pack("<I", name) + wstr("zwlr_virtual_pointer_manager_v1") + struct.pack("<II", 1, 4))
send(4, 0, struct.pack("<II", 0, 5))  # create_virtual_pointer(seat = null) -> id 5
while s.recv(65536):
    pass

#!/usr/bin/python3
"""Connects many honest pages to insetd's WebSocket port at once, as the tabs
and frames of a kiosk do (all from loopback), each sending its whole upgrade
request the moment it is connected, then its hello: the burst test of
Tests/InsetServerTests/WebSocketFloodTests (docs/RELIABILITY.md).

    burst.py PORT PAGES SECONDS

prints `welcomed W of PAGES, closed C, in T s` once every page has its welcome
or was closed, or SECONDS passed. One attempt per page: a page closed by insetd
counts as closed, it does not try again.
"""
import base64
import json
import os
import resource
import selectors
import socket
import sys
import time

port, pages, limit = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

origin = "http://127.0.0.1:%d" % port
hello = json.dumps({"type": "hello", "version": 1}).encode()


def request():
    key = base64.b64encode(os.urandom(16)).decode()
    return ("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\nOrigin: %s\r\n\r\n" % (port, key, origin)).encode()


def text_frame(payload):
    # A client's frames are masked (RFC 6455 5.3); the payload is short.
    mask = os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


selector = selectors.DefaultSelector()
state = {}
start = time.monotonic()
closed = 0
for _ in range(pages):
    s = socket.socket()
    s.settimeout(limit)
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(request())
    except OSError:
        closed += 1
        s.close()
        continue
    s.setblocking(False)
    state[s] = {"phase": "upgrading", "data": b""}
    selector.register(s, selectors.EVENT_READ)

welcomed = 0
while welcomed + closed < pages and time.monotonic() - start < limit:
    for key, events in selector.select(timeout=0.5):
        s, page = key.fileobj, state[key.fileobj]
        try:
            got = s.recv(65536)
        except OSError:
            got = b""
        if not got:
            closed += 1
            selector.unregister(s)
            s.close()
            continue
        page["data"] += got
        if page["phase"] == "upgrading" and b"\r\n\r\n" in page["data"]:
            head, _, page["data"] = page["data"].partition(b"\r\n\r\n")
            if not head.startswith(b"HTTP/1.1 101"):
                closed += 1
                selector.unregister(s)
                s.close()
                continue
            s.sendall(text_frame(hello))
            page["phase"] = "greeting"
        if page["phase"] == "greeting" and b'"welcome"' in page["data"]:
            page["phase"] = "welcomed"
            welcomed += 1
            selector.unregister(s)
print("welcomed %d of %d, closed %d, in %.2f s" % (welcomed, pages, closed, time.monotonic() - start), flush=True)
for s in state:
    s.close()

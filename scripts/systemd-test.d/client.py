#!/usr/bin/python3
"""A small insetd client for scripts/systemd-test, run inside the booted root.

    client.py SOCKET          connects, registers a 1280x800 form, focuses a
                              field at y 600..644, waits for the adjustment
                              that scrolls it into view, and prints one line:
                              `welcome keyboard=H adjustment=BOTTOM/OFFSET status=H`
                              (0 for what did not arrive within 10 s), or
                              `error WHAT` when the connection fails.
    client.py ws://HOST:PORT  the same over insetd's WebSocket, as a page would
                              (one JSON message per text frame).
    client.py --hello SOCKET|ws://HOST:PORT
                              connects (and upgrades), says hello and prints
                              `welcome MS`: the milliseconds from connect to
                              welcome, or `error WHAT`.
    client.py http://HOST:PORT/PATH
                              GETs PATH from the WebSocket's listener and prints
                              `STATUS CONTENT-TYPE BYTES`, or `error WHAT`.
"""
import base64
import http.client
import json
import os
import socket
import sys
import time
import urllib.parse

FORM = {"type": "register", "view": "form", "frame": {"x": 0, "y": 0, "width": 1280, "height": 800},
        "contentSize": {"width": 1280, "height": 2000}}
FIELD = {"type": "focus", "view": "form", "field": {"x": 0, "y": 600, "width": 300, "height": 44}}


class Lines:
    """The Unix socket: one JSON message per line."""

    def __init__(self, path):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(10)
        self.socket.connect(path)
        self.stream = self.socket.makefile("rwb")

    def send(self, message):
        self.stream.write((json.dumps(message) + "\n").encode())
        self.stream.flush()

    def receive(self):
        line = self.stream.readline()
        return json.loads(line) if line else None


class WebSocket:
    """A WebSocket (RFC 6455) as a page's: masked text frames out; the server's
    frames are unmasked, and insetd sends each message in one frame."""

    def __init__(self, host, port):
        self.socket = socket.create_connection((host, port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                             f"Sec-WebSocket-Version: 13\r\nOrigin: http://{host}:{port}\r\n\r\n").encode())
        self.stream = self.socket.makefile("rb")
        status = self.stream.readline().decode(errors="replace").strip()
        while self.stream.readline() not in (b"\r\n", b""):
            pass
        if not status.startswith("HTTP/1.1 101"):
            raise OSError(f"upgrade refused: {status}")

    def send(self, message):
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        if len(payload) < 126:
            header = bytes([0x81, 0x80 | len(payload)])
        else:
            header = bytes([0x81, 0x80 | 126]) + len(payload).to_bytes(2, "big")
        frame = header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.socket.sendall(frame)

    def receive(self):
        while True:
            head = self.stream.read(2)
            if len(head) < 2:
                return None
            length = head[1] & 0x7F
            if length == 126:
                length = int.from_bytes(self.stream.read(2), "big")
            elif length == 127:
                length = int.from_bytes(self.stream.read(8), "big")
            payload = self.stream.read(length)
            opcode = head[0] & 0x0F
            if opcode == 0x8:
                return None
            if opcode == 0x1:
                return json.loads(payload)


def follow(transport):
    send = transport.send
    result = {"welcome": False, "keyboard": 0, "bottom": 0, "offset": 0, "status": 0}
    send({"type": "hello", "version": 1, "client": "systemd-test"})
    deadline = time.monotonic() + 10
    asked = False
    try:
        while time.monotonic() < deadline:
            message = transport.receive()
            if message is None:
                break
            kind = message.get("type")
            if kind == "welcome":
                result["welcome"] = True
                send(FORM)
                send(FIELD)
            elif kind == "keyboard" and message.get("phase") == "willShow" and message.get("isLocal"):
                result["keyboard"] = round(message["end"]["height"])
            elif kind == "adjustment" and message.get("view") == "form":
                result["bottom"] = round(message["additionalBottomInset"])
                result["offset"] = round(message["contentOffset"]["y"])
                # The adjustment that brings the field into view. A keyboard still
                # up from an earlier client gives the view its inset before the
                # focus arrives (offset 0 then): not the answer yet.
                if result["bottom"] > 0 and result["offset"] > 0 and not asked:
                    asked = True
                    send({"type": "status", "id": "s"})
            elif kind == "status":
                result["status"] = round(message.get("state", {}).get("keyboard", {}).get("height", 0))
                break
    except (OSError, ValueError) as error:
        print(f"error read: {error}")
        return
    print(("welcome" if result["welcome"] else "no-welcome")
          + f" keyboard={result['keyboard']} adjustment={result['bottom']}/{result['offset']} status={result['status']}")


def get(url):
    parts = urllib.parse.urlsplit(url)
    try:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        connection.request("GET", parts.path)
        response = connection.getresponse()
        body = response.read()
    except OSError as error:
        print(f"error get: {error}")
        return
    print(f"{response.status} {response.getheader('Content-Type', '-')} {len(body)}")


def hello(transport, started):
    transport.send({"type": "hello", "version": 1, "client": "systemd-test"})
    try:
        message = transport.receive()
    except (OSError, ValueError) as error:
        print(f"error read: {error}")
        return
    if message and message.get("type") == "welcome":
        print(f"welcome {round((time.monotonic() - started) * 1000)}")
    else:
        print(f"error answer: {message}")


def main(arguments):
    only_hello = arguments[0] == "--hello"
    target = arguments[-1]
    if target.startswith("http://"):
        return get(target)
    started = time.monotonic()
    try:
        if target.startswith("ws://"):
            parts = urllib.parse.urlsplit(target)
            transport = WebSocket(parts.hostname, parts.port)
        else:
            transport = Lines(target)
    except OSError as error:
        print(f"error connect: {error.strerror or error}")
        return
    if only_hello:
        hello(transport, started)
    else:
        follow(transport)


if __name__ == "__main__":
    main(sys.argv[1:])

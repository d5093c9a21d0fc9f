#!/usr/bin/env python3
"""A minimal insetd client using only Python's standard library.

It connects to insetd, registers one full-screen scroll view, optionally gives a
field focus, and prints every keyboard notification and adjustment it receives:

    insetd_client.py                           # socket from INSETD_SOCKET or the usual places
    insetd_client.py --socket /run/insetd/insetd.sock --focus 0,600,300,44 --count 3
    insetd_client.py --window 0,56,540,732     # a window below a 56 pt bar, shrunk by the compositor

insetd measures views against the keyboard in screen coordinates. A client
whose window is not at the screen's top-left says where it is (`window`, in
screen points); its views' frames stay in its own window's coordinates.

A real front-end applies each "adjustment" to its scroll view: additional bottom
safe-area inset, content offset and size, bounce flag, animated as told.
"""
import argparse
import json
import os
import socket
import sys


def socket_path(given=None, environ=os.environ):
    """insetd's socket by the rule every client follows (docs/PROTOCOL.md,
    "Which socket a client connects to"): the given path, $INSETD_SOCKET,
    $XDG_RUNTIME_DIR/insetd.sock when it leads somewhere, the system one; an
    empty value counts as unset."""
    if given:
        return given
    if environ.get("INSETD_SOCKET"):
        return environ["INSETD_SOCKET"]
    runtime = environ.get("XDG_RUNTIME_DIR")
    # os.path.exists follows links (stat): a dangling link is no socket.
    if runtime and os.path.exists(os.path.join(runtime, "insetd.sock")):
        return os.path.join(runtime, "insetd.sock")
    return "/run/insetd/insetd.sock"


class InsetdConnection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.reader = self.sock.makefile("r", encoding="utf-8")
        self.send({"type": "hello", "version": 1, "client": "python-example"})
        welcome = self.receive()
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"expected welcome, got {welcome}")
        self.state = welcome["state"]

    def send(self, message):
        self.sock.sendall((json.dumps(message) + "\n").encode("utf-8"))

    def receive(self):
        line = self.reader.readline()
        if not line:
            raise EOFError("insetd closed the connection")
        return json.loads(line)


def rect(value):
    x, y, width, height = (float(part) for part in value.split(","))
    return {"x": x, "y": y, "width": width, "height": height}


def describe(message):
    kind = message.get("type")
    if kind == "keyboard":
        end = message["end"]
        return f"keyboard {message['phase']}: height {end['height']:g} at y {end['y']:g} (local: {message['isLocal']})"
    if kind == "adjustment":
        offset = message["contentOffset"]
        return (f"adjustment {message['view']}: bottom inset {message['additionalBottomInset']:g}, "
                f"offset {offset['x']:g},{offset['y']:g}, animate {message['animation']['duration']:g}s")
    return json.dumps(message, sort_keys=True)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--socket", help="insetd's socket (default: by the rule in docs/PROTOCOL.md)")
    parser.add_argument("--focus", type=rect, help="x,y,width,height of a field to focus")
    parser.add_argument("--window", type=rect,
                        help="x,y,width,height of this client's window on the screen (default: the whole screen)")
    parser.add_argument("--count", type=int, help="stop after this many messages")
    args = parser.parse_args(argv)
    args.socket = socket_path(args.socket)
    try:
        connection = InsetdConnection(args.socket)
    except OSError as error:
        print(f"cannot connect to {args.socket}: {error.strerror}. Is insetd running?", file=sys.stderr)
        return 1
    screen = connection.state["screen"]
    window = args.window or {"x": 0, "y": 0, "width": screen["width"], "height": screen["height"]}
    if args.window:
        connection.send({"type": "window", "frame": window})
    # The view fills the window, in the window's own coordinates.
    connection.send({
        "type": "register", "view": "main",
        "frame": {"x": 0, "y": 0, "width": window["width"], "height": window["height"]},
        "contentSize": {"width": screen["width"], "height": 2000},
    })
    if args.focus:
        connection.send({"type": "focus", "view": "main", "field": args.focus})
    seen = 0
    while args.count is None or seen < args.count:
        try:
            message = connection.receive()
        except EOFError as error:
            print(error, file=sys.stderr)
            return 0
        print(describe(message), flush=True)
        seen += 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

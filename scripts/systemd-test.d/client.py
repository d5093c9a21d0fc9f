#!/usr/bin/python3
"""A small insetd client for scripts/systemd-test, run inside the booted root.

    client.py SOCKET    connects, registers a 1280x800 form, focuses a field
                        at y 600..644, and prints one line:
                        `welcome keyboard=H adjustment=BOTTOM/OFFSET status=H`
                        (0 for what did not arrive within 10 s), or
                        `error WHAT` when the connection fails.
"""
import json
import socket
import sys
import time

FORM = {"type": "register", "view": "form", "frame": {"x": 0, "y": 0, "width": 1280, "height": 800},
        "contentSize": {"width": 1280, "height": 2000}}
FIELD = {"type": "focus", "view": "form", "field": {"x": 0, "y": 600, "width": 300, "height": 44}}


def main(path):
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(10)
    try:
        connection.connect(path)
    except OSError as error:
        print(f"error connect: {error.strerror}")
        return
    stream = connection.makefile("rwb")

    def send(message):
        stream.write((json.dumps(message) + "\n").encode())
        stream.flush()

    result = {"welcome": False, "keyboard": 0, "bottom": 0, "offset": 0, "status": 0}
    send({"type": "hello", "version": 1, "client": "systemd-test"})
    deadline = time.monotonic() + 10
    asked = False
    try:
        while time.monotonic() < deadline:
            line = stream.readline()
            if not line:
                break
            message = json.loads(line)
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
                if result["bottom"] > 0 and not asked:
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


if __name__ == "__main__":
    main(sys.argv[1])

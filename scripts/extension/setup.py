"""How scripts/extension-test puts the extension and insetd together: the
extension laid out as `make install` does (plus the test's meter and insetd's
address), its id as Chromium derives it, and insetd's client count."""
import base64
import hashlib
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "osk"))
from kiosk_session import insetd_status  # noqa: E402


def assemble(root, directory, ws_port):
    """The extension as `make install` lays it out, plus the test's meter and
    insetd's address (config.json)."""
    ext = os.path.join(directory, "extension")
    shutil.copytree(os.path.join(root, "web", "chromium-extension"), ext)
    for name in os.listdir(os.path.join(root, "web")):
        if name.startswith("insetd") and name.endswith(".js"):
            shutil.copy(os.path.join(root, "web", name), ext)
    with open(os.path.join(root, "scripts", "extension", "cost-shim.js")) as f:
        shim = f.read()
    with open(os.path.join(ext, "content.js")) as f:
        content = f.read()
    with open(os.path.join(ext, "content.js"), "w") as f:
        f.write(shim + content)
    with open(os.path.join(ext, "config.json"), "w") as f:
        json.dump({"url": f"ws://127.0.0.1:{ws_port}/"}, f)
    for base, dirs, files in os.walk(directory):
        for name in dirs + files:
            os.chmod(os.path.join(base, name), 0o755 if name in dirs else 0o644)
    return ext


def extension_id(manifest_path):
    """Chromium's id of an extension with a `key`: the first 128 bits of the
    SHA-256 of the public key (DER), as hex digits written with a..p."""
    with open(manifest_path) as f:
        key = base64.b64decode(json.load(f)["key"])
    return "".join(chr(ord("a") + int(c, 16)) for c in hashlib.sha256(key).hexdigest()[:32])


def insetd_clients(path):
    """How many clients insetd has (the asking one included), from `status`."""
    status = insetd_status(path, "extension-test")
    return status and status["clients"]

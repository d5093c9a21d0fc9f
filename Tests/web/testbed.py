"""A umockdev testbed with one emulated USB keyboard, for the browser tests.

The device records are generated from a small description, as the Swift
testbed (Sources/InputTestbed/FixtureDevice.swift) generates them for the same
keyboard (FixtureCatalogue.usbKeyboard), with the exact ioctl buffer sizes
libevdev 1.13 asks for (see the HIL notes in docs/HIL.md). This process must run
under umockdev's preload (`umockdev-wrapper`), and insetd must inherit its C
environment (UMOCKDEV_DIR is set there by the testbed).
"""
import os
import tempfile

import gi

gi.require_version("UMockdev", "1.0")
from gi.repository import UMockdev  # noqa: E402

EV_SYN, EV_KEY, EV_MSC, MSC_SCAN = 0, 1, 4, 4
KEY_LEFTMETA, KEY_RIGHTMETA, KEY_COMPOSE = 125, 126, 127
# The main block of a PC keyboard (ESC..F12, keypad), right-hand modifiers, both METAs.
FULL_KEYBOARD = list(range(1, 89)) + list(range(96, 112)) + list(range(113, 120)) + [
    KEY_LEFTMETA, KEY_RIGHTMETA, KEY_COMPOSE]


def capability_text(codes):
    """The sysfs form: hex words of 64 bits, most significant first."""
    words = [0] * (max(codes) // 64 + 1)
    for code in codes:
        words[code // 64] |= 1 << (code % 64)
    while len(words) > 1 and words[-1] == 0:
        words.pop()
    return " ".join(format(word, "x") for word in reversed(words))


def bitmask(codes, size):
    buffer = bytearray(size)
    for code in codes:
        if code // 8 < size:
            buffer[code // 8] |= 1 << (code % 8)
    return bytes(buffer)


class Keyboard:
    """FixtureCatalogue.usbKeyboard: a Dell KB216 on USB."""
    kind = "usb-keyboard"
    name = "Dell KB216 Wired Keyboard"
    bus, vendor, product = 0x03, 0x413C, 0x2113

    def __init__(self, number=10):
        self.number = number
        self.input_path = ("/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:413C:2113.0001"
                           f"/input/input{number}")
        self.syspath = f"{self.input_path}/event{number}"
        self.devnode = f"/dev/input/event{number}"
        self.keys = FULL_KEYBOARD
        self.types = [EV_SYN, EV_KEY, EV_MSC]

    def record(self):
        ev = capability_text(self.types)
        key = capability_text(self.keys)
        parent = [
            f"P: {self.input_path}", "E: SUBSYSTEM=input",
            f"E: PRODUCT={self.bus:x}/{self.vendor:x}/{self.product:x}/1", f'E: NAME="{self.name}"',
            f"E: EV={ev}", f"A: name={self.name}", f"A: id/bustype={self.bus:04x}",
            f"A: id/vendor={self.vendor:04x}", f"A: id/product={self.product:04x}",
            f"A: capabilities/ev={ev}", f"E: KEY={key}", f"A: capabilities/key={key}",
        ]
        minor = 64 + self.number
        event = [
            f"P: {self.syspath}", f"N: input/event{self.number}", f"E: DEVNAME={self.devnode}", "E: MAJOR=13",
            f"E: MINOR={minor}", "E: SUBSYSTEM=input", f"A: dev=13:{minor}",
            "E: ID_INPUT=1", "E: ID_INPUT_KEY=1", "E: ID_INPUT_KEYBOARD=1",
        ]
        return "\n".join(parent + [""] + event) + "\n"

    def ioctl_record(self):
        def line(request, result, data):
            return f"{request} {result} {data.hex().upper()}"

        def string(text):
            data = text.encode()[:254]
            return len(data) + 1, data + bytes(255 - len(data))

        name, phys, uniq = string(self.name), string(f"{self.kind}/input0"), string("")
        ident = b"".join(value.to_bytes(2, "little") for value in (self.bus, self.vendor, self.product, 1))
        lines = [
            line("EVIOCGVERSION", 0, bytes([1, 0, 1, 0])), line("EVIOCGID", 0, ident),
            line("EVIOCGNAME(0)", *name), line("EVIOCGPHYS(0)", *phys), line("EVIOCGUNIQ(0)", *uniq),
            line("EVIOCGPROP(0)", 8, bytes(8)), line("EVIOCGBIT(0)", 8, bitmask(self.types, 8)),
            line("EVIOCGBIT(1)", 96, bitmask(self.keys, 96)), line("EVIOCGBIT(2)", 8, bytes(8)),
            line("EVIOCGBIT(3)", 8, bytes(8)), line("EVIOCGBIT(4)", 8, bitmask([MSC_SCAN], 8)),
            line("EVIOCGBIT(5)", 8, bytes(8)), line("EVIOCGBIT(17)", 8, bytes(8)),
            line("EVIOCGBIT(18)", 8, bytes(8)), line("EVIOCGBIT(20)", 8, bytes(8)),
            line("EVIOCGBIT(21)", 16, bytes(16)), line("EVIOCGKEY(0)", 96, bytes(96)),
            line("EVIOCGLED(0)", 8, bytes(8)), line("EVIOCGSW(0)", 8, bytes(8)),
            line("EVIOCGREP", 0, bytes([0xFA, 0, 0, 0, 0x21, 0, 0, 0])),
        ]
        return "\n".join(lines) + "\n"


class Testbed:
    def __init__(self):
        if "umockdev-preload" not in os.environ.get("LD_PRELOAD", ""):
            raise RuntimeError("run under umockdev-wrapper (scripts/web-test does)")
        self.testbed = UMockdev.Testbed.new()
        self.files = []

    def add(self, device):
        """Plugs `device` in: its ioctl record first, so a running monitor can open
        it when it hears the `add` uevent umockdev sends for the record."""
        handle, path = tempfile.mkstemp(suffix=".ioctl")
        os.write(handle, device.ioctl_record().encode())
        os.close(handle)
        self.files.append(path)
        self.testbed.load_ioctl(device.devnode, path)
        self.testbed.add_from_string(device.record())

    def remove(self, device):
        self.testbed.uevent("/sys" + device.syspath, "remove")
        self.testbed.remove_device("/sys" + device.syspath)

    def close(self):
        for path in self.files:
            os.unlink(path)

"""The demo page in a real browser against the real insetd: focus, rotation,
blur, a hardware keyboard plugged in, a daemon restart (expected frames are
worked out by hand in harness.py)."""
import unittest

import harness
from harness import (ACCESSORY, BOTTOM_FIELD, HIDDEN, LANDSCAPE, PORTRAIT, Daemon, LineClient, css_keyboard,
                     free_port, keyboard, open_demo, screenshot, wait_for_keyboard)
from testbed import Keyboard


class DemoInTheBrowser(unittest.TestCase):
    def test_focus_rotate_blur(self):
        daemon = Daemon(free_port())
        try:
            page = open_demo(daemon)
            self.assertEqual(keyboard(page), HIDDEN)
            self.assertEqual(css_keyboard(page), ["0px", "0px", "0px", "0px"])
            before = page.evaluate(f"() => document.querySelector('{BOTTOM_FIELD}').getBoundingClientRect().toJSON()")
            self.assertGreater(before["bottom"], 508, "the field starts where the keyboard will be")
            self.assertLess(before["bottom"], 844, "and visible, so the browser does not scroll by itself")

            # Focus: the full keyboard, and the field scrolled above it.
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "508px", "390px", "336px"])
            # The document's bottom inset is the whole keyboard (no safe area here).
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "336px")
            self.assertEqual(page.evaluate("() => document.scrollingElement.style.scrollPaddingBottom"), "336px")
            panel = page.evaluate("""() => { const p = document.querySelector('[data-insetd-emulated-keyboard]');
                return [p.dataset.state, p.style.top, p.style.height]; }""")
            self.assertEqual(panel, ["shown", "508px", "336px"])
            page.wait_for_timeout(300)  # the panel's slide
            screenshot(page, "web-portrait.png")

            # Rotate: the landscape keyboard, the field still visible above it.
            page.set_viewport_size({"width": 844, "height": 390})
            wait_for_keyboard(page, LANDSCAPE, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "181px", "844px", "209px"])
            page.wait_for_timeout(300)
            screenshot(page, "web-landscape.png")

            # Blur: keyboard gone, the page's own layout back.
            page.evaluate("() => document.activeElement.blur()")
            wait_for_keyboard(page, HIDDEN)
            page.wait_for_function("() => document.body.style.paddingBottom === ''", timeout=5000)
            self.assertEqual(css_keyboard(page), ["0px", "0px", "0px", "0px"])
            self.assertEqual(page.evaluate("() => document.scrollingElement.style.scrollPaddingBottom"), "")
            page.wait_for_function(
                "() => document.querySelector('[data-insetd-emulated-keyboard]').style.display === 'none'",
                timeout=5000)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_hardware_keyboard_shrinks_to_the_accessory_bar(self):
        daemon = Daemon(free_port())
        device = Keyboard(number=40)
        try:
            page = open_demo(daemon)
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            harness.testbed.add(device)
            # After the 200 ms hardware hold-off, only the accessory bar.
            wait_for_keyboard(page, ACCESSORY, BOTTOM_FIELD)
            self.assertEqual(css_keyboard(page), ["0px", "800px", "390px", "44px"])
            status = LineClient(daemon.socket)
            status.send('{"type":"status","id":1}')
            self.assertEqual(status.next("status")["state"]["hardwareKeyboard"], True)
            status.close()
            state = page.evaluate("() => document.querySelector('[data-insetd-emulated-keyboard]').dataset.state")
            self.assertEqual(state, "accessory-bar")
            page.wait_for_function("() => document.body.style.paddingBottom === '44px'", timeout=5000)
            page.wait_for_timeout(300)
            screenshot(page, "web-hardware-keyboard.png")
            harness.testbed.remove(device)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_daemon_restart_reconnects_and_resyncs(self):
        daemon = Daemon(free_port())
        try:
            page = open_demo(daemon)
            page.focus(BOTTOM_FIELD)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            self.assertEqual(daemon.stop(), 0)
            page.wait_for_function("() => !insetd.connected", timeout=5000)
            self.assertEqual(keyboard(page), HIDDEN, "no daemon, no keyboard")
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            daemon.start()
            # insetd.js comes back by itself and tells the new daemon everything.
            page.wait_for_function("() => insetd.connected", timeout=10000)
            wait_for_keyboard(page, PORTRAIT, BOTTOM_FIELD)
            status = LineClient(daemon.socket)
            status.send('{"type":"status","id":1}')
            reply = status.next("status")
            self.assertEqual(reply["views"], 1, "the page's document view is registered again")
            self.assertEqual(reply["clients"], 2, "the page and this client")
            self.assertEqual(reply["state"]["keyboard"], {"x": 0, "y": 508, "width": 390, "height": 336})
            status.close()
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)


"""osk_surface.py against a squeekboard log as libwayland 1.21 writes it
(WAYLAND_DEBUG=client; the lines below are the shape seen in a kiosk-test run,
ids and stamps chosen by hand). Run: python3 -m unittest scripts/osk/test_osk_surface.py"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from osk_surface import WRAP, ShownHeight, drawn_times, wall_time  # noqa: E402

LOG = """\
[2548266.872]  -> zwlr_layer_shell_v1@28.get_layer_surface(new id zwlr_layer_surface_v1@36, wl_surface@35, wl_output@32, 2, "osk")
[2548266.879]  -> zwlr_layer_surface_v1@36.set_exclusive_zone(172)
[2548266.894]  -> wl_surface@35.commit()
[2548270.806] zwlr_layer_surface_v1@36.configure(12, 540, 172)
[2548345.391]  -> wl_surface@35.attach(wl_buffer@38, 0, 0)
[2548345.504]  -> wl_surface@35.commit()
[2548360.000]  -> wl_surface@35.attach(wl_buffer@40, 0, 0)
[2548360.100]  -> wl_surface@35.commit()
[2548400.000]  -> wl_surface@12.attach(wl_buffer@41, 0, 0)
[2548400.100]  -> wl_surface@12.commit()
[2548636.616]  -> zwlr_layer_surface_v1@36.destroy()
[2548636.681]  -> wl_surface@35.destroy()
[2548888.341]  -> zwlr_layer_shell_v1@28.get_layer_surface(new id zwlr_layer_surface_v1@38, wl_surface@37, wl_output@32, 2, "osk")
[2548888.373]  -> wl_surface@37.commit()
[2548950.250]  -> wl_surface@37.attach(wl_buffer@42, 0, 0)
[2548950.300]  -> wl_surface@37.commit()
[2549100.000]  -> wl_surface@37.attach(nil, 0, 0)
[2549100.050]  -> wl_surface@37.commit()
[2549200.000]  -> wl_surface@37.attach(wl_buffer@42, 0, 0)
[2549200.010]  -> wl_surface@37.commit()
"""

# A wall clock just after the log: 10 full wraps of the 32-bit microseconds
# plus 2549.5 s, so the stamps (2548.xxx s into the wrap) fall in the same wrap.
REFERENCE = (10 * WRAP) / 1e6 + 2549.5


class DrawnTimes(unittest.TestCase):
    def test_the_first_buffer_committed_to_each_layer_surface(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write(LOG)
        self.addCleanup(os.unlink, f.name)
        base = 10 * WRAP / 1e6
        # The surface made at 2548266.9 ms drew at 2548345.504 ms (the zone
        # came with the bufferless commit before); a second buffer is no new
        # drawing; wl_surface@12 is no layer surface; the next one drew at
        # 2548950.300 ms, and after a null buffer (hidden) again at 2549200.010.
        got = [round(t - base, 6) for t in drawn_times(f.name, REFERENCE)]
        self.assertEqual(got, [2548.345504, 2548.950300, 2549.200010])

    def test_a_stamp_from_before_the_last_wrap(self):
        # The reference 0.5 s into a wrap; a stamp 1 s before the wrap's end
        # belongs to the previous wrap.
        reference = (7 * WRAP) / 1e6 + 0.5
        stamp_us = WRAP - 1_000_000
        self.assertAlmostEqual(wall_time(stamp_us, reference), (7 * WRAP - 1_000_000) / 1e6, places=6)

    def test_no_log_no_times(self):
        self.assertEqual(drawn_times("/nonexistent/squeekboard.log", REFERENCE), [])


# wvkbd's shape (a kiosk-test run on phoc): each show makes a layer surface,
# each hide destroys it; the compositor's configure gives its height.
WVKBD = [
    ("[2805660.714]  -> zwlr_layer_shell_v1@6.get_layer_surface(new id zwlr_layer_surface_v1@14, wl_surface@13, wl_output@8, 2, \"wlroots\")\n"
     "[2805660.735]  -> zwlr_layer_surface_v1@14.set_size(0, 300)\n"
     "[2805660.745]  -> wl_surface@13.commit()\n"
     "[2805660.949] zwlr_layer_surface_v1@14.configure(8, 540, 300)\n"),
    "[2805687.639]  -> wl_surface@13.attach(wl_buffer@17, 0, 0)\n[2805687.700]  -> wl_surface@13.com",
    "mit()\n",
    "[2806853.074]  -> zwlr_layer_surface_v1@14.destroy()\n[2806853.093]  -> wl_surface@13.destroy()\n",
]


class Shown(unittest.TestCase):
    def test_the_height_while_a_drawn_layer_surface_lives(self):
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            pass
        self.addCleanup(os.unlink, f.name)
        shown = ShownHeight(f.name)
        got = []
        for part in WVKBD:
            with open(f.name, "a") as log:
                log.write(part)
            got.append(shown())
        # Made and configured 300 tall but not drawn: 0; a buffer attached,
        # its commit half written: still 0; the commit: 300; destroyed: 0.
        self.assertEqual(got, [0, 0, 300, 0])

    def test_no_log_no_reading(self):
        self.assertIsNone(ShownHeight("/nonexistent/wvkbd.log")())


if __name__ == "__main__":
    unittest.main()

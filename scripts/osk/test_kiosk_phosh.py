"""kiosk_phosh.py (the --compositor phosh adapter) against Phosh's and
squeekboard's Wayland logs in the shape libwayland 1.21 writes them
(WAYLAND_DEBUG=client; the lines as seen in a kiosk-test run, ids chosen by
hand), and its drawn check on made-up screenshots.
Run: python3 -m unittest scripts/osk/test_kiosk_phosh.py"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_phosh import Phosh  # noqa: E402

PHOSH_LOG = """\
[1223616.389]  -> zwlr_layer_shell_v1@34.get_layer_surface(new id zwlr_layer_surface_v1@53, wl_surface@51, wl_output@45, 2, "phosh top-panel")
[1223616.398]  -> zwlr_layer_surface_v1@53.set_exclusive_zone(0)
[1223632.848]  -> zphoc_layer_shell_effects_v1@35.get_draggable_layer_surface(new id zphoc_draggable_layer_surface_v1@48, zwlr_layer_surface_v1@53)
[1223632.876]  -> zphoc_draggable_layer_surface_v1@48.set_exclusive(32)
[1223673.575]  -> zwlr_layer_shell_v1@34.get_layer_surface(new id zwlr_layer_surface_v1@56, wl_surface@55, wl_output@45, 2, "phosh home")
[1223673.631]  -> zwlr_layer_surface_v1@56.set_exclusive_zone(40)
[1223675.810]  -> zphoc_layer_shell_effects_v1@35.get_draggable_layer_surface(new id zphoc_draggable_layer_surface_v1@60, zwlr_layer_surface_v1@56)
[1223675.834]  -> zphoc_draggable_layer_surface_v1@60.set_exclusive(40)
[1223678.137]  -> zwlr_layer_shell_v1@34.get_layer_surface(new id zwlr_layer_surface_v1@61, wl_surface@57, wl_output@45, 0, "phosh background")
[1223678.147]  -> zwlr_layer_surface_v1@61.set_exclusive_zone(-1)
"""

SQUEEKBOARD_LOG = """\
[2548266.872]  -> zwlr_layer_shell_v1@28.get_layer_surface(new id zwlr_layer_surface_v1@36, wl_surface@35, wl_output@32, 2, "osk")
[2548266.875]  -> zwlr_layer_surface_v1@36.set_size(0, 172)
[2548266.879]  -> zwlr_layer_surface_v1@36.set_exclusive_zone(172)
"""


class FakeSession:
    def __init__(self, directory, visible):
        self.dir, self.visible = directory, visible

    def squeekboard_visible(self):
        return self.visible


def ppm(rows_of):
    """A 540x960 binary PPM whose row y is the colour rows_of(y)."""
    return b"P6\n540 960\n255\n" + b"".join(rows_of(y) * 540 for y in range(960))


class Layout(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        for name, text in (("phosh.log", PHOSH_LOG), ("squeekboard.log", SQUEEKBOARD_LOG)):
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(text)

    def test_bars_are_the_draggable_surfaces_exclusive_zones(self):
        self.assertEqual(Phosh(FakeSession(self.dir, True)).bars(), {"phosh top-panel": 32, "phosh home": 40})

    def test_app_window_between_top_bar_and_keyboard_above_home_bar(self):
        phosh = Phosh(FakeSession(self.dir, True))
        # 960 - 40 (home bar) = 920 is the keyboard's bottom; 920 - 172 = 748 its top.
        self.assertEqual(phosh.keyboard_zone(), 172)
        self.assertEqual(phosh.bottom(), 920)
        self.assertEqual(phosh.window_rect(), {"x": 0, "y": 32, "width": 540, "height": 748 - 32})

    def test_app_window_without_keyboard_ends_at_home_bar(self):
        phosh = Phosh(FakeSession(self.dir, False))
        self.assertEqual(phosh.keyboard_zone(), 0)
        self.assertEqual(phosh.window_rect(), {"x": 0, "y": 32, "width": 540, "height": 888})

    def test_full_screen_has_no_bars(self):
        phosh = Phosh(FakeSession(self.dir, True))
        phosh.mode = "kiosk"
        self.assertEqual((phosh.top(), phosh.bottom()), (0, 960))
        self.assertEqual(phosh.window_rect(), {"x": 0, "y": 0, "width": 540, "height": 960})

    def test_no_logs_yet(self):
        phosh = Phosh(FakeSession(tempfile.mkdtemp(), True))
        self.assertIsNone(phosh.keyboard_zone())
        self.assertIsNone(phosh.window_rect())


class Drawn(unittest.TestCase):
    def test_squeekboard_grey_under_the_top_is_drawn(self):
        shot = ppm(lambda y: b"\xde\xde\xde" if 748 <= y < 920 else b"\xff\xff\xff")
        self.assertTrue(Phosh.keyboard_drawn(shot, 748, 172))

    def test_qt_grey_page_is_not_the_keyboard(self):
        shot = ppm(lambda y: b"\xef\xef\xef")
        self.assertFalse(Phosh.keyboard_drawn(shot, 788, 172))

    def test_keyboard_in_a_third_of_the_rows_is_not_enough(self):
        # squeekboard's grey in 788..840 only: 48 of the 164 rows checked (792..955), under a third.
        shot = ppm(lambda y: b"\xde\xde\xde" if 788 <= y < 840 else b"\xff\xff\xff")
        self.assertFalse(Phosh.keyboard_drawn(shot, 788, 172))


if __name__ == "__main__":
    unittest.main()

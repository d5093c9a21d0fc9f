"""kiosk-test's GTK cells (scripts/osk/kiosk_gtk.py): which cells a case list
names, and what the settled check (kiosk_gtk_checks.py) passes and fails, on
app logs made up by hand.

  python3 -m unittest scripts/osk/test_kiosk_gtk.py
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_gtk import parse_cases  # noqa: E402
from kiosk_gtk_checks import check_settled  # noqa: E402


def app_log(lines):
    """A gtk-app.py log: frames [t, height, padding, offset, field bottom] and steps."""
    f = tempfile.NamedTemporaryFile("w", suffix=".log", delete=False)
    for line in lines:
        f.write(f"insetd-cycle {line[1]} {line[0]}\n" if isinstance(line[1], str)
                else "insetd-frame " + json.dumps(line) + "\n")
    f.close()
    return f.name


class Cases(unittest.TestCase):
    def test_names(self):
        self.assertEqual(parse_cases("form:window adw:fullscreen:wvkbd hostile", "sway"),
                         [("form", "app", "squeekboard"), ("adw", "kiosk", "wvkbd"),
                          ("hostile", "kiosk", "squeekboard")])
        with self.assertRaises(SystemExit):
            parse_cases("form:tiled", "sway")

    def test_gnome_shell_keyboard_by_default(self):
        self.assertEqual(parse_cases("form:app hostile", "gnome"),
                         [("form", "app", "gnome"), ("hostile", "kiosk", "gnome")])


class Settled(unittest.TestCase):
    def check(self, lines, layout="form", mode="app", keyboard=172, compositor="sway"):
        path = app_log(lines)
        try:
            return check_settled(path, layout, mode, keyboard, compositor)[0]
        finally:
            os.unlink(path)

    def test_form_in_a_shrunk_window(self):
        # squeekboard 172: the window shrinks to 788, offset 916 - 788 = 128.
        self.assertEqual(self.check([[100, 960, 0, 0, 916], [200, "focus"], [300, 788, 0, 0, 916],
                                     [320, 788, 0, 128, 788], [1000, "blur"], [1050, 960, 0, 0, 916]]), [])

    def test_a_field_left_covered_or_padding_left(self):
        problems = self.check([[100, 960, 0, 0, 916], [200, "focus"], [300, 788, 0, 0, 916],
                               [1000, "blur"], [1050, 960, 172, 0, 916]])
        self.assertEqual(len(problems), 3, problems)  # offset 0, field under 788, padding after blur

    def test_full_screen_with_wvkbd(self):
        # wvkbd 300: padding 300, offset 916 - 660 = 256.
        self.assertEqual(self.check([[100, 960, 0, 0, 916], [200, "focus"], [300, 960, 300, 256, 660],
                                     [1000, "blur"], [1050, 960, 0, 0, 916]], mode="kiosk", keyboard=300), [])

    def test_phoc_title_bar(self):
        # GTK's 37 px title bar on phoc: the entry ends at 953, offset 953 - 788 = 165.
        lines = [[100, 960, 0, 0, 953], [200, "focus"], [300, 788, 0, 165, 788], [1000, "blur"]]
        self.assertEqual(self.check(lines, compositor="phoc"), [])
        self.assertTrue(self.check(lines, compositor="sway"))  # not the layout sway gives

    def test_gnome_maximized_under_the_top_bar(self):
        # 928 tall at y 32, the Shell's keyboard 240 at 720: its top at 688 in
        # the window; padding 240, offset 916 + 37 - 688 = 265.
        lines = [[100, 928, 0, 0, 953], [200, "focus"], [300, 928, 240, 265, 688], [1000, "blur"],
                 [1050, 928, 0, 0, 953]]
        self.assertEqual(self.check(lines, keyboard=240, compositor="gnome"), [])

    def test_gnome_window_taken_at_the_screens_top(self):
        # insetd measuring the window at 0,0: the keyboard covers 208 of it,
        # offset 953 - 720 = 233, the entry 32 px under the keyboard's top.
        lines = [[100, 928, 0, 0, 953], [200, "focus"], [300, 928, 208, 233, 720], [1000, "blur"]]
        problems = self.check(lines, keyboard=240, compositor="gnome")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("no frame with window 928, padding 240 (last frame [300, 928, 208, 233, 720])", problems[0])


if __name__ == "__main__":
    unittest.main()

"""CellJudge.timeline (scripts/osk/frame_rule.py) and Transitions.drops
(scripts/osk/kiosk_transitions.py): frames judged against the keyboard on
the screen read all along, with values worked out by hand. A frame is 16.7 ms
of slack either side; readings are (start, end, zone) back to back.

  python3 -m unittest scripts/osk/test_frame_timeline.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frame_rule import CellJudge, Frame  # noqa: E402
from kiosk_transitions import Transitions  # noqa: E402


def frame(t, viewport=960, inset=0, field_bottom=500):
    return Frame(t, viewport, inset, None, field_bottom, viewport, 0)


# The keyboard (172) up from 1.00 to 2.00 s, read every 50 ms: readings
# [0.00-0.05) ... each its own zone; 0 before 1.00 and from 2.00 on.
READINGS = [(i * 0.05, i * 0.05 + 0.05, 172 if 1.0 <= i * 0.05 < 2.0 else 0) for i in range(60)]


class TimelineTests(unittest.TestCase):
    def judge(self, frames, app_window=False, drops=()):
        judge = CellJudge()
        wrong = judge.timeline(frames, READINGS, 960, app_window, drops)
        return judge, wrong

    def test_padding_while_the_keyboard_is_up_is_right_and_after_it_left_is_wrong(self):
        # 1.5: up on both sides, 172 allowed. 2.5: gone on both sides, 0 allowed: 172 over.
        judge, wrong = self.judge([frame(1.5, inset=172), frame(2.5, inset=172)])
        self.assertEqual((judge.judged, judge.excess, judge.peak), (2, 1, 172))
        self.assertEqual(len(wrong), 1)
        self.assertIn("allowed 0 (zone 0)", wrong[0])

    def test_a_frame_where_the_screen_changes_is_not_judged(self):
        # 1.99: the reading a frame after it (from 2.00) says 0, the one before
        # 172: the screen is not certain then. 1.0: the same, on the way up.
        judge, wrong = self.judge([frame(1.99, inset=172), frame(1.0, inset=172)])
        self.assertEqual((judge.judged, judge.excess, wrong), (0, 0, []))

    def test_a_shrunk_app_window_is_covered_by_nothing(self):
        # 788 < 960: the compositor made room, 0 allowed even with the keyboard up.
        judge, wrong = self.judge([frame(1.5, viewport=788, inset=172)], app_window=True)
        self.assertEqual((judge.excess, judge.peak), (1, 172))
        judge, wrong = self.judge([frame(1.5, viewport=788, inset=0, field_bottom=780)], app_window=True)
        self.assertEqual((judge.excess, judge.covered), (0, 0))

    def test_a_window_shrunk_for_a_smaller_keyboard_is_covered_by_the_difference(self):
        # The window lost 100 (viewport 860 of 960) to an earlier, smaller zone;
        # the 172 keyboard now up covers 172 - 100 = 72 of it until the
        # compositor shrinks it again: 72 allowed, 74 is 2 over (more than 1).
        judge, wrong = self.judge([frame(1.5, viewport=860, inset=72), frame(1.6, viewport=860, inset=74)], app_window=True)
        self.assertEqual((judge.judged, judge.excess, judge.peak), (2, 1, 2))
        self.assertIn("viewport 860, inset 74, allowed 72", wrong[0])
        # Shrunk for a larger zone than the keyboard now (lost 230): nothing covered.
        judge, wrong = self.judge([frame(1.5, viewport=730, inset=1)], app_window=True)
        self.assertEqual((judge.excess, wrong), (0, []))

    def test_a_turned_app_window_is_judged_against_its_own_unshrunk_height(self):
        # The screen turned to 960x540; the app window's viewport is 484 there
        # with no keyboard (540 less a 56 px bar), 904 in portrait. Keyboard
        # 172 up at 1.5. Unshrunk at 484, it covers 172 of the window: 98 is
        # allowed. Shrunk to 312 (484 - 172): nothing covers it, 98 is over.
        def turned(viewport, inset):
            return Frame(1.5, viewport, inset, None, 100, viewport, 0, 960)

        def unshrunk(f):
            return 484 if f.width == 960 else 904

        judge = CellJudge()
        wrong = judge.timeline([turned(484, 98), turned(312, 98)], READINGS, unshrunk, True)
        self.assertEqual((judge.judged, judge.excess, judge.peak), (2, 1, 98))
        self.assertIn("viewport 312, inset 98, allowed 0", wrong[0])

    def test_the_field_under_the_keyboard_is_counted(self):
        # Full screen, keyboard from 788: a field ending at 900 is covered, at 780 not.
        judge, _ = self.judge([frame(1.5, inset=172, field_bottom=900), frame(1.6, inset=172, field_bottom=780)])
        self.assertEqual(judge.covered, 1)

    def test_frames_in_an_osk_drop_are_counted_apart(self):
        # The OSK dropped the keyboard from 2.0 to 2.3 by itself: 2.1 padded 172
        # is counted as dropped, not judged; 2.5 is judged (0 allowed).
        judge, wrong = self.judge([frame(2.1, inset=172), frame(2.5, inset=0)], drops=[(2.0, 2.3)])
        self.assertEqual((judge.dropped, judge.judged, judge.excess, wrong), (1, 1, 0, []))


class DropTests(unittest.TestCase):
    def test_a_gap_between_two_ups_is_a_drop_and_the_wait_before_the_first_is_not(self):
        samples = [(0.0, 0.1, 0), (0.1, 0.2, 172), (0.2, 0.3, 0), (0.3, 0.4, 0), (0.4, 0.5, 172), (0.5, 0.6, 0)]
        # 0.0-0.1: before the keyboard was first up; 0.2 to 0.5: a drop; from 0.5: gone for good (the blur).
        self.assertEqual(Transitions.drops(samples), [(0.2, 0.5)])

    def test_no_drop_when_it_never_left(self):
        self.assertEqual(Transitions.drops([(0.0, 0.1, 172), (0.1, 0.2, 172)]), [])


if __name__ == "__main__":
    unittest.main()


class MovedWindowTests(unittest.TestCase):
    """CellJudge.cycle with `cover` (KWin's floating window, kiosk_float.py):
    the keyboard (288) up from 1.00 s, blurred at 3.00, gone at 3.10; the
    window 334 px of viewport, moved at 1.10 from under the keyboard (its
    bottom at 930: 258 covered) to ending at its top (nothing covered)."""

    @staticmethod
    def cover(f):
        if abs(f.t - 1.10) <= 0.0167:
            return None  # a frame from the move: either place may be on the screen
        return 258 if f.t < 1.10 else 0

    def judge(self, frames):
        judge = CellJudge()
        wrong = judge.cycle(frames, 288, 334, False, 1.0, 3.0, 3.1, cover=self.cover)
        return judge, wrong

    def test_padding_the_cover_before_the_move_is_right_and_after_it_is_wrong(self):
        # 1.05: covered 258, padded 258: right. 1.50: moved, padded 258: 258 over.
        judge, wrong = self.judge([frame(1.05, 334, 258, 70), frame(1.50, 334, 258, 70)])
        self.assertEqual((judge.judged, judge.excess, judge.peak), (2, 1, 258))
        self.assertIn("allowed 0", wrong[0])

    def test_a_frame_at_the_move_is_not_judged(self):
        judge, wrong = self.judge([frame(1.10, 334, 258, 70)])
        self.assertEqual((judge.judged, judge.excess, wrong), (0, 0, []))

    def test_the_field_counts_covered_only_under_what_covers_it(self):
        # Field bottom 300 of 334: under the 258 covered before the move
        # (334 - 258 = 76 < 300), clear after it (nothing covered).
        judge, _ = self.judge([frame(1.05, 334, 0, 300), frame(1.50, 334, 0, 300)])
        self.assertEqual(judge.covered, 1)

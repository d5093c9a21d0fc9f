"""scripts/osk/im_frames.py (the frames of the GTK and Qt input-method modules'
apps, judged by frame_rule's CellJudge): where a cycle's truth starts and
ends, from readings of the screen, and which frames fail, with values worked
out by hand. A judge that passes everything would pass gtk-test and
qt-im-test too; these wrong frames must fail it.

  python3 -m unittest scripts/osk/test_im_frames.py
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import im_frames  # noqa: E402
from frame_rule import CellJudge  # noqa: E402

# Two cycles: focus at 10 s, blur at 11 s, focus at 12 s, blur at 13 s.
STEPS = [("focus", 10.0), ("blur", 11.0), ("focus", 12.0), ("blur", 13.0)]
# (before, after, state, zone): squeekboard's 172 px zone.
SAMPLES = [
    (9.90, 9.95, "gone", 0),
    (10.05, 10.10, "moving", 172),
    (10.15, 10.20, "up", 172),   # up_at 10.20
    (10.50, 10.55, "up", 172),
    (10.90, 10.95, "up", 172),
    (11.05, 11.10, "moving", 172),
    (11.20, 11.25, "gone", 0),   # gone_at 11.25
    (11.60, 11.65, "gone", 0),
    (12.02, 12.07, "gone", 0),   # the last reading still gone: cycle 1 ends at 12.02
    (12.10, 12.15, "up", 172),   # up_at 12.15
    (12.90, 12.95, "up", 172),
    (13.10, 13.15, "gone", 0),   # gone_at 13.15, end 13.60
    (13.60, 13.65, "gone", 0),
    (13.70, 13.75, "up", 172),
]


def gtk(t, height, padding, field=700):
    return im_frames.gtk_frame([t * 1000, height, padding, 0, field])


class Cycles(unittest.TestCase):
    def test_truth_of_each_cycle(self):
        cycles = im_frames.cycles_of(STEPS, SAMPLES)
        self.assertEqual(cycles[0], (10.0, 11.0, 10.20, 172, 11.25, 12.02))
        self.assertEqual(cycles[1], (12.0, 13.0, 12.15, 172, 13.15, 13.60))

    def test_a_dropped_show_starts_the_run_again(self):
        samples = SAMPLES[:3] + [(10.40, 10.45, "gone", 0), (10.60, 10.65, "up", 172)] + SAMPLES[4:]
        self.assertEqual(im_frames.cycles_of(STEPS, samples)[0][2], 10.65)

    def test_never_up_nor_gone(self):
        moving = [(t, t + 0.05, "moving", 100) for t in (10.1, 10.5, 11.1, 11.5)]
        self.assertEqual(im_frames.cycles_of(STEPS[:2], moving)[0], (10.0, 11.0, None, 0, None, None))


class Judging(unittest.TestCase):
    def judge(self, frames):
        """(CellJudge, wrong frames named by cycle, cycles never seen up)."""
        judge = CellJudge()
        cycles = im_frames.judge_cycles(judge, frames, STEPS, SAMPLES, 2)
        wrong = [f"cycle {n}: {w}" for n, _, _, bad in cycles for w in bad]
        return judge, wrong, [n for n, _, up_at, _ in cycles if up_at is None]

    def test_right_frames_pass(self):
        # Full screen: the 172 px keyboard covers 172 of the 960 px window
        # (+1 px); the shrunk 788 px window, none; after the blur, nothing.
        frames = [gtk(10.1, 960, 172), gtk(10.5, 960, 173), gtk(10.6, 788, 1), gtk(11.5, 960, 0), gtk(12.5, 960, 172)]
        judge, wrong, unseen = self.judge(frames)
        self.assertEqual((wrong, unseen), ([], []))
        # 10.1 is before the keyboard is certainly up (10.20 + 16.7 ms): not judged.
        self.assertEqual((judge.frames, judge.judged, judge.excess), (5, 4, 0))

    def test_too_much_inset_fails(self):
        frames = [gtk(10.5, 960, 174),      # 2 px over the keyboard
                  gtk(10.6, 788, 172),      # a shrunk window is covered by nothing
                  gtk(11.5, 960, 172),      # padded for a keyboard that is gone
                  gtk(12.0, 960, 50),       # padded after the next focus, before the keyboard came
                  gtk(12.01, 960, 50)]      # the truth after 12.02 - 16.7 ms is not certain: not judged
        judge, wrong, _ = self.judge(frames)
        self.assertEqual((judge.judged, judge.excess, judge.after_blur, judge.peak), (4, 4, 2, 172))
        self.assertEqual(len(wrong), 4)
        self.assertTrue(wrong[0].startswith("cycle 1: +300 ms from up: viewport 960, inset 174, allowed 172"), wrong)

    def test_field_covered_is_counted(self):
        # Full screen, keyboard up: the field must end above 960 - 172 = 788 (+1).
        judge, wrong, _ = self.judge([gtk(10.5, 960, 172, field=789), gtk(10.6, 960, 172, field=790)])
        self.assertEqual((wrong, judge.covered, [round(ms) for ms in judge.visible_after]), ([], 1, [300]))

    def test_a_frame_drawn_before_the_keyboard_came_is_on_the_screen(self):
        # The app padded and scrolled at 10.15 s, before the reading saw the
        # keyboard up (10.20 s), and drew nothing more: the field was visible
        # when the keyboard was up, 0 ms after.
        judge, wrong, _ = self.judge([gtk(10.15, 960, 172, field=788), gtk(10.7, 960, 172, field=788)])
        self.assertEqual((wrong, judge.visible_after), ([], [0.0]))

    def test_qt_frames_carry_what_qinputmethod_said(self):
        told = [(10.3, 172), (11.2, 0)]
        frames = im_frames.frames_of([[10500, 960, 171, 0, 788], [11500, 960, 0, 0, -1]], told, "qt-im")
        self.assertEqual([(f.t, f.inset, f.told) for f in frames], [(10.5, 171, 172), (11.5, 0, 0)])
        judge, wrong, _ = self.judge(frames)
        self.assertEqual((wrong, judge.told), ([], 0))
        # Told of the keyboard after it was gone: counted.
        late = im_frames.frames_of([[11500, 960, 0, 0, -1]], [(10.3, 172)], "qt-im")
        self.assertEqual(self.judge(late)[0].told, 1)



class HeldP6(unittest.TestCase):
    """P6 for apps that draw only what changes (kiosk_qtim's forms): a frame
    with the field clear drawn before the OSK drew is on the screen then."""

    def test_a_clear_frame_before_the_drawing_is_p6_zero(self):
        from frame_rule import CellJudge, qt_im_frame
        # Full screen: the margin 172 applied at 10.10 (field bottom 788 =
        # 960 - 172), squeekboard drew at 10.15, seen up at 10.20.
        judge = CellJudge()
        frames = [qt_im_frame([10100, 960, 172, 194, 788], 172)]
        judge.cycle(frames, 172, 960, True, 10.20, 11.0, 11.25, drawn_at=10.15, held=True)
        self.assertEqual(judge.drawn_to_visible, [0.0])

    def test_a_covered_frame_before_the_drawing_waits_for_the_next(self):
        from frame_rule import CellJudge, qt_im_frame
        # The field under the keyboard (bottom 928 > 788) until the frame at
        # 10.30 scrolls it above: P6 = 10.30 - 10.15 = 150 ms.
        judge = CellJudge()
        frames = [qt_im_frame([10100, 960, 0, 32, 928], 172), qt_im_frame([10300, 960, 172, 194, 788], 172)]
        judge.cycle(frames, 172, 960, True, 10.20, 11.0, 11.25, drawn_at=10.15, held=True)
        self.assertEqual([round(v) for v in judge.drawn_to_visible], [150])



class PhocReading(unittest.TestCase):
    """phoc has no IPC: what each OSK and window mode is read by there."""

    class Session:
        def __init__(self, visible):
            self.visible = visible

        def squeekboard_visible(self):
            return self.visible

    def test_squeekboard_is_its_visible_at_its_height(self):
        for mode in ("app", "kiosk"):
            self.assertEqual(im_frames.phoc_reading(self.Session(True), "squeekboard", mode, None, None, 172), ("up", 172))
            self.assertEqual(im_frames.phoc_reading(self.Session(False), "squeekboard", mode, None, None, 172), ("gone", 0))
            self.assertIsNone(im_frames.phoc_reading(self.Session(None), "squeekboard", mode, None, None, 172))

    def test_wvkbd_full_screen_is_its_own_drawing(self):
        # Nothing shrinks in full screen: the OSK's log (ShownHeight) says.
        for shown, want in ((300, ("up", 300)), (0, ("gone", 0)), (None, None)):
            self.assertEqual(im_frames.phoc_reading(None, "wvkbd", "kiosk", None, lambda: shown, 172), want)

    def test_wvkbd_app_window_is_what_the_window_lost(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
            f.write("insetd-frame [1000, 960, 0, 0, 982]\ninsetd-frame [1100, 660, 0, 256, 660]\n")
        self.addCleanup(os.unlink, f.name)
        # 960 - 660: the 300 px zone phoc took from the window.
        self.assertEqual(im_frames.phoc_reading(None, "wvkbd", "app", f.name, None, 172), ("up", 300))


if __name__ == "__main__":
    unittest.main()

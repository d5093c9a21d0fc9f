"""insetd.js on a turned screen (docs/WEB.md, "Screen, window and viewport"):
the page shows no keyboard for the turned screen before insetd speaks for it,
and heights reported out of step soon after a turn never pad a window shrunk
away from the keyboard (the page and the emulated output: window_page.py).
"""
from harness import PORTRAIT, Daemon, free_port, keyboard
from window_page import WindowPageTest


class TurnedScreen(WindowPageTest):
    def landscape_keyboard(self, daemon):
        """The page full screen on the output turned to 844x390, a field
        focused: the configured 209 at (0, 390 - 209 = 181, 844, 209), all of
        it over the viewport."""
        page = self.open(daemon, 844)
        self.turn(844, 390)
        page.wait_for_function("() => innerWidth === 844 && insetd.window?.y === 0", timeout=5000)
        page.focus("#f5")
        page.wait_for_function("() => insetd.boundingRect.height === 209", timeout=5000)
        return page

    def test_a_turn_is_a_transition_of_no_duration(self):
        """A Wayland compositor turns the window at once: the page tells
        insetd of the new screen with a 0 s transition, so that no view is
        animated into the turned viewport under a keyboard drawn there."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.open(daemon, 844)
            self.turn(844, 390)
            page.wait_for_function("() => innerWidth === 844", timeout=5000)
            page.wait_for_timeout(100)
            self.assertEqual(self.sent(page, "transition"),
                             [{"type": "transition", "duration": 0, "screen": {"width": 844, "height": 390}}])
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_turned_screen_shows_no_keyboard_before_insetd_speaks_for_it(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.landscape_keyboard(daemon)
            page.wait_for_function("() => document.body.style.paddingBottom === '209px'", timeout=5000)
            # insetd's word reaches the page 400 ms late; every frame the page draws is logged.
            page.evaluate("""() => { window.frames_ = [];
                const log = () => { frames_.push([innerWidth, insetd.boundingRect.height,
                    document.body.style.paddingBottom]); requestAnimationFrame(log); };
                requestAnimationFrame(log);
                const receive = insetd.receive.bind(insetd);
                insetd.receive = (m) => m.type === 'keyboard' ? setTimeout(() => receive(m), 400) : receive(m); }""")
            self.turn(390, 844)
            page.wait_for_function("() => innerWidth === 390", timeout=5000)
            page.wait_for_timeout(150)
            # The landscape keyboard laid over the portrait viewport would cover
            # its 181..390 (209 px): the turned screen has no such keyboard.
            self.assertEqual(page.evaluate("() => [insetd.boundingRect.height, document.body.style.paddingBottom]"),
                             [0, ""])
            # insetd's portrait frame, when it comes: (0, 844 - 336 = 508, 390, 336).
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), PORTRAIT)
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
            frames = page.evaluate("() => frames_")
            portrait = [f for f in frames if f[0] == 390]
            told = next(i for i, f in enumerate(portrait) if f[1] == 336)
            self.assertTrue(all(f[1:] == [0, ""] for f in portrait[:told]),
                            f"no portrait frame before insetd's word shows a keyboard: {portrait[:told]}")
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_frame_said_for_the_screen_before_a_turn_shows_no_keyboard(self):
        """insetd's word on the landscape keyboard crosses the page's own turn
        back to portrait (an OSK's report of its landscape frame, sent just
        before the turn): the landscape frame (0, 181, 844, 209) reaches past
        the portrait screen's right edge (390), so the page shows no keyboard
        until insetd's portrait frame (0, 508, 390, 336)."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.landscape_keyboard(daemon)
            landscape = page.evaluate("""() => insetd.log.filter((e) => e.direction === 'in'
                && e.message.type === 'keyboard').pop().message""")
            self.assertEqual(landscape["end"], {"x": 0, "y": 181, "width": 844, "height": 209})
            self.turn(390, 844)
            page.wait_for_function("() => innerWidth === 390", timeout=5000)
            shown = page.evaluate("""(m) => { insetd.receive(m);
                return [insetd.boundingRect.height, document.body.style.paddingBottom]; }""", landscape)
            self.assertEqual(shown, [0, ""])
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), PORTRAIT)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_heights_out_of_step_soon_after_a_turn_never_pad_a_window_shrunk_away(self):
        """The first 2 s after a rotation take the top first seen on the
        turned output as provisional; a place it then leaves is still doubted
        (for 250 ms), so the out-of-step heights of a resize in that time
        (sway shrinking the window for the OSK as the user switches to it)
        pad nothing the settled place does not show."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.padded_under_a_bar(daemon)
            page.evaluate("""() => {
                // The output turned and back within a frame, as the viewport sees it:
                // its top on the portrait output is provisional from here.
                const output = (w, h) => { Object.defineProperty(screen, 'width', { value: w, configurable: true });
                    Object.defineProperty(screen, 'height', { value: h, configurable: true }); };
                output(844, 390); insetd.viewport.candidates();
                output(390, 844); insetd.viewport.candidates();
                // The inner height alone shrunk (the outer still 844): the estimate says
                // y 392 (392..844, 336 covered), the provisional top 56..508 nothing.
                heights(452, 844);
                // Then both: y 56, nothing covered.
                heights(452, 508); }""")
            self.assertEqual(page.evaluate("() => paddings"), ["", ""])
            # An estimate that holds its new place past the shorter doubt is taken.
            page.evaluate("() => heights(452, 844)")
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=1500)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

"""insetd.js's coordinate rules (docs/WEB.md, "Screen, window and viewport"):
the screen is the output (screen.width/height), a viewport resize on the same
output is a `window` report and not a rotation, and the keyboard the page sees
is the part of it that covers the viewport, in the viewport's coordinates
(the page and the emulated output: window_page.py).
"""
from harness import HIDDEN, PORTRAIT, Daemon, LineClient, css_keyboard, free_port, keyboard
from window_page import WindowPageTest


class ScreenWindowViewport(WindowPageTest):
    def test_a_viewport_the_compositor_shrank_is_a_window_not_a_rotation(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            # Shrunk to end where the keyboard starts (844 - 336 = 508).
            page = self.open(daemon, 508)
            self.assertEqual(page.evaluate("() => [screen.width, screen.height, innerWidth, innerHeight]"), [390, 844, 390, 508])
            # No `origin`: the page takes its window (390x508, outer as inner
            # here: no bars) to be at the top-left and says its size.
            self.assertEqual(self.sent(page, "window"), [{"type": "window", "frame": {"x": 0, "y": 0, "width": 390, "height": 508},
                                                          "toplevel": {"width": 390, "height": 508}}])
            page.focus("#f5")
            self.wait_keyboard_message(page, "didShow")
            page.wait_for_timeout(300)  # past the filter's delivery
            # The keyboard is up on the screen but covers none of the viewport.
            self.assertEqual(page.evaluate("() => [insetd.keyboardFrame.y, insetd.keyboardFrame.height]"), [508, 336])
            self.assertEqual(keyboard(page), HIDDEN)
            self.assertEqual(css_keyboard(page), ["0px", "0px", "0px", "0px"])
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")

            # The window grows back to the whole output while the keyboard is
            # up: a window report, still no rotation; now all of it covers.
            self.resize(844)
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), PORTRAIT)
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
            self.assertEqual(self.sent(page, "window")[-1]["frame"], {"x": 0, "y": 0, "width": 390, "height": 844})
            self.assertEqual(self.sent(page, "transition"), [], "the output never changed size")
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_window_grown_back_after_a_blur_shows_no_keyboard_before_insetd_speaks(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.open(daemon, 508)
            page.focus("#f5")
            self.wait_keyboard_message(page, "didShow")
            self.assertEqual(keyboard(page), HIDDEN, "the shrunk window is covered by nothing")
            # insetd's word on the keyboard reaches the page 400 ms late (a busy
            # page, a slow link), so the compositor's grow-back (it has taken its
            # room for the keyboard back) comes first.
            page.evaluate("""() => { window.seen = []; insetd.addEventListener('geometrychange',
                () => seen.push(insetd.boundingRect.height));
                const receive = insetd.receive.bind(insetd);
                insetd.receive = (m) => m.type === 'keyboard' ? setTimeout(() => receive(m), 400) : receive(m);
                document.activeElement.blur(); }""")
            self.resize(844)
            page.wait_for_function("() => innerHeight === 844", timeout=5000)
            page.wait_for_timeout(200)
            # 844 - 336 = 508: the grown viewport would be covered by 336 px of
            # the keyboard insetd last described, which the screen no longer has.
            self.assertEqual(page.evaluate("() => [insetd.boundingRect.height, document.body.style.paddingBottom, seen]"),
                             [0, "", []])
            # The hide, when it comes, changes nothing the page shows.
            page.wait_for_function("() => insetd.keyboardFrame === null", timeout=5000)
            self.assertEqual(page.evaluate("() => [insetd.boundingRect.height, seen]"), [0, []])
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_window_grown_into_the_keyboard_shows_none_of_it_before_insetd_speaks(self):
        """No blur: the OSK ended (or hid by itself) and the compositor gave
        the window back the room it made for the keyboard, before insetd heard
        of it. Here insetd never does (the keyboard stays up as it knows it):
        the grown viewport (844, all of the keyboard's 508..844 over it) shows
        none of the keyboard for 300 ms, then all 336 px."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.open(daemon, 508)
            page.focus("#f5")
            self.wait_keyboard_message(page, "didShow")
            page.wait_for_timeout(300)
            self.assertEqual(keyboard(page), HIDDEN, "the shrunk window is covered by nothing")
            page.evaluate("""() => { window.frames_ = [];
                const log = (t) => { frames_.push([t, innerHeight, insetd.boundingRect.height,
                    document.body.style.paddingBottom]); requestAnimationFrame(log); };
                requestAnimationFrame(log); }""")
            self.resize(844)
            page.wait_for_function("() => innerHeight === 844", timeout=5000)
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
            self.assertEqual(keyboard(page), PORTRAIT)
            grown = [f for f in page.evaluate("() => frames_") if f[1] == 844]
            held = [f for f in grown if f[0] - grown[0][0] < 250]
            self.assertTrue(len(held) > 3, grown)
            self.assertTrue(all(f[2:] == [0, ""] for f in held), held)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_viewport_at_an_offset_gets_what_the_keyboard_covers(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            # A window filling the output with a 56 px bar above the viewport
            # (outerHeight 844, innerHeight 788): the viewport starts at y 56.
            page = self.open(daemon, 788, window=844)
            self.assertEqual(self.sent(page, "window")[-1]["frame"], {"x": 0, "y": 56, "width": 390, "height": 788})
            page.focus("#f9")
            # The keyboard's top, 508 on the screen, is 508 - 56 = 452 in the viewport.
            page.wait_for_function("() => insetd.boundingRect.y === 452 && insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), [0, 452, 390, 336])
            self.assertEqual(css_keyboard(page), ["0px", "452px", "390px", "336px"])
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
            page.wait_for_function("""() => { const f = document.querySelector('#f9').getBoundingClientRect();
                return f.top >= 0 && f.bottom <= 452 && ![...insetd.views.values()].some((v) => v.animating); }""", timeout=5000)

            # Blur: nothing covers, nothing padded.
            page.evaluate("() => document.activeElement.blur()")
            page.wait_for_function("() => insetd.boundingRect.height === 0", timeout=5000)
            page.wait_for_function("() => document.body.style.paddingBottom === ''", timeout=5000)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_the_origin_option_places_the_viewport(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            # The browser sees no bar (outerHeight = innerHeight = 788); the page
            # knows its viewport starts at y 56 (a panel the compositor draws).
            page = self.open(daemon, 788, options=", origin: { x: 0, y: 56 }")
            self.assertEqual(page.evaluate("() => [outerHeight, innerHeight]"), [788, 788])
            self.assertEqual(self.sent(page, "window")[-1]["frame"], {"x": 0, "y": 56, "width": 390, "height": 788})
            page.focus("#f9")
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), [0, 452, 390, 336])
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_a_page_that_connects_while_the_keyboard_is_up_sees_it_at_once(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            # Another client's field has the keyboard up (0, 508, 390, 336).
            app = LineClient(daemon.socket)
            app.send('{"type":"register","view":"v","frame":{"x":0,"y":0,"width":390,"height":844},'
                     '"contentSize":{"width":390,"height":2000}}')
            app.send('{"type":"focus","view":"v","field":{"x":0,"y":700,"width":390,"height":44},"id":1}')
            self.assertEqual(app.next("ok")["id"], 1)
            page = self.open(daemon, 844)
            self.assertEqual(keyboard(page), PORTRAIT)
            self.assertEqual(css_keyboard(page), ["0px", "508px", "390px", "336px"])
            page.close()
            app.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_heights_reported_out_of_step_never_pad_a_window_shrunk_away_from_the_keyboard(self):
        """Chromium on Wayland reports a resized window's inner and outer
        heights out of step, in either order (seen under load: the outer
        shrunk with the inner not yet, then the inner shrunk with the outer
        back at its old value). The heights are replayed here as the page saw
        them; the estimated top (screenY + outer - inner) must not put the
        viewport under the keyboard for any of them."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.padded_under_a_bar(daemon)
            # The compositor shrinks the window to end at the keyboard's top
            # (outer 508, viewport 56..508: nothing covered). First the outer
            # height alone: the estimate says y 0 (outer < inner), the viewport
            # 0..788, 280 covered; the settled 56..844 is a candidate too: 280.
            page.evaluate("() => heights(788, 508)")
            # Then the inner alone, the outer back at 844: the estimate says
            # y 392 (392..844, 336 covered), the settled top 56..508 nothing.
            page.evaluate("() => heights(452, 844)")
            # Then both: y 56, 56..508, nothing covered.
            page.evaluate("() => heights(452, 508)")
            self.assertEqual(page.evaluate("() => paddings"), ["280px", "", ""])
            # insetd, told of the window at each frame (a window report per
            # frame), never pads it again: an adjustment laid out for y 392
            # is cut to what the smaller place shows.
            page.wait_for_timeout(400)
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            # An estimate that holds its new place for 2 s is taken: the
            # inner-only report again (y 392, 336 covered there, nothing at
            # the settled 56) pads nothing at first, then 336 once the doubt
            # ran out, with no further event from the page.
            page.evaluate("() => heights(452, 844)")
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            page.wait_for_timeout(1500)
            self.assertEqual(page.evaluate("() => document.body.style.paddingBottom"), "")
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=3000)
            page.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

    def test_the_compositors_focused_window_places_a_page_that_cannot_know(self):
        """A maximized window under a 32 px top bar (GNOME Shell's): 390x812 at
        y 32, ending at the output's bottom (844). The page takes it to be at
        the top-left (0..812) and would see 812 - 508 = 304 of the keyboard;
        a bridge says where the compositor draws the focused window, insetd
        places the page there and tells it, and it sees all 336 (at y 508 - 32
        = 476 of its viewport). A focused window of another size is another
        window's: the page is back at its own word, 304."""
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.open(daemon, 812)
            bridge = LineClient(daemon.socket)
            bridge.send('{"type":"focusedWindow","bridge":"gnome","frame":{"x":0,"y":32,"width":390,"height":812},"id":1}')
            self.assertEqual(bridge.next("ok")["id"], 1)
            page.focus("#f5")
            self.wait_keyboard_message(page, "didShow")
            page.wait_for_function("() => insetd.boundingRect.height === 336", timeout=5000)
            self.assertEqual(keyboard(page), [0, 476, 390, 336])
            page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
            placed = [e["origin"] for e in page.evaluate("""() => insetd.log.filter((e) => e.direction === 'in'
                && e.message.type === 'placed').map((e) => e.message)""")]
            self.assertEqual(placed, [{"x": 0, "y": 32}])
            self.assertEqual(self.sent(page, "window"), [{"type": "window", "frame": {"x": 0, "y": 0, "width": 390, "height": 812},
                                                          "toplevel": {"width": 390, "height": 812}}],
                             "the page's own word stays as it was")
            # Another window (390x700) has the compositor's focus now.
            bridge.send('{"type":"focusedWindow","bridge":"gnome","frame":{"x":0,"y":32,"width":390,"height":700},"id":2}')
            self.assertEqual(bridge.next("ok")["id"], 2)
            page.wait_for_function("() => insetd.boundingRect.height === 304", timeout=5000)
            self.assertEqual(keyboard(page), [0, 508, 390, 304])
            page.wait_for_function("() => document.body.style.paddingBottom === '304px'", timeout=5000)
            page.close()
            bridge.close()
        finally:
            self.assertEqual(daemon.stop(), 0)

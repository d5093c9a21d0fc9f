"""insetd.js's coordinate rules (docs/WEB.md, "Screen, window and viewport"):
the screen is the output (screen.width/height), a viewport resize on the same
output is a `window` report and not a rotation, and the keyboard the page sees
is the part of it that covers the viewport, in the viewport's coordinates.

The output is emulated at 390x844 (the daemon's configured screen) with a
smaller viewport through Chromium's device-metrics override, as a compositor
shrinking the window for an OSK's exclusive zone does. Hand-derived values:
the portrait keyboard is (0, 508, 390, 336) on the screen.
"""
import http.server
import threading
import unittest

from harness import HIDDEN, PORTRAIT, Daemon, LineClient, css_keyboard, free_port, keyboard

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<style>body {{ margin: 0; font: 18px sans-serif; }} input {{ display: block; margin: 8px; height: 40px; }}</style>
</head><body>{fields}<script type="module">
  import {{ connect }} from "{insetd}/insetd.js";
  window.insetd = connect({{ name: "window-test"{options} }});
</script></body></html>"""


# heights(inner, outer): the browser reports the window's inner and outer
# heights as given (out of step, as Chromium on Wayland does) and insetd.js
# hears the resize; the padding after each goes to `paddings`.
HEIGHTS = """() => { window.paddings = [];
    window.heights = (inner, outer) => {
        Object.defineProperty(window, 'innerHeight', { value: inner, configurable: true });
        Object.defineProperty(window, 'outerHeight', { value: outer, configurable: true });
        insetd.viewportResized();
        paddings.push(document.body.style.paddingBottom);
    }; }"""


def fields():
    return "".join(f'<input id="f{i}">' for i in range(1, 31))


class ScreenWindowViewport(unittest.TestCase):
    def setUp(self):
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"

    def serve(self, html):
        """The test page, from an origin of its own (listed in websocket.origins)."""
        body = html.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)

    def open(self, daemon, height, window=None, options=""):
        import harness
        self.serve(PAGE.format(fields=fields(), insetd=daemon.url, options=options))
        page = harness.browser.new_page(viewport={"width": 390, "height": 844})
        self.cdp = page.context.new_cdp_session(page)
        self.resize(height, window)
        page.goto(f"{self.origin}/")
        page.wait_for_function("() => window.insetd && insetd.connected", timeout=5000)
        return page

    def resize(self, height, window=None):
        """The viewport's height on an unchanged 390x844 output, and the
        window's (outerHeight: the viewport and the browser's bars above it)."""
        self.cdp.send("Emulation.setDeviceMetricsOverride", {
            "width": 390, "height": height, "deviceScaleFactor": 1, "mobile": False,
            "screenWidth": 390, "screenHeight": 844})
        target = self.cdp.send("Browser.getWindowForTarget")
        self.cdp.send("Browser.setWindowBounds", {"windowId": target["windowId"],
                                                  "bounds": {"width": 390, "height": window or height}})

    @staticmethod
    def sent(page, kind):
        return page.evaluate(f"""() => insetd.log.filter((e) => e.direction === 'out' && e.message.type === '{kind}')
            .map((e) => e.message)""")

    @staticmethod
    def wait_keyboard_message(page, phase):
        page.wait_for_function(f"""() => insetd.log.some((e) => e.direction === 'in' && e.message.type === 'keyboard'
            && e.message.phase === '{phase}')""", timeout=5000)

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

    def turn(self, width, height):
        """The output turned to width x height, the viewport filling it (a
        full-screen window), as a rotation does. The window first, so that
        the viewport's resize sees it (outerHeight) at its new size: the other
        way round the page would place its viewport at the old outer height
        less the new inner one (y 454 on the turn to landscape)."""
        target = self.cdp.send("Browser.getWindowForTarget")
        self.cdp.send("Browser.setWindowBounds", {"windowId": target["windowId"],
                                                  "bounds": {"width": width, "height": height}})
        self.cdp.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False,
            "screenWidth": width, "screenHeight": height})

    def test_a_turned_screen_shows_no_keyboard_before_insetd_speaks_for_it(self):
        daemon = Daemon(free_port(), origins=[self.origin])
        try:
            page = self.open(daemon, 844)
            self.turn(844, 390)
            page.wait_for_function("() => innerWidth === 844 && insetd.window?.y === 0", timeout=5000)
            page.focus("#f5")
            # Landscape: the configured 209 at (0, 390 - 209 = 181, 844, 209), all of it over the viewport.
            page.wait_for_function("() => insetd.boundingRect.height === 209", timeout=5000)
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


    def padded_under_a_bar(self, daemon):
        """A 56 px bar over a 788 px viewport: the viewport is 56..844, the
        keyboard (508..844) covers 336 of it, and the page is padded so with
        its field focused; `heights(inner, outer)` replays a resize."""
        page = self.open(daemon, 788, window=844)
        page.focus("#f9")
        page.wait_for_function("() => document.body.style.paddingBottom === '336px'", timeout=5000)
        page.wait_for_function("() => ![...insetd.views.values()].some((v) => v.animating)", timeout=5000)
        page.evaluate(HEIGHTS)
        return page

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

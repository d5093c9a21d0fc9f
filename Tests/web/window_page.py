"""The page, the emulated output and the window the browser tests of insetd.js's
coordinate rules share (test_window, test_turn; docs/WEB.md, "Screen, window
and viewport").

The output is emulated at 390x844 (the daemon's configured screen) with a
smaller viewport through Chromium's device-metrics override, as a compositor
shrinking the window for an OSK's exclusive zone does. Hand-derived values:
the portrait keyboard is (0, 508, 390, 336) on the screen.
"""
import unittest

from harness import free_port, serve_page

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


class WindowPageTest(unittest.TestCase):
    """Serves the page from an origin of its own and resizes its window."""

    def setUp(self):
        self.port = free_port()
        self.origin = f"http://127.0.0.1:{self.port}"

    def serve(self, html):
        """The test page, from an origin of its own (listed in websocket.origins)."""
        serve_page(self, self.port, html)

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

    @staticmethod
    def sent(page, kind):
        return page.evaluate(f"""() => insetd.log.filter((e) => e.direction === 'out' && e.message.type === '{kind}')
            .map((e) => e.message)""")

    @staticmethod

    @staticmethod
    def wait_keyboard_message(page, phase):
        page.wait_for_function(f"""() => insetd.log.some((e) => e.direction === 'in' && e.message.type === 'keyboard'
            && e.message.phase === '{phase}')""", timeout=5000)

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

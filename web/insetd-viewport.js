// insetd.js's viewport: where the page's viewport is on the screen at this
// frame, and what of the keyboard (in screen coordinates, as insetd says) it
// shows. Kept apart from the connection because the browser's reports of the
// window's place are not always true at the frame they arrive in
// (docs/WEB.md, "Screen, window and viewport").

import { inViewport, measureScreen, measureWindow } from "./insetd-geometry.js";

/// How long an inner height that changed without the outer one leaves the
/// viewport's top in doubt (`Viewport.candidates`).
const DOUBT_MS = 2000;

/// The viewport's place on the screen, tracked from frame to frame.
/// `origin`: the page's own word on the viewport's top-left (`connect`'s
/// option); `onSettle`: called when a doubt about the place has ended.
export class Viewport {
  constructor(origin, onSettle) {
    this.origin = origin;
    this.onSettle = onSettle;
    this.last = null;
    this.doubtTimer = 0;
    /// The viewport's frame on the screen as insetd was last told (null: not yet).
    this.reported = null;
  }

  /// The viewport's frame on the screen when it is not where insetd was last
  /// told, taken as told; null when it is.
  moved() {
    const window = measureWindow(this.origin);
    const known = this.reported;
    if (known && known.x === window.x && known.y === window.y && known.width === window.width &&
        known.height === window.height) return null;
    this.reported = window;
    return window;
  }

  /// Stops watching (the page closed its connection).
  close() {
    clearTimeout(this.doubtTimer);
  }

  /// Where the viewport may be on the screen at this frame: one place, or
  /// two. Chromium on Wayland reports a resized window's new innerHeight
  /// before its new outerHeight (a frame, or hundreds of milliseconds on a
  /// busy machine), and the viewport's top is estimated from the two (the
  /// browser's own bar is outer − inner high), so a shrink moves the estimate
  /// down by the whole shrink. From the moment the inner height changed alone
  /// on the same output until the outer height follows (at most `DOUBT_MS`),
  /// the viewport with its previous top is a candidate too, and what the page
  /// shows of the keyboard is the smaller part: never padding for a keyboard
  /// the window was just shrunk away from.
  candidates() {
    const measured = measureWindow(this.origin);
    const now = performance.now();
    const last = this.last;
    const screen = measureScreen();
    const output = `${screen.width}x${screen.height}`;
    if (!last || last.inner !== innerHeight || last.outer !== outerHeight || last.output !== output) {
      // A rotation resizes the window on a new output: no doubt there.
      const innerOnly = last && last.output === output && last.outer === outerHeight && last.inner !== innerHeight;
      this.last = { inner: innerHeight, outer: outerHeight, output, y: measured.y,
        previousY: innerOnly ? last.y : null, since: now };
      clearTimeout(this.doubtTimer);
      if (innerOnly) this.watchOuterHeight(outerHeight, now);
    }
    const { previousY, since } = this.last;
    if (previousY === null || previousY === measured.y || now - since > DOUBT_MS) return [measured];
    return [measured, { ...measured, y: previousY }];
  }

  /// No event tells of a new outerHeight: it is looked at every 50 ms while
  /// in doubt, and the page follows once it changed or the doubt ran out.
  watchOuterHeight(outer, since) {
    this.doubtTimer = setTimeout(() => {
      if (outerHeight !== outer || performance.now() - since > DOUBT_MS) this.onSettle();
      else this.watchOuterHeight(outer, since);
    }, 50);
  }

  /// The part of `keyboard` (screen coordinates; null: hidden) the viewport
  /// shows now, in its coordinates (the smaller, where the viewport's place
  /// is uncertain).
  keyboardPart(keyboard) {
    let least = null;
    for (const window of this.candidates()) {
      const part = inViewport(keyboard, window);
      if (!part) return null;
      if (!least || part.height < least.height) least = part;
    }
    return least;
  }

  /// How much of `view` `keyboard` covers on the screen now, from where the
  /// view is at this frame.
  covered(keyboard, view) {
    let least = Infinity;
    for (const window of this.candidates()) {
      const part = inViewport(keyboard, window);
      if (!part) return 0;
      const r = view.isDocument ? { x: 0, y: 0, width: window.width, height: window.height }
        : view.element.getBoundingClientRect();
      least = Math.min(least, inViewport(part, r)?.height ?? 0);
    }
    return least;
  }
}

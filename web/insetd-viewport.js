// insetd.js's viewport: where the page's viewport is on the screen at this
// frame, and what of the keyboard (in screen coordinates, as insetd says) it
// shows. Kept apart from the connection because the browser's reports of the
// window's place are not always true at the frame they arrive in
// (docs/WEB.md, "Screen, window and viewport").

import { inViewport, measureScreen, measureWindow } from "./insetd-geometry.js";

/// How long a viewport top estimated somewhere new on the same output stays in
/// doubt (`Viewport.candidates`).
const DOUBT_MS = 2000;
/// The same in the first `DOUBT_MS` after a rotation: the top first seen on the
/// turned output may be one of the out-of-step estimates, so a place it leaves
/// is doubted only this long before the new one is taken.
const TURN_DOUBT_MS = 250;

/// The viewport's place on the screen, tracked from frame to frame.
/// `origin`: the page's own word on the viewport's top-left (`connect`'s
/// option); `onSettle`: called when a doubt about the place has ended.
export class Viewport {
  constructor(origin, onSettle) {
    this.origin = origin;
    this.onSettle = onSettle;
    /// The top last taken as true: its y, on which output, since when it has
    /// been in doubt (null: not), and until when a rotation's first moments
    /// settle any place.
    this.settled = null;
    this.doubtTimer = 0;
    /// The viewport's frame on the screen as insetd was last told (null: not yet).
    this.reported = null;
    /// Where the compositor draws the window, as insetd says (`placed`): the
    /// viewport's place taken at the top-left, moved by it. A page that gives
    /// its origin is never placed.
    this.drawnAt = { x: 0, y: 0 };
    /// The viewport when last noted (`note`, `grewInto`).
    this.last = null;
  }

  /// The viewport at this frame, noted for `grewInto`.
  note() {
    this.last = this.measure();
    return this.last;
  }

  /// Whether the viewport grew (same width, more height) since the last call
  /// from ending at or above `keyboard`'s top (screen coordinates; null:
  /// none): a compositor gives a window back the room it made for a keyboard
  /// when the keyboard leaves the screen (the OSK hid or ended), before
  /// insetd may have heard of it.
  grewInto(keyboard) {
    const last = this.last;
    const now = this.note();
    return Boolean(keyboard && last && now.width === last.width && now.height > last.height &&
      last.y + last.height <= keyboard.y + 0.5);
  }

  /// insetd measures the window at `origin` (the compositor's word): a top
  /// settled or in doubt moves with it.
  place(origin) {
    if (this.settled) this.settled.y += origin.y - this.drawnAt.y;
    this.drawnAt = { x: origin.x, y: origin.y };
  }

  /// The viewport on the screen at this frame: the page's own word, or the
  /// browser's estimate moved to where insetd says the window is drawn.
  measure() {
    const window = measureWindow(this.origin);
    if (this.origin) return window;
    return { ...window, x: window.x + this.drawnAt.x, y: window.y + this.drawnAt.y };
  }

  /// The `window` message for the viewport, when it changed since insetd was
  /// last told; null when it did not. Where the browser does not know the
  /// window's place (Wayland: screenX and screenY are 0) and the page gave
  /// no origin, the frame takes the window to be at the top-left, and
  /// `toplevel` (the browser's outer window) lets insetd place it where the
  /// compositor draws it (docs/PROTOCOL.md, "Where the window is").
  windowMessage() {
    const frame = measureWindow(this.origin);
    const unplaced = !this.origin && !screenX && !screenY && outerWidth > 0 && outerHeight > 0;
    const toplevel = unplaced ? { width: Math.round(outerWidth), height: Math.round(outerHeight) } : null;
    const known = this.reported;
    if (known && known.x === frame.x && known.y === frame.y && known.width === frame.width &&
        known.height === frame.height && known.toplevel?.width === toplevel?.width &&
        known.toplevel?.height === toplevel?.height) return null;
    this.reported = { ...frame, toplevel };
    return toplevel ? { type: "window", frame, toplevel } : { type: "window", frame };
  }

  /// The viewport's frame on the screen as insetd measures it: as insetd was
  /// last told, moved to where the compositor draws the window if insetd
  /// said so (`placed`); null before insetd was told.
  measured() {
    if (!this.reported) return null;
    const { toplevel, ...frame } = this.reported;
    const at = toplevel ? this.drawnAt : { x: 0, y: 0 };
    return { ...frame, x: frame.x + at.x, y: frame.y + at.y };
  }

  /// Stops watching (the page closed its connection).
  close() {
    clearTimeout(this.doubtTimer);
  }

  /// Where the viewport may be on the screen at this frame: one place, or
  /// two. Its top is estimated from the window's (the browser's own bar is
  /// outer − inner high), and Chromium on Wayland reports a resized window's
  /// new innerHeight and outerHeight out of step: one before the other, for
  /// a frame or hundreds of milliseconds on a busy machine, and in either
  /// order (seen: outer shrunk with inner not yet, then inner shrunk with
  /// outer back at its old value). A bar that changes height is that, almost
  /// always, and not the window moving. So when the estimated top leaves the
  /// last settled one on the same output, both places are candidates until it
  /// comes back or `DOUBT_MS` have passed since it left, and what the page
  /// shows of the keyboard is the smaller part: never padding for a keyboard
  /// the window was just shrunk away from.
  candidates() {
    const measured = this.measure();
    // A page that gives its origin knows where it is.
    if (this.origin) return [measured];
    const now = performance.now();
    const screen = measureScreen();
    const output = `${screen.width}x${screen.height}`;
    const settled = this.settled;
    // A rotation resizes the window on a new output: the first top seen there
    // is taken, and for DOUBT_MS a top that leaves it is doubted only
    // TURN_DOUBT_MS (that first top may itself be out of step).
    const rotated = settled && settled.output !== output;
    if (!settled || rotated || settled.y === measured.y ||
        (settled.movedAt !== null && now - settled.movedAt > settled.doubtMs)) {
      this.settled = { y: measured.y, output, movedAt: null, doubtMs: DOUBT_MS,
        provisionalUntil: rotated ? now + DOUBT_MS : settled?.provisionalUntil ?? 0 };
      return [measured];
    }
    if (settled.movedAt === null) {
      settled.movedAt = now;
      settled.doubtMs = now < settled.provisionalUntil ? TURN_DOUBT_MS : DOUBT_MS;
      this.watchTop(measured.y, now, settled.doubtMs);
    }
    return [measured, { ...measured, y: settled.y }];
  }

  /// No event tells of a new outerHeight: while the top is in doubt it is
  /// looked at every 50 ms, and the page follows once it moved again or the
  /// doubt ran out.
  watchTop(y, since, doubtMs) {
    clearTimeout(this.doubtTimer);
    this.doubtTimer = setTimeout(() => {
      if (this.settled?.movedAt !== since) return;
      const top = this.measure().y;
      const expired = performance.now() - since > doubtMs;
      if (top !== y || expired) this.onSettle();
      if (!expired) this.watchTop(top, since, doubtMs);
    }, Math.min(50, doubtMs));
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

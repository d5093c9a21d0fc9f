// insetd.js: a web page's way in to insetd, the on-screen keyboard authority.
//
//   import { connect } from "http://127.0.0.1:PORT/insetd.js";
//   const kb = connect({ emulate: true });
//   kb.addEventListener("geometrychange", () => console.log(kb.boundingRect));
//
// An ES module with no dependencies and no build step. It speaks insetd's
// protocol (docs/PROTOCOL.md) over the WebSocket the module was loaded from:
// registers the document's scroller and every [data-insetd-view] element as
// views, reports focus, viewport changes and content changes, and applies the
// adjustments insetd sends (bottom inset as padding and scroll-padding, content
// offset by scrolling, animated as the keyboard moves). The keyboard is exposed
// as Chromium's VirtualKeyboard API exposes it: `kb.boundingRect`, a
// `geometrychange` event, and CSS custom properties --insetd-keyboard-x, -y,
// -width and -height on the root element, in the viewport's coordinates.
//
// Two coordinate spaces meet here. insetd's is the screen (the output): the
// keyboard's frame, and the screen size whose change is a rotation. The page's
// is its viewport, which the compositor may place anywhere on the screen and
// shrink for the keyboard's exclusive zone. insetd.js tells insetd where the
// viewport is (a `window` message) and turns the keyboard back into viewport
// coordinates, clipped to the part that covers the viewport. docs/WEB.md has the
// whole story.

const CURVES = {
  easeInOut: [0.42, 0, 0.58, 1],
  easeIn: [0.42, 0, 1, 1],
  easeOut: [0, 0, 0.58, 1],
  linear: [0, 0, 1, 1],
};
const EDITABLE_INPUTS = new Set([
  "text", "search", "email", "url", "tel", "password", "number", "date",
  "datetime-local", "month", "time", "week",
]);
const DOCUMENT_VIEW = "document";
/// How long after a blur a resize may only take keyboard away, if insetd has
/// not spoken of the keyboard since (its hide, or a keyboard kept up).
const BLUR_HOLD_MS = 500;

/// A cubic-bezier easing function (x from t by Newton steps, then y).
function bezier([x1, y1, x2, y2]) {
  const sample = (a, b, t) => 3 * a * t * (1 - t) ** 2 + 3 * b * t * t * (1 - t) + t ** 3;
  const slope = (a, b, t) => 3 * a * (1 - t) ** 2 + 6 * (b - a) * t * (1 - t) + 3 * (1 - b) * t * t;
  return (x) => {
    let t = x;
    for (let i = 0; i < 8; i++) {
      const d = slope(x1, x2, t);
      if (Math.abs(d) < 1e-6) break;
      t -= (sample(x1, x2, t) - x) / d;
    }
    return sample(y1, y2, Math.min(1, Math.max(0, t)));
  };
}

function cssCurve(curve) {
  return `cubic-bezier(${(CURVES[curve] ?? CURVES.easeInOut).join(",")})`;
}

/// Whether focusing `element` calls for a keyboard (also used by the Chromium
/// extension's content script, web/chromium-extension/).
export function isEditable(element) {
  if (!element || element.disabled || element.readOnly) return false;
  if (element.isContentEditable) return true;
  if (element.tagName === "TEXTAREA") return true;
  return element.tagName === "INPUT" && EDITABLE_INPUTS.has((element.type || "text").toLowerCase());
}

const round = (value) => Math.round(value * 100) / 100;

/// The output's size in CSS pixels: what insetd calls the screen. A browser
/// that reports no screen (0×0) is taken to fill it with its viewport.
function measureScreen() {
  const width = globalThis.screen?.width, height = globalThis.screen?.height;
  if (!(width > 0 && height > 0)) return { width: round(innerWidth), height: round(innerHeight) };
  return { width: round(width), height: round(height) };
}

/// Where the viewport is on the screen. The window's position is screenX/Y
/// (always 0 on Wayland, which hides it from clients: the window is assumed at
/// the output's top-left, as a kiosk's full-screen or maximized window is);
/// browser UI inside the window (an info bar, a toolbar) sits above the
/// viewport, so it starts outerHeight − innerHeight lower. Side and bottom
/// decorations are assumed absent. `origin` (an option) overrides the guess.
function measureWindow(origin) {
  const given = typeof origin === "function" ? origin() : origin;
  const x = given?.x ?? (screenX || 0);
  const y = given?.y ?? ((screenY || 0) + (outerHeight > innerHeight ? outerHeight - innerHeight : 0));
  return { x: round(x), y: round(y), width: round(innerWidth), height: round(innerHeight) };
}

/// `frame` (screen coordinates) as the viewport at `window` sees it: the part
/// that covers the viewport, in viewport coordinates; null when none does.
function inViewport(frame, window) {
  if (!frame || !window) return frame ?? null;
  const left = Math.max(frame.x, window.x), top = Math.max(frame.y, window.y);
  const right = Math.min(frame.x + frame.width, window.x + window.width);
  const bottom = Math.min(frame.y + frame.height, window.y + window.height);
  if (right <= left || bottom <= top) return null;
  return { x: round(left - window.x), y: round(top - window.y), width: round(right - left), height: round(bottom - top) };
}

/// One registered scroll view: the element, what was last told insetd, and the
/// adjustment in force.
class View {
  constructor(name, element, isDocument) {
    this.name = name;
    this.element = element;
    this.isDocument = isDocument;
    this.extraBottom = 0; // padding insetd.js added
    this.ownPaddingBottom = null; // the element's inline padding-bottom before any
    this.adjustment = null;
    this.lastDescription = "";
    this.animation = 0;
    this.animating = false;
    this.missedUpdate = false; // a geometry change came while animating
    this.onSettle = null; // called when an animation that missed one ends
  }

  get scroller() {
    return this.isDocument ? document.scrollingElement : this.element;
  }

  /// The element insetd.js pads (the document's body: padding on the root
  /// element does not grow the document's scrollable area in every engine).
  get padded() {
    return this.isDocument ? document.body : this.element;
  }

  frame() {
    if (this.isDocument) {
      return { x: 0, y: 0, width: round(innerWidth), height: round(innerHeight) };
    }
    const r = this.element.getBoundingClientRect();
    return { x: round(r.left + this.element.clientLeft), y: round(r.top + this.element.clientTop),
      width: round(this.element.clientWidth), height: round(this.element.clientHeight) };
  }

  /// Content size without insetd's padding: what the page would scroll by itself.
  contentSize() {
    const s = this.scroller;
    return { width: round(s.scrollWidth), height: round(Math.max(s.clientHeight, s.scrollHeight - this.extraBottom)) };
  }

  contentOffset() {
    const s = this.scroller;
    return { x: round(s.scrollLeft), y: round(s.scrollTop) };
  }

  /// `rect` (a DOMRect of something inside) in this view's content coordinates.
  contentRect(rect) {
    const s = this.scroller;
    const origin = this.isDocument ? { x: 0, y: 0 } : this.frame();
    // Whole pixels, rounded outward: a page scrolls by whole pixels, so a field
    // at a fractional position is only kept visible if insetd is asked to show
    // the whole pixels it touches.
    const left = Math.floor(rect.left - origin.x + s.scrollLeft), top = Math.floor(rect.top - origin.y + s.scrollTop);
    const right = Math.ceil(rect.right - origin.x + s.scrollLeft), bottom = Math.ceil(rect.bottom - origin.y + s.scrollTop);
    return { x: left, y: top, width: right - left, height: bottom - top };
  }

  /// Applies insetd's adjustment: the bottom inset as padding (so the content
  /// can scroll above the keyboard) and scroll-padding (so the browser's own
  /// scrolling into view keeps clear of it), the content offset by scrolling,
  /// both timed like the keyboard.
  ///
  /// `covered()` is what the keyboard covers of the view on the screen now:
  /// the padding never exceeds it, at any frame (an adjustment computed before
  /// insetd heard of the window's new size, or for a keyboard since hidden).
  apply(adjustment, safeBottom, covered = () => Infinity) {
    this.adjustment = adjustment;
    this.targetExtra = Math.max(0, (adjustment.adjustedContentInset?.bottom ?? 0) - safeBottom);
    const extra = Math.min(this.targetExtra, covered());
    const duration = (adjustment.animation?.duration ?? 0) * 1000;
    const ease = bezier(CURVES[adjustment.animation?.curve] ?? CURVES.easeInOut);
    const growing = extra >= this.extraBottom;
    if (growing) this.setExtraBottom(extra);
    const scroller = this.scroller;
    const target = adjustment.contentOffset ?? this.contentOffset();
    const maxY = Math.max(0, scroller.scrollHeight - scroller.clientHeight - (growing ? 0 : this.extraBottom - extra));
    const to = { x: Math.max(0, target.x), y: Math.min(maxY, Math.max(0, target.y)) };
    const from = { x: scroller.scrollLeft, y: scroller.scrollTop };
    cancelAnimationFrame(this.animation);
    const finish = () => {
      scroller.scrollTo({ left: to.x, top: to.y, behavior: "instant" });
      // What covers the view at the end, not at the start: a cut or a raise
      // made meanwhile stands.
      if (!growing) this.setExtraBottom(Math.min(this.targetExtra, covered()));
      this.animating = false;
      // A resize during the animation (the compositor shrinking the window
      // for the keyboard) was not described then: describe it now.
      if (this.missedUpdate) {
        this.missedUpdate = false;
        this.onSettle?.();
      }
    };
    if (duration <= 0 || (Math.abs(from.y - to.y) < 0.5 && Math.abs(from.x - to.x) < 0.5)) {
      finish();
      return;
    }
    this.animating = true;
    const start = performance.now();
    const step = (now) => {
      const progress = Math.min(1, (now - start) / duration);
      if (progress >= 1) return finish();
      const k = ease(progress);
      scroller.scrollTo({ left: from.x + (to.x - from.x) * k, top: from.y + (to.y - from.y) * k, behavior: "instant" });
      this.animation = requestAnimationFrame(step);
    };
    this.animation = requestAnimationFrame(step);
  }

  /// The keyboard or the view's place on the screen changed before insetd's
  /// next adjustment: the padding drops to what the keyboard covers now, or
  /// back up to insetd's, unanimated, in this frame.
  /// With `lowerOnly`, only down.
  clamp(covered, lowerOnly = false) {
    const extra = Math.min(this.targetExtra ?? 0, covered);
    if (lowerOnly && extra > this.extraBottom) return;
    if (Math.abs(extra - this.extraBottom) >= 0.5) this.setExtraBottom(extra);
  }

  setExtraBottom(extra) {
    const element = this.padded;
    if (this.ownPaddingBottom === null) {
      this.ownPaddingBottom = element.style.paddingBottom;
      this.ownComputedPadding = parseFloat(getComputedStyle(element).paddingBottom) || 0;
    }
    // A scroll container sized by its content box would grow by the padding
    // instead of scrolling further: its content box gives up as much, so it
    // keeps its size on the screen (its own height comes back with the padding).
    if (!this.isDocument && this.extraBottom === 0 && extra > 0) {
      const style = getComputedStyle(element);
      this.ownHeight = element.style.height;
      this.contentHeight = style.boxSizing === "content-box" ? parseFloat(style.height) : null;
    }
    if (this.contentHeight != null) {
      element.style.height = extra > 0 ? `${Math.max(0, this.contentHeight - extra)}px` : this.ownHeight;
      if (extra <= 0) this.contentHeight = null;
    }
    this.extraBottom = extra;
    element.style.paddingBottom = extra > 0 ? `${this.ownComputedPadding + extra}px` : this.ownPaddingBottom;
    this.scroller.style.scrollPaddingBottom = extra > 0 ? `${extra}px` : "";
  }

  /// Back to the page's own layout (disconnected from insetd).
  reset() {
    cancelAnimationFrame(this.animation);
    this.animating = false;
    this.missedUpdate = false;
    if (this.extraBottom > 0) this.setExtraBottom(0);
    this.targetExtra = 0;
    this.adjustment = null;
    this.lastDescription = "";
  }
}

/// The keyboard as the page sees it, and the connection to insetd.
export class InsetdKeyboard extends EventTarget {
  constructor(options) {
    super();
    this.options = options;
    this.url = options.url ?? (options.socket ? null : defaultURL());
    this.boundingRect = new DOMRect(0, 0, 0, 0);
    this.connected = false;
    this.state = null; // the daemon's state snapshot from `welcome`
    this.views = new Map();
    this.focused = null; // { view, element }
    this.blurredAt = null; // performance.now() of the last blur insetd has not answered
    this.log = []; // the last messages both ways, for inspectors
    this.socket = null;
    this.retry = 0;
    this.closed = false;
    this.nextId = 1;
    this.safeArea = { top: 0, left: 0, bottom: 0, right: 0 };
    this.screen = null; // the output's size as insetd was last told
    this.window = null; // the viewport's frame on the screen as insetd was last told
    this.keyboardFrame = null; // the keyboard in screen coordinates, as insetd says
    this.pendingUpdate = 0;
    this.scrollTimers = new Map();
    this.panel = options.emulate ? new EmulatedKeyboard() : null;
    this.setGeometry(null, null);
    this.installListeners();
    this.open();
  }

  // MARK: connection

  open() {
    if (this.closed) return;
    // `options.socket`: a WebSocket-like transport (the Chromium extension's,
    // held by its service worker, where page scripts cannot reach it).
    const socket = this.options.socket ? this.options.socket() : new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.send({ type: "hello", version: 1, client: this.options.name ?? "insetd.js" });
    };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.record("in", message);
      this.receive(message);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      const wasConnected = this.connected;
      this.connected = false;
      this.socket = null;
      for (const view of this.views.values()) view.reset();
      this.keyboardFrame = null;
      this.setGeometry(null, null);
      if (wasConnected) this.dispatchEvent(new Event("disconnect"));
      if (this.closed) return;
      // Back off 0.25 s, 0.5 s, 1 s ... up to options.maxRetryDelay (5 s).
      const delay = Math.min(this.options.maxRetryDelay ?? 5000, 250 * 2 ** this.retry++);
      this.retryTimer = setTimeout(() => this.open(), delay);
    };
  }

  /// Stops talking to insetd and puts every view back as it was.
  close() {
    this.closed = true;
    this.socket?.close();
    for (const view of this.views.values()) view.reset();
    this.setGeometry(null, null);
    // Nothing of it stays behind in the page: no listener, observer or frame.
    this.listening.abort();
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.pendingUpdate);
    this.pendingUpdate = 0;
    for (const timer of [this.doubtTimer, this.retryTimer, this.holdTimer, ...this.scrollTimers.values()]) clearTimeout(timer);
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.record("out", message);
    this.socket.send(JSON.stringify(message));
    return true;
  }

  record(direction, message) {
    this.log.push({ direction, message, time: Date.now() });
    if (this.log.length > 50) this.log.shift();
    this.dispatchEvent(new CustomEvent("message", { detail: { direction, message } }));
  }

  receive(message) {
    switch (message.type) {
      case "welcome":
        // The back-off starts over only once insetd has taken the session: a
        // connection it opens and then refuses (too many connections, say) must
        // not bring the page back every 250 ms.
        this.retry = 0;
        this.connected = true;
        this.state = { ...message.state };
        this.resync();
        this.dispatchEvent(new Event("connect"));
        break;
      case "keyboard": {
        this.blurredAt = null;
        const hidden = message.phase === "willHide" || message.phase === "didHide";
        this.keyboardFrame = hidden ? null : message.end;
        // The viewport as it is now: a window report may still be on its way.
        this.setGeometry(this.keyboardInViewport(), message);
        this.clampViews();
        if (this.state) this.state.keyboard = hidden ? undefined : message.end;
        break;
      }
      case "adjustment": {
        const view = this.views.get(message.view);
        // `adjust: false`: the page lays itself out (the VirtualKeyboard API).
        if (view && this.options.adjust !== false) view.apply(message, this.safeArea.bottom, () => this.coveredOf(view));
        this.dispatchEvent(new CustomEvent("adjustment", { detail: message }));
        break;
      }
      case "policy":
        if (this.state) Object.assign(this.state, { mode: message.mode, tabletMode: message.tabletMode,
          hardwareKeyboard: message.hardwareKeyboard });
        this.dispatchEvent(new CustomEvent("policy", { detail: message }));
        break;
      case "status":
        this.state = { ...message.state };
        this.dispatchEvent(new CustomEvent("status", { detail: message }));
        break;
      case "error":
        console.warn(`insetd: ${message.code}: ${message.message}`);
        this.dispatchEvent(new CustomEvent("error", { detail: message }));
        break;
    }
  }

  /// After `welcome` (first connection or a daemon restart): the screen, the
  /// window, every view, and the focused field, so insetd knows all it knew before.
  resync() {
    this.safeArea = measureSafeArea();
    this.screen = null;
    this.window = null;
    // A keyboard already up (another client's field) is what the page sees at once.
    this.keyboardFrame = this.state?.keyboard ?? null;
    this.sendScreen(0);
    this.sendWindow();
    this.setGeometry(this.keyboardInViewport(), null);
    if (this.options.views !== false) this.addView(DOCUMENT_VIEW, document.documentElement, true);
    for (const element of document.querySelectorAll("[data-insetd-view]")) this.addElementView(element);
    for (const view of this.views.values()) this.describe(view, "register");
    this.send({ type: "subscribe", topics: ["policy"] });
    const active = document.activeElement;
    if (isEditable(active)) this.focus(active);
  }

  // MARK: views

  addView(name, element, isDocument = false) {
    if (!this.views.has(name)) {
      const view = new View(name, element, isDocument);
      view.onSettle = () => this.scheduleUpdate();
      this.views.set(name, view);
    }
    return this.views.get(name);
  }

  addElementView(element, given) {
    const name = given ?? (element.dataset.insetdView || element.id || `view${this.views.size}`);
    const view = this.addView(name, element);
    this.resizeObserver.observe(element);
    for (const child of element.children) this.resizeObserver.observe(child);
    return view;
  }

  description(view) {
    const fields = { view: view.name, frame: view.frame(), contentSize: view.contentSize(),
      contentOffset: view.contentOffset() };
    if (view.isDocument) fields.safeArea = this.safeArea;
    const dismiss = view.element.dataset?.insetdDismiss;
    if (dismiss) fields.keyboardDismissMode = dismiss;
    return fields;
  }

  /// `register` or `update` with the view's current geometry; an update that
  /// would say nothing new is not sent.
  describe(view, type) {
    const fields = this.description(view);
    const key = JSON.stringify(fields);
    if (type === "update" && key === view.lastDescription) return;
    if (this.send({ type, ...fields })) view.lastDescription = key;
  }

  /// Coalesces geometry changes into one update per view per frame.
  /// The viewport has a new size. Browsers fire `resize` in the frame that
  /// first lays out that size, before its animation-frame callbacks: what the
  /// keyboard covers of the viewport, and so the padding, follow here, so
  /// that no callback of that frame (the page's own drawing included) sees
  /// the new size with the old padding. insetd hears of it at the frame.
  viewportResized() {
    if (this.connected && !this.closed) this.followViewport();
    this.scheduleUpdate();
  }

  /// The keyboard's part of the viewport and the padding, for where the
  /// viewport is now. Between a blur and insetd's next word on the keyboard
  /// (at most `BLUR_HOLD_MS`), a resize only takes keyboard away: a window
  /// the compositor grows back has lost the keyboard it made room for, though
  /// insetd's hide may still be on its way.
  followViewport() {
    const part = this.keyboardInViewport();
    const held = this.blurredAt !== null && performance.now() - this.blurredAt < BLUR_HOLD_MS;
    if (!held || (part?.height ?? 0) <= this.boundingRect.height) this.setGeometry(part, null);
    for (const view of this.views.values()) view.clamp(this.coveredOf(view), held);
  }

  scheduleUpdate() {
    if (this.pendingUpdate || this.closed) return;
    this.pendingUpdate = requestAnimationFrame(() => {
      this.pendingUpdate = 0;
      if (!this.connected) return;
      this.sendScreen(0.3);
      this.sendWindow();
      this.followViewport();
      for (const view of this.views.values()) {
        if (view.animating) view.missedUpdate = true; else this.describe(view, "update");
      }
      if (this.focused) this.focus(this.focused.element, true);
    });
  }

  /// The output's size: a new one is a rotation (`transition`). A viewport that
  /// changes on the same output (the compositor made room for the keyboard, a
  /// window was resized) is a `window` report instead (`sendWindow`).
  sendScreen(duration) {
    const screen = measureScreen();
    const known = this.screen ?? this.state?.screen;
    if (this.screen && known.width === screen.width && known.height === screen.height) return;
    if (!this.screen && known && known.width === screen.width && known.height === screen.height) {
      this.screen = screen;
      return;
    }
    this.screen = screen;
    this.safeArea = measureSafeArea();
    if (this.state) this.state.screen = screen;
    this.send({ type: "transition", duration, screen });
  }

  /// Where the viewport is on the screen, when it moved or changed size (the
  /// caller clips the keyboard the page sees to it again: `followViewport`).
  sendWindow() {
    const window = measureWindow(this.options.origin);
    const known = this.window;
    if (known && known.x === window.x && known.y === window.y && known.width === window.width &&
        known.height === window.height) return;
    this.window = window;
    this.send({ type: "window", frame: window });
  }

  /// How much of `view` the keyboard covers on the screen now, from what
  /// insetd said of the keyboard and where the view is at this frame.
  coveredOf(view) {
    let least = Infinity;
    for (const window of this.viewportNow()) {
      const keyboard = inViewport(this.keyboardFrame, window);
      if (!keyboard) return 0;
      const r = view.isDocument ? { x: 0, y: 0, width: window.width, height: window.height }
        : view.element.getBoundingClientRect();
      least = Math.min(least, inViewport(keyboard, r)?.height ?? 0);
    }
    return least;
  }

  /// Where the viewport may be on the screen at this frame: one place, or
  /// two. Chromium on Wayland reports a resized window's new innerHeight a
  /// frame or more before its new outerHeight, and the viewport's top is
  /// estimated from the two (the browser's own bar is outer − inner high), so
  /// a shrink moves the estimate down by the whole shrink. For 200 ms after
  /// the inner height changed alone, the viewport with its previous top is a
  /// candidate too, and what the page shows of the keyboard is the smaller
  /// part: never padding for a keyboard the window was just shrunk away from.
  viewportNow() {
    const measured = measureWindow(this.options.origin);
    const now = performance.now();
    const last = this.lastViewport;
    if (!last || last.inner !== innerHeight || last.outer !== outerHeight) {
      const innerOnly = last && last.outer === outerHeight && last.inner !== innerHeight;
      this.lastViewport = { inner: innerHeight, outer: outerHeight, y: measured.y,
        previousY: innerOnly ? last.y : null, since: now };
      // When the doubt runs out, the page shows the keyboard as measured.
      if (innerOnly) this.doubtTimer = setTimeout(() => this.scheduleUpdate(), 210);
    }
    const { previousY, since } = this.lastViewport;
    if (previousY === null || previousY === measured.y || now - since > 200) return [measured];
    return [measured, { ...measured, y: previousY }];
  }

  /// The part of the keyboard the viewport shows now (the smaller, where the
  /// viewport's place is uncertain: `viewportNow`).
  keyboardInViewport() {
    let least = null;
    for (const window of this.viewportNow()) {
      const part = inViewport(this.keyboardFrame, window);
      if (!part) return null;
      if (!least || part.height < least.height) least = part;
    }
    return least;
  }

  clampViews() {
    for (const view of this.views.values()) view.clamp(this.coveredOf(view));
  }

  viewFor(element) {
    // `options.viewOf(element)`: the scroller the field belongs to, registered
    // as a view the first time (the extension's nearest scroll container).
    const scroller = this.options.viewOf?.(element);
    if (scroller && scroller !== document.documentElement) {
      let view = [...this.views.values()].find((v) => v.element === scroller);
      if (!view) {
        view = this.addElementView(scroller, `scroller${this.views.size}`);
        if (this.connected) this.describe(view, "register");
      }
      return view;
    }
    if (scroller) return this.views.get(DOCUMENT_VIEW);
    const host = element.closest?.("[data-insetd-view]");
    if (host) {
      for (const view of this.views.values()) if (view.element === host) return view;
    }
    return this.views.get(DOCUMENT_VIEW);
  }

  // MARK: focus

  /// Sends the field's rect; with `ifMoved`, only when layout moved the field
  /// (a reflow after rotation), so insetd keeps the right rect visible.
  focus(element, ifMoved = false) {
    const view = this.viewFor(element);
    if (!view) return;
    const field = view.contentRect(element.getBoundingClientRect());
    const key = `${view.name} ${JSON.stringify(field)}`;
    if (ifMoved && this.focused?.key === key) return;
    this.focused = { view, element, key };
    this.blurredAt = null;
    this.send({ type: "focus", view: view.name, field });
  }

  /// The field lost focus (not to another field): insetd hears `blur`.
  blur() {
    if (!this.focused) return;
    const view = this.focused.view;
    this.focused = null;
    this.blurredAt = performance.now();
    clearTimeout(this.holdTimer);
    this.holdTimer = setTimeout(() => this.scheduleUpdate(), BLUR_HOLD_MS + 10);
    this.send({ type: "blur", view: view.name });
  }

  installListeners() {
    this.listening = new AbortController();
    const signal = this.listening.signal;
    this.resizeObserver = new ResizeObserver(() => this.scheduleUpdate());
    this.resizeObserver.observe(document.documentElement);
    if (document.body) this.resizeObserver.observe(document.body);
    addEventListener("resize", () => this.viewportResized(), { signal });
    visualViewport?.addEventListener("resize", () => this.viewportResized(), { signal });
    // `focusEvents: false`: the caller reports focus itself (the extension
    // follows fields into shadow roots and frames).
    if (this.options.focusEvents !== false) {
      document.addEventListener("focusin", (event) => {
        if (isEditable(event.target)) this.focus(event.target);
      }, { signal });
      document.addEventListener("focusout", (event) => {
        // Focus moving straight to another field is one focus, not a blur and a focus.
        if (!isEditable(event.relatedTarget)) this.blur();
      }, { signal });
    }
    // The user's own scrolling: tell insetd once it settles, never mid-animation.
    document.addEventListener("scroll", (event) => {
      const target = event.target === document ? document.documentElement : event.target;
      const view = [...this.views.values()].find((v) => (v.isDocument ? document.documentElement : v.element) === target);
      if (!view || view.animating) return;
      clearTimeout(this.scrollTimers.get(view.name));
      this.scrollTimers.set(view.name, setTimeout(() => {
        if (this.connected && !view.animating) this.describe(view, "update");
      }, 150));
    }, { capture: true, signal });
  }

  // MARK: keyboard geometry

  setGeometry(frame, note) {
    const rect = frame ? new DOMRect(frame.x, frame.y, frame.width, frame.height) : new DOMRect(0, 0, 0, 0);
    // `properties: false`: no custom properties on the page's root (the
    // extension leaves a page that knows nothing of insetd as it found it).
    if (this.options.properties !== false) {
      const root = document.documentElement.style;
      root.setProperty("--insetd-keyboard-x", `${rect.x}px`);
      root.setProperty("--insetd-keyboard-y", `${rect.y}px`);
      root.setProperty("--insetd-keyboard-width", `${rect.width}px`);
      root.setProperty("--insetd-keyboard-height", `${rect.height}px`);
    }
    this.panel?.show(frame, note);
    const changed = rect.x !== this.boundingRect.x || rect.y !== this.boundingRect.y ||
      rect.width !== this.boundingRect.width || rect.height !== this.boundingRect.height;
    this.boundingRect = rect;
    if (changed) this.dispatchEvent(new Event("geometrychange"));
  }
}

/// env(safe-area-inset-*) as numbers, read through a probe element.
function measureSafeArea() {
  const probe = document.createElement("div");
  probe.style.cssText = "position:fixed;visibility:hidden;pointer-events:none;" +
    "padding:env(safe-area-inset-top,0px) env(safe-area-inset-right,0px) env(safe-area-inset-bottom,0px) env(safe-area-inset-left,0px)";
  document.documentElement.appendChild(probe);
  const style = getComputedStyle(probe);
  const area = { top: parseFloat(style.paddingTop) || 0, left: parseFloat(style.paddingLeft) || 0,
    bottom: parseFloat(style.paddingBottom) || 0, right: parseFloat(style.paddingRight) || 0 };
  probe.remove();
  return area;
}

function defaultURL() {
  const url = new URL("/", import.meta.url);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
}

/// A stand-in keyboard drawn at the keyboard's frame, for development, demos
/// and tests where no real on-screen keyboard runs. It never takes focus.
class EmulatedKeyboard {
  constructor() {
    const panel = document.createElement("div");
    panel.setAttribute("aria-hidden", "true");
    panel.dataset.insetdEmulatedKeyboard = "";
    panel.style.cssText = "position:fixed;left:0;top:0;width:0;height:0;z-index:2147483647;" +
      "pointer-events:none;box-sizing:border-box;background:#d1d4da;border-top:1px solid #b5b8be;" +
      "font:15px system-ui,sans-serif;color:#111;display:none;overflow:hidden;transform:translateY(100vh)";
    this.panel = panel;
    this.full = document.createElement("div");
    this.full.style.cssText = "display:flex;flex-direction:column;gap:8px;padding:8px 4px;height:100%;box-sizing:border-box";
    for (const row of ["qwertyuiop", "asdfghjkl", "⇧zxcvbnm⌫", ["123", "space", "return"]]) {
      const line = document.createElement("div");
      line.style.cssText = "display:flex;gap:5px;justify-content:center;flex:1";
      for (const key of Array.isArray(row) ? row : [...row]) {
        const cap = document.createElement("div");
        cap.textContent = key;
        const wide = key === "space" ? 5 : key.length > 1 ? 2 : 1;
        cap.style.cssText = `flex:${wide};max-width:${wide * 44}px;background:#fff;border-radius:5px;` +
          "display:flex;align-items:center;justify-content:center;box-shadow:0 1px 0 #888";
        line.appendChild(cap);
      }
      this.full.appendChild(line);
    }
    this.bar = document.createElement("div");
    this.bar.style.cssText = "display:flex;align-items:center;gap:16px;padding:0 12px;height:100%;box-sizing:border-box";
    this.bar.innerHTML = "<span>⌃</span><span>⌄</span><span style='flex:1;color:#555'>hardware keyboard</span><b>Done</b>";
    panel.append(this.full, this.bar);
    const attach = () => document.body.appendChild(panel);
    if (document.body) attach(); else addEventListener("DOMContentLoaded", attach, { once: true });
  }

  show(frame, note) {
    const style = this.panel.style;
    const duration = note?.duration ?? 0;
    style.transition = duration > 0 ? `transform ${duration}s ${cssCurve(note.curve)}` : "none";
    if (!frame) {
      style.transform = `translateY(${innerHeight - parseFloat(style.top || 0)}px)`;
      if (duration > 0) {
        clearTimeout(this.hideTimer);
        this.hideTimer = setTimeout(() => { style.display = "none"; }, duration * 1000);
      } else {
        style.display = "none";
      }
      this.panel.dataset.state = "hidden";
      return;
    }
    clearTimeout(this.hideTimer);
    const wasHidden = style.display === "none";
    Object.assign(style, { display: "block", left: `${frame.x}px`, top: `${frame.y}px`,
      width: `${frame.width}px`, height: `${frame.height}px` });
    const accessory = frame.height < 100;
    this.full.style.display = accessory ? "none" : "flex";
    this.bar.style.display = accessory ? "flex" : "none";
    this.panel.dataset.state = accessory ? "accessory-bar" : "shown";
    if (wasHidden && duration > 0) {
      style.transition = "none";
      style.transform = `translateY(${frame.height}px)`;
      this.panel.getBoundingClientRect(); // start the slide from below
      style.transition = `transform ${duration}s ${cssCurve(note.curve)}`;
    }
    style.transform = "translateY(0)";
  }
}

/// Connects the page to insetd. Options: `url` (the WebSocket; default: the
/// server this module was loaded from), `name` (shown in insetd's log),
/// `emulate` (draw a stand-in keyboard), `views: false` (do not register the
/// document itself), `maxRetryDelay` (ms, default 5000), `origin` (`{x, y}` or a
/// function returning it: the viewport's top-left on the screen, when the page
/// knows it better than screenX/Y and outerHeight tell).
export function connect(options = {}) {
  return new InsetdKeyboard(options);
}

// insetd.js: a web page's way in to insetd, the on-screen keyboard authority.
//
//   import { connect } from "http://127.0.0.1:PORT/insetd.js";
//   const kb = connect({ emulate: true });
//   kb.addEventListener("geometrychange", () => console.log(kb.boundingRect));
//
// An ES module (with five parts of its own beside it) with no dependencies
// and no build step. It speaks insetd's protocol (docs/PROTOCOL.md) over the
// WebSocket the module was loaded from: registers the document's scroller and
// every [data-insetd-view] element as views, reports focus, viewport changes
// and content changes, and applies the adjustments insetd sends (bottom inset
// as padding and scroll-padding, content offset by scrolling, animated as the
// keyboard moves). The keyboard is exposed as Chromium's VirtualKeyboard API
// exposes it: `kb.boundingRect`, a `geometrychange` event, and CSS custom
// properties --insetd-keyboard-x, -y, -width and -height on the root element,
// in the viewport's coordinates.
//
// Two coordinate spaces meet here. insetd's is the screen (the output): the
// keyboard's frame, and the screen size whose change is a rotation. The page's
// is its viewport, which the compositor may place anywhere on the screen and
// shrink for the keyboard's exclusive zone. insetd.js tells insetd where the
// viewport is (a `window` message) and turns the keyboard back into viewport
// coordinates, clipped to the part that covers the viewport. docs/WEB.md has the
// whole story.
//
// The module's parts: insetd-geometry.js (coordinates, curves, editable
// fields), insetd-viewport.js (where the viewport is on the screen at this
// frame), insetd-listeners.js (the page's events it reports), insetd-view.js
// (one scroll view), insetd-panel.js (the emulated keyboard), all loaded from
// where this module was.

import { PageListeners } from "./insetd-listeners.js";
import { EmulatedKeyboard } from "./insetd-panel.js";
import { View } from "./insetd-view.js";
import { isEditable, measureSafeArea, measureScreen } from "./insetd-geometry.js";
import { Viewport } from "./insetd-viewport.js";

export { isEditable };

const DOCUMENT_VIEW = "document";
/// How long after a blur a resize may only take keyboard away, if insetd has
/// not spoken of the keyboard since (its hide, or a keyboard kept up).
const BLUR_HOLD_MS = 500;
/// How long a window grown into the keyboard shows none of it, if insetd has
/// not spoken of the keyboard since (`Viewport.grewInto`).
const GROWN_HOLD_MS = 300;

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
    this.grewAt = null; // performance.now() of the last growth into the keyboard insetd has not answered
    this.log = []; // the last messages both ways, for inspectors
    this.socket = null;
    this.retry = 0;
    this.closed = false;
    this.nextId = 1;
    this.safeArea = { top: 0, left: 0, bottom: 0, right: 0 };
    this.screen = null; // the output's size as insetd was last told
    this.keyboardFrame = null; // the keyboard in screen coordinates, as insetd says
    this.keyboardScreen = null; // the screen's size when insetd said it
    this.pendingUpdate = 0;
    this.panel = options.emulate ? new EmulatedKeyboard() : null;
    this.viewport = new Viewport(options.origin, () => this.scheduleUpdate());
    this.setGeometry(null, null);
    this.listeners = new PageListeners(this);
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
      this.viewport.close();
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
    this.listeners.stop();
    cancelAnimationFrame(this.pendingUpdate);
    this.pendingUpdate = 0;
    this.viewport.close();
    for (const timer of [this.retryTimer, this.holdTimer, this.growTimer]) clearTimeout(timer);
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
        this.blurredAt = this.grewAt = null;
        const hidden = message.phase === "willHide" || message.phase === "didHide";
        this.keyboardFrame = hidden ? null : message.end;
        this.keyboardScreen = measureScreen();
        this.viewport.note();
        // The viewport as it is now: a window report may still be on its way.
        this.setGeometry(this.viewport.keyboardPart(this.keyboardNow), message);
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
      case "placed":
        // The page's views stay in its viewport's coordinates; what it shows
        // of the keyboard follows the window to where it is drawn.
        this.viewport.place(message.origin);
        this.followViewport();
        this.dispatchEvent(new CustomEvent("placed", { detail: message }));
        break;
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
    this.viewport.reported = null;
    this.viewport.settled = null;
    // A new insetd has placed the window nowhere yet.
    this.viewport.drawnAt = { x: 0, y: 0 };
    // A keyboard already up (another client's field) is what the page sees at once.
    this.keyboardFrame = this.state?.keyboard ?? null;
    this.keyboardScreen = measureScreen();
    this.viewport.note();
    this.sendScreen();
    this.sendWindow();
    this.setGeometry(this.viewport.keyboardPart(this.keyboardFrame), null);
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
    this.listeners.observe(element);
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
  /// insetd's hide may still be on its way. A window grown into the keyboard
  /// shows none of it until insetd speaks (`keyboardNow`).
  followViewport() {
    if (this.viewport.grewInto(this.keyboardFrame)) {
      this.grewAt = performance.now();
      clearTimeout(this.growTimer);
      this.growTimer = setTimeout(() => this.scheduleUpdate(), GROWN_HOLD_MS + 10);
    }
    const part = this.viewport.keyboardPart(this.keyboardNow);
    const held = this.blurredAt !== null && performance.now() - this.blurredAt < BLUR_HOLD_MS;
    if (!held || (part?.height ?? 0) <= this.boundingRect.height) this.setGeometry(part, null);
    this.clampViews(held);
  }

  scheduleUpdate() {
    if (this.pendingUpdate || this.closed) return;
    this.pendingUpdate = requestAnimationFrame(() => {
      this.pendingUpdate = 0;
      if (!this.connected) return;
      this.sendScreen();
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
  /// window was resized) is a `window` report instead (`sendWindow`). A turn
  /// lasts no time: the compositor turns the window at once, and the OSK's
  /// report for the turned screen moves the views as the keyboard moves
  /// anyway; over a longer one the field would scroll into the turned
  /// viewport under a keyboard drawn there already.
  sendScreen() {
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
    this.send({ type: "transition", duration: 0, screen });
  }

  /// Where the viewport is on the screen, when it moved or changed size (the
  /// caller clips the keyboard the page sees to it again: `followViewport`).
  sendWindow() {
    const message = this.viewport.windowMessage();
    if (message) this.send(message);
  }

  /// The viewport's frame on the screen as insetd measures it.
  get window() {
    return this.viewport.measured();
  }

  /// How much of `view` the keyboard covers on the screen now, from what
  /// insetd said of the keyboard and where the view is at this frame.
  coveredOf(view) {
    return this.viewport.covered(this.keyboardNow, view);
  }

  /// The keyboard insetd said, while the screen is the size it was then. A
  /// turned screen (a rotation insetd has not answered yet) shows none: the
  /// old frame, laid over the turned viewport, would pad for a keyboard the
  /// screen no longer has. So does a frame past the screen's right or bottom
  /// edge: insetd said it for the screen before a turn the page saw first
  /// (an OSK's report of its landscape frame crossing the page's turn back to
  /// portrait). Nor does a window grown into it since (`GROWN_HOLD_MS`).
  get keyboardNow() {
    const now = measureScreen(), then = this.keyboardScreen, frame = this.keyboardFrame;
    if (this.grewAt !== null && performance.now() - this.grewAt < GROWN_HOLD_MS) return null;
    if (frame && (frame.x + frame.width > now.width + 1 || frame.y + frame.height > now.height + 1)) return null;
    return then && (then.width !== now.width || then.height !== now.height) ? null : frame;
  }

  /// Each view's padding cut to what the keyboard covers of it now (with
  /// `lowerOnly`, never raised).
  clampViews(lowerOnly = false) {
    for (const view of this.views.values()) view.clamp(this.coveredOf(view), lowerOnly);
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

function defaultURL() {
  const url = new URL("/", import.meta.url);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.href;
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

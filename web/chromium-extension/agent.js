// The extension's agent in a frame, loaded by content.js at the first focus.
// It reports and applies; insetd decides. A top frame with a focused field
// opens a session (insetd.js over the service worker's WebSocket: `portSocket`
// below) and ends it once the blur's restoring is done; a child frame of the
// top frame passes its focused field's rect to the top frame, which places it
// at the <iframe> holding the focus. Pages that load insetd.js are left to it.
import { connect, isEditable } from "./insetd.js";

const isTop = window === window.top;
let kb = null; // the session, while a field is focused or its blur is being restored
let focusedFrame = null; // the child frame whose field the session follows
let ending = 0; // the frame callback watching a blur's restoring
let lifted = null; // { element, translate, field }: a fixed container raised over the keyboard
let childFocused = false;
let current = null; // the field the session follows
let virtual = false; // the page lays itself out by the VirtualKeyboard API

/// The focused element, into open shadow roots.
function deepActive() {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

const isFrame = (element) => element?.tagName === "IFRAME" || element?.tagName === "FRAME";
const parentOf = (element) => element.parentElement ?? element.getRootNode?.().host ?? null;

/// A page that loaded insetd.js (its root carries insetd.js's properties)
/// applies insets itself: nothing is applied twice.
const pageHasInsetd = () => document.documentElement.style.getPropertyValue("--insetd-keyboard-height") !== "";

/// A field in a child frame, as the top frame sees it: the rect the child
/// reported, placed at the <iframe>'s content box wherever that is now.
class FrameField {
  constructor(frame, rect) { this.frame = frame; this.rect = rect; }
  getBoundingClientRect() { return placed(this.frame, this.rect); }
  get isConnected() { return this.frame.isConnected; }
}

function placed(frame, rect) {
  const box = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  const x = box.left + frame.clientLeft + (parseFloat(style.paddingLeft) || 0) + rect.x;
  const y = box.top + frame.clientTop + (parseFloat(style.paddingTop) || 0) + rect.y;
  return new DOMRect(x, y, rect.width, rect.height);
}

/// Where the field scrolls: its nearest scroll container (one that has more
/// to show than it shows), through shadow roots, else the document.
function scrollerOf(field) {
  for (let node = parentOf(field instanceof FrameField ? field.frame : field); node; node = parentOf(node)) {
    if (node === document.body || node === document.documentElement) break;
    const style = getComputedStyle(node);
    if (style.position === "fixed") break;
    if (/(auto|scroll|overlay)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) return node;
  }
  return document.documentElement;
}

/// A field in a fixed container (a chat bar at the bottom, a modal dialog)
/// does not move when anything scrolls: the container is raised instead.
function fixedHostOf(field) {
  for (let node = field instanceof FrameField ? field.frame : field; node; node = parentOf(node)) {
    if (node.nodeType !== 1) continue;
    if (getComputedStyle(node).position === "fixed" || node.matches?.("dialog:modal")) return node;
  }
  return null;
}

/// A WebSocket-like transport over a port to the service worker, which holds
/// the real WebSocket out of every page's reach.
function portSocket() {
  const port = chrome.runtime.connect({ name: "insetd" });
  const socket = {
    readyState: WebSocket.CONNECTING, onopen: null, onmessage: null, onclose: null,
    send(text) { port.postMessage({ send: text }); },
    close() { closed(); },
  };
  // Chromium stops an extension's service worker after 30 s without a message
  // from an extension page or script: while the field has focus, one every 20 s.
  const keepAlive = setInterval(() => port.postMessage({}), 20000);
  const closed = () => {
    if (socket.readyState === WebSocket.CLOSED) return;
    socket.readyState = WebSocket.CLOSED;
    clearInterval(keepAlive);
    port.disconnect();
    socket.onclose?.();
  };
  port.onMessage.addListener((message) => {
    if (message.event === "open") {
      socket.readyState = WebSocket.OPEN;
      socket.onopen?.();
    } else if (message.event === "message") {
      socket.onmessage?.({ data: message.data });
    } else if (message.event === "close") {
      closed();
    }
  });
  port.onDisconnect.addListener(closed);
  return socket;
}

// MARK: the top frame's session

function session() {
  cancelAnimationFrame(ending);
  ending = 0;
  if (!kb) {
    // A page that set navigator.virtualKeyboard.overlaysContent lays itself out
    // from the keyboard's geometry (boundingRect, env(keyboard-inset-*)): it
    // gets that, told to Chromium by the service worker, and nothing applied.
    virtual = isTop && navigator.virtualKeyboard?.overlaysContent === true;
    kb = connect({ name: "chromium-extension", socket: portSocket, focusEvents: false, properties: false,
      viewOf: scrollerOf, maxRetryDelay: 2000, adjust: !virtual });
    if (virtual) kb.addEventListener("geometrychange", tellGeometry);
    kb.addEventListener("adjustment", reveal);
    // After every welcome: insetd.js's resync reports the document's active
    // element; a field in a shadow root or a child frame is ours to report.
    kb.addEventListener("connect", () => {
      if (current && kb.focused === null) kb.focus(current);
      lift();
    });
  }
  return kb;
}

function focusOn(field, frameId = null) {
  if (!kb && pageHasInsetd()) return;
  focusedFrame = frameId;
  current = field;
  const keyboard = session();
  dropLift();
  const host = virtual ? null : fixedHostOf(field);
  if (host) {
    lifted = { element: host, translate: host.style.translate, field };
    keyboard.addEventListener("geometrychange", lift);
  }
  if (keyboard.connected) keyboard.focus(field);
  lift();
}

/// The keyboard the page shows (insetd.js's: the part covering the viewport
/// now), as the VirtualKeyboard API's geometry.
function tellGeometry() {
  const { x, y, width, height } = kb.boundingRect;
  chrome.runtime.sendMessage({ type: "virtual-keyboard", rect: { x, y, width, height } });
}

/// insetd adjusts the field's nearest scroller; a scroller around that one (or
/// the document around a scroller the window's shrinking clipped) may still
/// hide it. Once the adjustment's animation is over, a field not within the
/// part of the viewport the keyboard leaves is scrolled into view the way the
/// browser scrolls (nearest, each scroller's scroll-padding respected).
let revealing = 0;
function reveal(event) {
  clearTimeout(revealing);
  if (!current) return; // a blur's restoring: nothing to show
  const wait = (event.detail?.animation?.duration ?? 0) * 1000 + 50;
  revealing = setTimeout(() => {
    const field = current;
    if (!kb || lifted || !(field instanceof Element) || !field.isConnected) return;
    // A page on the VirtualKeyboard API makes room for the keyboard itself;
    // a window the compositor shrank is no keyboard to it, and the browser
    // does not scroll the field back into the smaller viewport: that is done.
    const free = innerHeight - (virtual ? 0 : kb.boundingRect.height);
    const r = field.getBoundingClientRect();
    if (r.top < 0 || r.bottom > free) field.scrollIntoView({ block: "nearest" });
  }, wait);
}

/// Raises a fixed container by as much as the keyboard the page shows covers
/// of its field (never more than the keyboard's height in the viewport).
function lift() {
  if (!lifted || !kb) return;
  const { element, translate, field } = lifted;
  const shown = kb.boundingRect;
  element.style.translate = translate;
  const bottom = field.getBoundingClientRect().bottom;
  const by = shown.height > 0 ? Math.max(0, Math.min(shown.height, bottom - shown.y)) : 0;
  if (by > 0) element.style.translate = `0 ${-Math.ceil(by)}px`;
}

function dropLift() {
  kb?.removeEventListener("geometrychange", lift);
  if (lifted) lifted.element.style.translate = lifted.translate;
  lifted = null;
}

/// The field lost focus: insetd hears it, and the session ends once insetd's
/// restoring is applied (views back to the page's layout, nothing animating).
function blurred() {
  focusedFrame = null;
  current = null;
  clearTimeout(revealing);
  if (!kb) return;
  kb.blur();
  dropLift();
  const started = performance.now();
  const watch = () => {
    const views = [...kb.views.values()];
    const restored = kb.boundingRect.height === 0 && views.every((v) =>
      !v.animating && v.extraBottom === 0 && (v.targetExtra ?? 0) === 0);
    if (!kb.connected || restored || performance.now() - started > 5000) {
      if (virtual) chrome.runtime.sendMessage({ type: "virtual-keyboard", rect: null });
      kb.close();
      kb = null;
      ending = 0;
      return;
    }
    ending = requestAnimationFrame(watch);
  };
  cancelAnimationFrame(ending);
  ending = requestAnimationFrame(watch);
}

// MARK: what content.js calls

export function focusChanged() {
  const active = deepActive();
  if (isTop) {
    if (isEditable(active)) {
      stopAwaiting();
      focusOn(active);
    } else if (isFrame(active)) {
      takeAwaited(); // else the frame tells
    } else {
      blurred(); // a child's field awaiting its <iframe> ends by the child's blur
    }
    return;
  }
  // A frame in a frame is not followed: only the top frame's own <iframe>s
  // can be placed (its focused <iframe> is the one holding the field).
  if (window.parent !== window.top) return;
  if (isEditable(active)) {
    childFocused = true;
    // The frame's own document scrolls first, as the browser's focus would:
    // the top frame can only make room for what the frame shows.
    let r = active.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) {
      active.scrollIntoView({ block: "nearest", inline: "nearest" });
      r = active.getBoundingClientRect();
    }
    chrome.runtime.sendMessage({ type: "child-focus", rect: { x: r.x, y: r.y, width: r.width, height: r.height } });
  } else if (childFocused) {
    childFocused = false;
    chrome.runtime.sendMessage({ type: "child-blur" });
  }
}

/// A child frame's field (relayed by the service worker, with the child's
/// frame id): it is in the <iframe> that has the focus here. A cross-origin
/// child runs in another process, and Chromium may deliver the relayed message
/// before this document's focus has moved to the <iframe>: the field waits
/// for it (`awaiting`), half a second at most, and only that child's blur or
/// another child's focus ends the wait.
let awaiting = null; // { message, until, frame }: a child's field waiting for its <iframe> to have the focus
const CHILD_FOCUS_WAIT_MS = 500;
export function childChanged(message) {
  if (!isTop) return;
  const frame = deepActive();
  if (message.type === "child-focus") {
    stopAwaiting();
    // Also while a field of this document still has the focus: moving from
    // it into the frame, this document's focus may be the last to move.
    if (isFrame(frame)) focusOn(new FrameField(frame, message.rect), message.from);
    else awaitFrame(message);
  } else if (message.type === "child-blur") {
    if (awaiting?.message.from === message.from) stopAwaiting();
    if (focusedFrame === message.from && !isEditable(frame)) blurred();
  }
}

function awaitFrame(message) {
  awaiting = { message, until: performance.now() + CHILD_FOCUS_WAIT_MS, frame: 0 };
  const retry = () => {
    if (!takeAwaited() && awaiting) awaiting.frame = requestAnimationFrame(retry);
  };
  awaiting.frame = requestAnimationFrame(retry);
}

/// The <iframe> has the focus now: the child's field waiting for it is
/// placed there. A wait past its time ends (also in a hidden page, which
/// draws no frames to end it).
function takeAwaited() {
  if (!awaiting) return false;
  if (performance.now() > awaiting.until) {
    stopAwaiting();
    return false;
  }
  const frame = deepActive();
  if (!isFrame(frame)) return false;
  const { message } = awaiting;
  stopAwaiting();
  focusOn(new FrameField(frame, message.rect), message.from);
  return true;
}

function stopAwaiting() {
  if (awaiting) cancelAnimationFrame(awaiting.frame);
  awaiting = null;
}

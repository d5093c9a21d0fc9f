// insetd.js's scroll views: how one registered element takes insetd's
// adjustments (padding, scroll-padding, the scroll offset, timed like the
// keyboard) and gives them back.

import { CURVES, bezier, round } from "./insetd-geometry.js";

/// One registered scroll view: the element, what was last told insetd, and the
/// adjustment in force.
export class View {
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

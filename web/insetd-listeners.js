// insetd.js's listeners: the page's events it reports to insetd (the viewport
// resized, a field focused or blurred, the user's scrolling come to rest) and
// the observer of the views' layout. Kept together so that one call ends them
// all and nothing of insetd.js stays behind in a page that closed it.

import { isEditable } from "./insetd-geometry.js";

/// How long the user's scrolling rests before insetd hears of it.
const SCROLL_REST_MS = 150;

/// What `keyboard` (an InsetdKeyboard) listens to in the page.
export class PageListeners {
  constructor(keyboard) {
    this.listening = new AbortController();
    this.scrollTimers = new Map();
    const signal = this.listening.signal;
    this.resizeObserver = new ResizeObserver(() => keyboard.scheduleUpdate());
    this.resizeObserver.observe(document.documentElement);
    if (document.body) this.resizeObserver.observe(document.body);
    addEventListener("resize", () => keyboard.viewportResized(), { signal });
    visualViewport?.addEventListener("resize", () => keyboard.viewportResized(), { signal });
    // `focusEvents: false`: the caller reports focus itself (the extension
    // follows fields into shadow roots and frames).
    if (keyboard.options.focusEvents !== false) {
      document.addEventListener("focusin", (event) => {
        if (isEditable(event.target)) keyboard.focus(event.target);
      }, { signal });
      document.addEventListener("focusout", (event) => {
        // Focus moving straight to another field is one focus, not a blur and a focus.
        if (!isEditable(event.relatedTarget)) keyboard.blur();
      }, { signal });
    }
    // The user's own scrolling: tell insetd once it settles, never mid-animation.
    document.addEventListener("scroll", (event) => {
      const target = event.target === document ? document.documentElement : event.target;
      const view = [...keyboard.views.values()].find((v) => (v.isDocument ? document.documentElement : v.element) === target);
      if (!view || view.animating) return;
      clearTimeout(this.scrollTimers.get(view.name));
      this.scrollTimers.set(view.name, setTimeout(() => {
        if (keyboard.connected && !view.animating) keyboard.describe(view, "update");
      }, SCROLL_REST_MS));
    }, { capture: true, signal });
  }

  /// Follows the layout of a view's element and its children.
  observe(element) {
    this.resizeObserver.observe(element);
    for (const child of element.children) this.resizeObserver.observe(child);
  }

  /// Ends every listener, the observer and the scroll timers.
  stop() {
    this.listening.abort();
    this.resizeObserver.disconnect();
    for (const timer of this.scrollTimers.values()) clearTimeout(timer);
  }
}

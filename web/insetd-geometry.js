// insetd.js's geometry: easing curves, what counts as an editable field, and
// where the screen, the viewport and the keyboard are (docs/WEB.md, "Screen,
// window and viewport"). Pure functions of what the browser reports.

export const CURVES = {
  easeInOut: [0.42, 0, 0.58, 1],
  easeIn: [0.42, 0, 1, 1],
  easeOut: [0, 0, 0.58, 1],
  linear: [0, 0, 1, 1],
};
const EDITABLE_INPUTS = new Set([
  "text", "search", "email", "url", "tel", "password", "number", "date",
  "datetime-local", "month", "time", "week",
]);

/// A cubic-bezier easing function (x from t by Newton steps, then y).
export function bezier([x1, y1, x2, y2]) {
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

export function cssCurve(curve) {
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

export const round = (value) => Math.round(value * 100) / 100;

/// The output's size in CSS pixels: what insetd calls the screen. A browser
/// that reports no screen (0×0) is taken to fill it with its viewport.
export function measureScreen() {
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
export function measureWindow(origin) {
  const given = typeof origin === "function" ? origin() : origin;
  const x = given?.x ?? (screenX || 0);
  const y = given?.y ?? ((screenY || 0) + (outerHeight > innerHeight ? outerHeight - innerHeight : 0));
  return { x: round(x), y: round(y), width: round(innerWidth), height: round(innerHeight) };
}

/// `frame` (screen coordinates) as the viewport at `window` sees it: the part
/// that covers the viewport, in viewport coordinates; null when none does.
export function inViewport(frame, window) {
  if (!frame || !window) return frame ?? null;
  const left = Math.max(frame.x, window.x), top = Math.max(frame.y, window.y);
  const right = Math.min(frame.x + frame.width, window.x + window.width);
  const bottom = Math.min(frame.y + frame.height, window.y + window.height);
  if (right <= left || bottom <= top) return null;
  return { x: round(left - window.x), y: round(top - window.y), width: round(right - left), height: round(bottom - top) };
}


/// env(safe-area-inset-*) as numbers, read through a probe element.
export function measureSafeArea() {
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

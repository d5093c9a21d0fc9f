// insetd.js's emulated keyboard (`connect({ emulate: true })`).

import { cssCurve } from "./insetd-geometry.js";

/// A stand-in keyboard drawn at the keyboard's frame, for development, demos
/// and tests where no real on-screen keyboard runs. It never takes focus.
export class EmulatedKeyboard {
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

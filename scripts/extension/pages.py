"""The pages scripts/extension-test shows: shapes of pages that contain no
insetd code (issue 36), each with the test's probe (not insetd's: it only
reports what the page draws, frame by frame, and focuses or blurs its field
when the test says so).

Every page's field is magenta-free plain HTML; the probe finds it with the
page's `probeTarget()` (into a shadow root, or the field a single-page app
re-rendered), or in a child frame through the child's own probe, which posts
the field's rect in its viewport to the parent at every frame it draws.
"""

FIELDS = "\n".join(f'<label>Field {i} <input id="f{i}" autocomplete="off"></label>' for i in range(1, 25))
STYLE = """<style>
  html, body { margin: 0; background: #fff; }
  body { font: 18px sans-serif; }
  form, .form { display: grid; gap: 14px; padding: 16px 24px; }
  label { display: grid; gap: 4px; }
  input, textarea { font: inherit; padding: 10px; border: 2px solid #888; }
  .scroller { overflow-y: auto; border: 2px solid #444; }
</style>"""
TARGET = '<label>Target <input id="target" autocomplete="off"></label>'

# name -> (body, extra head, how the probe finds the field)
SHAPES = {
    # The field near the end of a long document: the document scrolls.
    "form": (f"<form>{FIELDS}{TARGET}<div style='height:300px'></div></form>", "", "byId"),
    "textarea": (f"<form>{FIELDS}<textarea id='target' rows='3'></textarea><div style='height:260px'></div></form>",
                 "", "byId"),
    "contenteditable": (f"<form>{FIELDS}<div id='target' contenteditable='true' style='border:2px solid #888;"
                        "min-height:60px'></div><div style='height:200px'></div></form>", "", "byId"),
    # A scroller (the viewport's height but the top 80 px) with the field at its end.
    "nested": ("<div style='height:80px'>Header</div><div class='scroller' id='s1' style='height:calc(100vh - 84px)'>"
               f"<div class='form'>{FIELDS}{TARGET}</div></div>", "", "byId"),
    # A scroller in a scroller: the field scrolls in the inner one.
    "nested-twice": ("<div class='scroller' id='s1' style='height:calc(100vh - 4px)'><div style='height:200px'>Top</div>"
                     "<div class='scroller' id='s2' style='height:600px'>"
                     f"<div class='form'>{FIELDS}{TARGET}</div></div><div style='height:400px'></div></div>", "", "byId"),
    # An open shadow root (a web component's field).
    "shadow": (f"<form>{FIELDS}</form><x-field></x-field><div style='height:300px'></div>"
               "<script>customElements.define('x-field', class extends HTMLElement { constructor() { super();"
               " this.attachShadow({ mode: 'open' }).innerHTML = '<input id=target style=\"font:inherit;padding:10px\">'; } });"
               "</script>", "", "shadow"),
    # Frames: the document scrolls the <iframe>, whose own page does not scroll.
    "frame-same": ("<div style='height:300px'>Above the frame</div><iframe class='target-frame' src='/frame/form'"
                   " style='width:100%;height:1200px;border:0'></iframe>", "", "frame"),
    "frame-cross": ("<div style='height:300px'>Above the frame</div><iframe class='target-frame' src='CROSS/frame/form'"
                    " style='width:100%;height:1200px;border:0'></iframe>", "", "frame"),
    # A chat's input, fixed at the bottom: it is raised, nothing scrolls it.
    "chat": (f"<div class='form'>{FIELDS}</div><div class='fixed' style='position:fixed;left:0;right:0;bottom:0;"
             "background:#eee;padding:8px'><input id='target' style='width:90%' placeholder='Message'></div>", "", "byId"),
    # A modal <dialog> at the bottom of the viewport.
    "dialog": (f"<div class='form'>{FIELDS}</div><dialog id='d' style='margin:auto auto 0 auto'>"
               "<p>Your name</p><button autofocus>Skip</button><input id='target'></dialog><script>document.getElementById('d').showModal()</script>",
               "", "byId"),
    # A single-page app: focusing the field renders a new one in its place and focuses that.
    "spa": (f"<form>{FIELDS}<div id='slot'></div><div style='height:300px'></div></form><script>"
            "function render() { document.getElementById('slot').innerHTML = '<input id=target autocomplete=off>';"
            " document.getElementById('target').addEventListener('focus', rerender, { once: true }); }"
            "function rerender() { if (window.rendered) return; window.rendered = true; setTimeout(() => { render(); document.getElementById('target').focus({ preventScroll: true }); }, 30); }"
            "render();</script>", "", "byId"),
    # A single-page app that removes the focused field (a form closed on submit).
    "spa-remove": (f"<form>{FIELDS}<div id='slot'>{TARGET}</div><div style='height:300px'></div></form><script>"
                   "window.probeBlur = () => document.getElementById('slot').replaceChildren();</script>", "", "byId"),
    # The W3C VirtualKeyboard API: the page lays itself out from the geometry.
    "vk-form": (f"<form>{FIELDS}{TARGET}</form>",
                "<style>body { padding-bottom: env(keyboard-inset-height, 0px) }"
                " html { scroll-padding-bottom: env(keyboard-inset-height, 0px) }</style><script>"
                "navigator.virtualKeyboard.overlaysContent = true;"
                "navigator.virtualKeyboard.addEventListener('geometrychange', () => "
                "document.activeElement?.scrollIntoView({ block: 'nearest' }));</script>", "byId"),
    "vk-chat": (f"<div class='form'>{FIELDS}</div><div class='fixed' style='position:fixed;left:0;right:0;"
                "bottom:env(keyboard-inset-height, 0px);background:#eee;padding:8px'><input id='target' style='width:90%'>"
                "</div>", "<script>navigator.virtualKeyboard.overlaysContent = true;</script>", "byId"),
}

# The probe: reports and obeys the test (issue 35's frame log). `frames`:
# [time (ms since the epoch), innerHeight, padding the page got beyond its own,
#  raise of fixed containers, the VirtualKeyboard API's height, field top, field
#  bottom, outerHeight]; a field in a child frame is placed at its <iframe>.
PROBE = r"""<script>
(() => {
  const HOW = "__HOW__", NAME = "__NAME__";
  const frame = document.querySelector("iframe.target-frame");
  let childRect = null;
  let childActive = null;
  addEventListener("message", (e) => {
    if (e.data && e.data.probeRect !== undefined) { childRect = e.data.probeRect; childActive = e.data.active; }
  });
  const target = () => HOW === "shadow" ? document.querySelector("x-field")?.shadowRoot.getElementById("target")
    : document.getElementById("target");
  function fieldRect() {
    if (frame) {
      if (!childRect) return null;
      const b = frame.getBoundingClientRect();
      return { top: b.top + childRect.top, bottom: b.top + childRect.bottom };
    }
    const t = target();
    return t ? t.getBoundingClientRect() : null;
  }
  const padded = () => [document.body, ...document.querySelectorAll(".scroller")];
  const base = new Map();
  // Each view's padding is judged against the whole keyboard's cover: the most any one got.
  const padding = () => padded().reduce((most, el) => {
    const px = parseFloat(getComputedStyle(el).paddingBottom) || 0;
    if (!base.has(el)) base.set(el, NAME.startsWith("vk-") ? 0 : px);
    return Math.max(most, px - base.get(el));
  }, 0);
  const raised = () => [...document.querySelectorAll(".fixed, dialog")].reduce((sum, el) =>
    sum + Math.abs(parseFloat((el.style.translate || "0 0").split(" ")[1] || "0") || 0), 0);
  const vk = () => navigator.virtualKeyboard?.boundingRect.height ?? 0;
  const scrollers = () => [document.scrollingElement, ...document.querySelectorAll(".scroller")];
  const state = () => JSON.stringify({ range: scrollers().map((e) => [e.scrollTop, e.scrollHeight - e.clientHeight]),
    styles: [document.documentElement, document.body, ...document.querySelectorAll(".scroller, .fixed, dialog")]
      .map((e) => e.style.cssText) });
  padding();
  let frames = [];
  // Sampled in the page's own animation-frame callback, as a page that draws
  // by frame sees it: the frame's viewport (its resize already fired).
  function sample(now) {
    const f = fieldRect();
    frames.push([performance.timeOrigin + now, innerHeight, padding(), raised(), vk(), f ? f.top : null,
      f ? f.bottom : null, outerHeight]);
    if (frames.length > 3000) frames = frames.slice(-1500);
    requestAnimationFrame(sample);
  }
  requestAnimationFrame(sample);
  function cost() {
    document.dispatchEvent(new Event("insetd-cost-query"));
    const text = document.documentElement.dataset.insetdCost;
    delete document.documentElement.dataset.insetdCost;
    return text ? JSON.parse(text) : null;
  }
  let seq = -1, focusedAt = 0;
  function active() {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a === frame && frame ? (childActive === "target" ? "frame" : "frame without focus") : a ? a.id || a.tagName : null;
  }
  async function poll() {
    const f = fieldRect();
    const report = { page: NAME, seq, focusedAt, active: active(), hasFocus: document.hasFocus(), innerWidth, innerHeight, outerHeight,
      field: f && { top: f.top, bottom: f.bottom }, padding: padding(), raised: raised(), vk: vk(), state: state(),
      cost: cost(), hostile: window.hostile || null, frames: frames.splice(0) };
    try {
      const answer = await (await fetch("/poll", { method: "POST", body: JSON.stringify(report) })).json();
      if (answer.seq > seq) {
        const first = seq === -1;
        seq = answer.seq;
        const c = answer.command;
        if (!first && c === "focus") {
          focusedAt = Date.now();
          // As a tap does: the browser scrolls nothing itself.
          if (frame) { frame.focus({ preventScroll: true }); frame.contentWindow.postMessage({ probe: "focus" }, "*"); }
          else target().focus({ preventScroll: true });
        }
        if (!first && c === "blur") {
          if (frame) frame.contentWindow.postMessage({ probe: "blur" }, "*");
          else if (window.probeBlur) window.probeBlur(); else target()?.blur();
        }
        if (!first && c && c.startsWith("go ")) { location.href = c.slice(3); return; }
      }
    } catch (error) { /* the test's server is gone */ }
    setTimeout(poll, 15);
  }
  poll();
})();
</script>"""

# A child frame's probe: obeys its parent, and tells it where its field is.
CHILD_PROBE = r"""<script>
  const t = document.getElementById("target");
  addEventListener("message", (e) => {
    if (e.data?.probe === "focus") t.focus({ preventScroll: true });
    if (e.data?.probe === "blur") t.blur();
  });
  function tell() {
    const r = t.getBoundingClientRect();
    parent.postMessage({ probeRect: { top: r.top, bottom: r.bottom }, active: document.activeElement?.id || null }, "*");
    requestAnimationFrame(tell);
  }
  requestAnimationFrame(tell);
</script>"""

# A page that tries to read or forge the extension's connection to insetd.
HOSTILE = r"""<script>
window.hostile = { pending: true };
(async () => {
  const found = {};
  const cost = () => {
    document.dispatchEvent(new Event("insetd-cost-query"));
    return JSON.parse(document.documentElement.dataset.insetdCost || "null");
  };
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  // The isolated world's state and the content script's flag are not the page's.
  found.flagVisible = "insetdContentScript" in window;
  // The extension's messaging is not reachable from a page.
  try { chrome.runtime.connect("__ID__", { name: "insetd" }); found.connect = "opened"; }
  catch (e) { found.connect = "refused"; }
  // insetd's WebSocket, from the page's own origin: refused (403).
  found.socket = await new Promise((resolve) => {
    const s = new WebSocket("ws://127.0.0.1:__WS__/");
    s.onopen = () => { resolve("opened"); s.close(); };
    s.onclose = () => resolve("refused");
  });
  // Focus events forged on a field that is not focused, and a child frame's
  // report forged as a window message: no session.
  const input = document.getElementById("f3");
  for (const type of ["focusin", "focus"]) input.dispatchEvent(new FocusEvent(type, { bubbles: type === "focusin" }));
  postMessage({ type: "child-focus", from: 1, rect: { x: 0, y: 900, width: 100, height: 40 } }, "*");
  await sleep(300);
  found.forged = cost();
  // The agent imported into the page's own world, with a field really
  // focused: it has no extension messaging to reach insetd with.
  input.focus({ preventScroll: true });
  await sleep(300);
  try {
    const agent = await import("chrome-extension://__ID__/agent.js");
    try { agent.focusChanged(); found.agent = "ran"; } catch (e) { found.agent = "failed: " + e.name; }
  } catch (e) { found.agent = "not importable"; }
  input.blur();
  window.hostile = found;
})();
</script>"""


def page(name, ws_port, cross_origin, extension_id):
    """The HTML of one page (`hostile` and `insetd` are form-shaped)."""
    if name in ("hostile", "insetd"):
        body, head, how = SHAPES["form"]
        head += HOSTILE if name == "hostile" else (
            f'<script type="module">import {{ connect }} from "http://127.0.0.1:{ws_port}/insetd.js"; connect();</script>')
    else:
        body, head, how = SHAPES[name]
    body = body.replace("CROSS", cross_origin)
    probe = PROBE.replace("__HOW__", how).replace("__NAME__", name)
    html = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
            f"content='width=device-width, initial-scale=1'><title>{name}</title>{STYLE}{head}</head>"
            f"<body>{body}{probe}</body></html>")
    return html.replace("__ID__", extension_id).replace("__WS__", str(ws_port))


def frame_page():
    return (f"<!doctype html><html><head><meta charset='utf-8'>{STYLE}</head><body>"
            f"<form>{FIELDS}{TARGET}</form>{CHILD_PROBE}</body></html>")

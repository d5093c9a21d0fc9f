// insetd's content script: in every frame of every page, at document_start, in
// the extension's isolated world (page scripts see none of its variables).
//
// It stays asleep until something is focused: two capture listeners and one
// message listener, no timer, no message, nothing loaded. The first focus
// loads agent.js (an ES module of this extension, with insetd.js), which does
// the work; see agent.js and docs/WEB.md, "The Chromium extension".
(() => {
  // Injected twice (the manifest, and the service worker's catch-up for tabs
  // open before the extension was): once is enough.
  if (globalThis.insetdContentScript) return;
  globalThis.insetdContentScript = true;
  let agent = null;
  const load = () => (agent ??= import(chrome.runtime.getURL("agent.js")));
  // Focus changes are read when the module has them (document.activeElement,
  // into open shadow roots), not from the event: the event is gone by then.
  const wake = () => { load().then((module) => module.focusChanged()); };
  addEventListener("focusin", wake, true);
  addEventListener("focusout", wake, true);
  // A field focused in a child frame, relayed by the service worker.
  chrome.runtime.onMessage.addListener((message) => {
    if (message?.type === "child-focus" || message?.type === "child-blur") {
      load().then((module) => module.childChanged(message));
    }
  });
})();

// scripts/extension-test's meter, put before content.js in the test's copy of
// the extension only: counts, in the extension's isolated world of a frame,
// every timer and animation frame asked for and every message sent or received
// (ports and one-off messages), and answers the page's probe with the counts
// (an `insetd-cost-query` event; the answer is left in data-insetd-cost on the
// root for the probe to take at once). It measures what the extension costs a
// page; it is not part of it.
(() => {
  if (globalThis.insetdCost) return;
  const cost = globalThis.insetdCost = { timers: 0, frames: 0, sent: 0, received: 0, connects: 0 };
  for (const [name, key] of [["setTimeout", "timers"], ["setInterval", "timers"], ["requestAnimationFrame", "frames"]]) {
    const original = globalThis[name];
    globalThis[name] = function (...args) { cost[key]++; return original.apply(this, args); };
  }
  const runtime = chrome.runtime;
  const sendMessage = runtime.sendMessage.bind(runtime);
  runtime.sendMessage = (...args) => { cost.sent++; return sendMessage(...args); };
  const connect = runtime.connect.bind(runtime);
  runtime.connect = (...args) => {
    cost.connects++;
    const port = connect(...args);
    const post = port.postMessage.bind(port);
    port.postMessage = (message) => { cost.sent++; post(message); };
    const listen = port.onMessage.addListener.bind(port.onMessage);
    port.onMessage.addListener = (listener) => listen((...a) => { cost.received++; listener(...a); });
    return port;
  };
  const onMessage = runtime.onMessage.addListener.bind(runtime.onMessage);
  runtime.onMessage.addListener = (listener) => onMessage((...a) => { cost.received++; return listener(...a); });
  document.addEventListener("insetd-cost-query", () => {
    document.documentElement.dataset.insetdCost = JSON.stringify(cost);
  }, true);
})();

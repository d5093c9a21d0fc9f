// insetd's extension service worker: holds the WebSocket to insetd for each
// page that has a field focused, so the connection lives where no page script
// can read or write it (insetd sees the origin chrome-extension://ID, which its
// websocket.origins allow-list names); relays a child frame's focused field to
// the top frame; tells Chromium the keyboard of a page on the VirtualKeyboard
// API. It opens nothing on its own: a connection exists only while a content
// script holds a port for a focused field.

const config = fetch(chrome.runtime.getURL("config.json"))
  .then((response) => response.json())
  .catch(() => ({}));

// One port from a top frame's agent = one insetd session over one WebSocket.
chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== "insetd" || !port.sender?.tab) {
    port.disconnect();
    return;
  }
  let socket = null;
  let ended = false;
  const tell = (message) => { if (!ended) port.postMessage(message); };
  const end = () => {
    if (ended) return;
    tell({ event: "close" });
    ended = true;
    port.disconnect();
    socket?.close();
  };
  config.then(({ url = "ws://127.0.0.1:8099/" }) => {
    if (ended) return;
    socket = new WebSocket(url);
    socket.onopen = () => tell({ event: "open" });
    socket.onmessage = (event) => { if (typeof event.data === "string") tell({ event: "message", data: event.data }); };
    socket.onclose = end;
  });
  port.onMessage.addListener((message) => {
    // Only text the agent wrote goes on; insetd validates it as any client's.
    if (typeof message?.send === "string" && socket?.readyState === WebSocket.OPEN) socket.send(message.send);
  });
  port.onDisconnect.addListener(() => {
    ended = true;
    socket?.close();
  });
});

// A child frame's field, passed to the top frame (which knows where the
// child's <iframe> is: it holds the focus there).
chrome.runtime.onMessage.addListener((message, sender) => {
  if (!sender.tab || !sender.frameId) return;
  if (message?.type !== "child-focus" && message?.type !== "child-blur") return;
  const relayed = { type: message.type, from: sender.frameId, rect: message.rect };
  chrome.tabs.sendMessage(sender.tab.id, relayed, { frameId: 0 }).catch(() => {});
});

// The VirtualKeyboard API's geometry for a page that asked for it
// (overlaysContent), through the DevTools protocol; `rect: null` ends it. The
// debugger is attached only to such a page, only while its field has focus.
const debugged = new Set();
let told = Promise.resolve();
// Browsers without chrome.debugger (Electron) keep the insetd route only.
chrome.debugger?.onDetach.addListener(({ tabId }) => debugged.delete(tabId));
async function virtualKeyboard(tabId, rect) {
  const target = { tabId };
  if (rect === null) {
    if (!debugged.delete(tabId)) return;
    // No rect clears the override: the page reads Chromium's own geometry again.
    await chrome.debugger.sendCommand(target, "Emulation.setVirtualKeyboardGeometryOverride", {}).catch(() => {});
    await chrome.debugger.detach(target).catch(() => {});
    return;
  }
  if (!debugged.has(tabId)) {
    debugged.add(tabId);
    await chrome.debugger.attach(target, "1.3").catch(() => {});
  }
  await chrome.debugger.sendCommand(target, "Emulation.setVirtualKeyboardGeometryOverride", { keyboardRect: rect });
}
chrome.runtime.onMessage.addListener((message, sender) => {
  if (message?.type !== "virtual-keyboard" || !sender.tab || sender.frameId !== 0 || !chrome.debugger) return;
  const rect = message.rect;
  const valid = rect === null || ["x", "y", "width", "height"].every((k) => Number.isFinite(rect[k]));
  // In order: the attach the first one waits for comes before the next.
  if (valid) told = told.then(() => virtualKeyboard(sender.tab.id,
    rect && { x: rect.x, y: rect.y, width: rect.width, height: rect.height })).catch(() => {});
});

// Tabs open before the extension was ready (a kiosk's start page, in some
// launches) get the content script now.
async function catchUp() {
  if (!chrome.scripting) return;
  for (const tab of await chrome.tabs.query({})) {
    chrome.scripting.executeScript({ target: { tabId: tab.id, allFrames: true }, files: ["content.js"] })
      .catch(() => {}); // chrome:// pages and the like
  }
}
chrome.runtime.onStartup.addListener(catchUp);
chrome.runtime.onInstalled.addListener(catchUp);

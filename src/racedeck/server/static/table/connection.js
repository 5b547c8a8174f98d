// The table page's WebSocket (/ws/<table-id>, docs/protocol.md): it says hello with this
// page's seat key (or as a spectator), hands every frame on, pings to keep the line open, and
// reconnects with a growing, jittered delay when the line drops. The connection line of the
// top bar ("status") tells how it stands.
//
// Test hooks (data-testid): "status" (data-state: connecting|online|offline; set through
// shell.setConn).

import { t } from "../i18n.js";

const PING_MS = 25000;

/**
 * Connect a table page to its table and keep it connected until close(). `hooks`: {onFrame
 * (every frame, parsed), setConn(state, key), toast}. Returns {send(frame) (true if sent),
 * request(frame) (sent with the next id), greeted() (the server has welcomed this
 * connection), close()}.
 */
export function createConnection(st, hooks) {
  let ws = null;
  let closed = false;
  let retry = 0;
  let retryTimer = null;
  let pingTimer = null;
  let nextId = 1;
  let greeted = false;

  function connect() {
    if (closed) return;
    hooks.setConn("connecting", retry ? "conn.reconnecting" : "conn.connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${st.table.id}`);
    greeted = false;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify(st.mine ? { type: "hello", token: st.mine.token } : { type: "hello", spectator: true }));
    });
    ws.addEventListener("message", (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (frame.type === "welcome") {
        greeted = true;
        retry = 0;
        hooks.setConn("online", "conn.online");
      }
      hooks.onFrame(frame);
    });
    ws.addEventListener("close", () => {
      clearInterval(pingTimer);
      if (closed) return;
      hooks.setConn("offline", "conn.offline");
      // Back off 0.5 s, 1 s, 2 s … up to 15 s, with jitter so a restarted server is not stormed.
      const delay = Math.min(15000, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
      retry += 1;
      retryTimer = setTimeout(connect, delay);
    });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, PING_MS);
  }

  /** Send a frame to the server; if the line is down, say so and return false. */
  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(obj));
      return true;
    }
    hooks.toast(t("table.notSent"));
    return false;
  }

  /** Send a frame that the server answers by its id ("act", "back"): the id comes last. */
  function request(obj) {
    return send({ ...obj, id: String(nextId++) });
  }

  /** Close the line for good (the page is left). */
  function close() {
    closed = true;
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    if (ws) ws.close();
  }

  connect();
  return { send, request, greeted: () => greeted, close };
}

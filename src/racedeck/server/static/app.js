// The racedeck browser shell: the routes, the lobby, seats, the join form, the language switch
// and the helpers the pages share (toasts, the connection line, the API, this browser's seats).
// The new-table form is new-table.js; the table page around a game's renderer (header bar,
// scoreboard, clocks, narration, connection, end-of-game standings) is static/table/, wired by
// table/screen.js, one module a concern. The protocol is in docs/protocol.md.
//
// A renderer is static/games/<game-id>/board.js (static/faces.js) exporting createRenderer(root, ctx) -> {update, destroy}
// with ctx = {send(actionJson), seat, names, options, standIn(), standInLine()}; it draws the
// board and offers only the view's legal actions. While the stand-in bot plays the seat
// (ctx.standIn() is the bot's name, else null) it offers none and its turn line is
// ctx.standInLine(); the shell calls its refresh() when that changes. Without a renderer, a
// plain list of the legal actions is shown.
//
// Test hooks (data-testid): "status" (data-state: connecting|online|offline|idle), "toasts",
// "lobby", "lobby-table" (data-table), "new-table", "game-select", "option" (data-option),
// "players", "seat-kind" (data-seat), "seat-budget" (data-seat), "your-name", "create-table",
// "join-form", "join-seat", "join", "watch", "invite-link", "copy-invite", "table-header",
// "waiting", "scoreboard", "score" (data-seat), "board", "log", "standings", "win-rule",
// "play-again", "legal-action" (fallback renderer; data-action), "games" (the lobby's list of
// games), "rules-link" (data-game: a link to /rules/<game-id>, in the game list, the new-table
// form and the table header; it opens in a new tab), "watch-link", "copy-watch" (the spectator
// link, /t/<id>/watch), "watching" (the label a spectator sees), "spectators" (how many watch),
// "finished-games", "finished-game" (data-game-no), "download-record", "replay-link" (a finished
// game's replay, in the list and in the standings), "fork-origin" (a what-if table's origin),
// "replay-open-link" (the lobby's way to /replay, to open a record file), "lang-switch" (the
// language <select> in the top bar); clocks: "clock-profile", "clock-grace", "clock-bot" (the
// new-table form), "clock" (data-seat, data-state: idle|running|bot; in the scoreboard),
// "window-clock", "clock-notice", "im-back", "clock-back" (the return message in the notice),
// "stand-in" (a renderer's turn line while the stand-in bot plays this page's seat),
// "bot-played" (standings and finished games); the header's badges: "fair-badge" (opens the
// fairness details: "fairness", "commitment", "face-down"), "share" (opens the spectator link),
// "alerts" (static/alerts.js); a guided game: "learn" (data-game: the lobby's "Learn to play"),
// "coach", "coach-tip", "coach-recap", "coach-skip" (table/coach.js).
// Each static/table/ module lists the hooks it draws. The replay viewer and "what if" are in
// replay.js and static/replay/ (/t/<id>/games/<n>, /replay).
//
// Every text goes through t() (static/i18n.js). The server's own words (event `text`, the
// header's `waiting`, a game's summary and option help) are English; the client words them
// itself from the structured fields with static/games/<game-id>/words.js and the catalogues, and
// falls back to the server's text only for what it has no words for yet.

import { el } from "./dom.js";
import { gameWord, rulesLink, tableSummary } from "./game-words.js";
import { LANGUAGES, has, label, lang, localName, onLanguage, relabel, setLang, t, tn } from "./i18n.js";
import { newTableForm } from "./new-table.js";
import { markGuided } from "./table/coach.js";
import { inviteBox, watchBox } from "./table/links.js";
import { tableScreen } from "./table/screen.js";

const app = document.getElementById("app");
const statusEl = document.querySelector("[data-testid=status]");
const toastsEl = document.querySelector("[data-testid=toasts]");
const SEATS_KEY = "racedeck.seats";
const NAME_KEY = "racedeck.name";

// -- small helpers --------------------------------------------------------------------------------

function toast(message, kind = "error", detail = "", ms = kind === "error" ? 6000 : 3000) {
  const node = el("div", { class: `toast ${kind}`, text: message },
    detail ? el("div", { class: "toast-detail small", text: detail }) : "");
  toastsEl.append(node);
  setTimeout(() => node.remove(), ms);
  return node;
}

function setStatus(state, text) {
  statusEl.dataset.state = state;
  statusEl.textContent = text;
  delete statusEl.dataset.i18n;
}

// The connection line, kept as a message key so a language change words it again.
function setConn(state, key) {
  statusEl.dataset.state = state;
  label(statusEl, key);
}

function seatsStore() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function rememberSeat(tableId, seat, token) {
  const all = seatsStore();
  all[tableId] = { seat, token };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

function forgetSeat(tableId) {
  const all = seatsStore();
  delete all[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

// This seat's share of the deal (provably fair deals, docs/protocol.md): 16 random bytes.
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// An error from the server in this language: its stable code worded here, the server's own
// message (English) kept as the detail.
function errorText(code, message) {
  const key = `error.${code}`;
  return has(key) ? t(key) : message || t("error.unknown");
}

function showError(e) {
  const text = errorText(e.code, e.message);
  toast(text, "error", e.message && e.message !== text && lang() !== "en" ? e.message : "");
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = (data && data.error) || { code: "http/" + res.status, message: res.statusText };
    throw Object.assign(new Error(err.message), { code: err.code });
  }
  return data;
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

// The shell's helpers a page's modules are given (static/table/screen.js, replay.js).
const shell = { api, go, toast, showError, setConn, games, rememberSeat, forgetSeat, savedName, clientSeed };

let leave = null; // what the current page does when the user navigates away
let relang = null; // how the current page redraws its words in another language

function route() {
  if (leave) leave();
  leave = null;
  relang = null;
  app.replaceChildren();
  setStatus("idle", "");
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)(\/watch)?$/);
  const r = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)\/games\/(\d+)$/);
  if (m) tablePage(m[1], Boolean(m[2]));
  else if (r || location.pathname === "/replay") replay(r ? { tableId: r[1], gameNo: Number(r[2]) } : null);
  else lobbyPage();
  app.focus({ preventScroll: true });
}

window.addEventListener("popstate", route);

// The replay viewer (replay.js), loaded when it is first opened.
function replay(source) {
  let cleanup = null;
  let gone = false;
  leave = () => { gone = true; if (cleanup) cleanup(); };
  import("./replay.js").then((mod) => {
    if (gone) return;
    cleanup = mod.replayPage(app, shell, source);
  }).catch((e) => toast(e.message));
}

// The language switch in the top bar. A page without its own way of redrawing (the lobby, the
// join form) is drawn again; the table page redraws in place and keeps its socket.
function languageSwitch() {
  const select = el("select", { class: "lang-switch", "data-testid": "lang-switch",
    "aria-label": t("top.language") },
  ...Object.entries(LANGUAGES).map(([code, name]) => el("option", { value: code, text: name, selected: code === lang() })));
  select.addEventListener("change", () => setLang(select.value));
  document.querySelector(".topbar").append(select);
  onLanguage(() => {
    select.value = lang();
    select.setAttribute("aria-label", t("top.language"));
    relabel();
    if (relang) relang();
    else route();
  });
}

relabel();
languageSwitch();

// -- the lobby ------------------------------------------------------------------------------------

let gamesCache = null;
async function games() {
  if (!gamesCache) gamesCache = await api("GET", "/api/games");
  return gamesCache;
}

async function lobbyPage() {
  document.title = "racedeck";
  const list = el("ul", { class: "lobby-list", "data-testid": "lobby" });
  const gameList = el("ul", { class: "lobby-list", "data-testid": "games" });
  const form = el("form", { class: "panel new-table", "data-testid": "new-table" });
  app.append(
    el("section", { class: "lobby" },
      el("div", { class: "panel lobby-open" }, el("h1", { text: t("lobby.open") }), list),
      form,
      el("div", { class: "panel lobby-games" }, el("h2", { text: t("lobby.games") }), gameList,
        el("p", { class: "small" }, el("a", { href: "/replay", "data-testid": "replay-open-link", text: t("lobby.replay"),
          onclick: (e) => { e.preventDefault(); go("/replay"); } })))),
  );
  let alive = true;
  leave = () => { alive = false; };
  const refresh = async () => {
    if (!alive) return;
    try {
      const [tables, specs] = await Promise.all([api("GET", "/api/tables"), games().catch(() => [])]);
      drawLobby(list, tables, specs);
    } catch (e) {
      list.replaceChildren(el("li", { class: "muted", text: t("lobby.unreadable", { error: errorText(e.code, e.message) }) }));
    }
    if (alive) setTimeout(refresh, 4000);
  };
  refresh();
  try {
    const list = await games();
    drawGames(gameList, list);
    newTableForm(form, list, { api, go, toast, showError, rememberSeat, savedName, clientSeed, nameKey: NAME_KEY });
  } catch (e) {
    toast(t("lobby.noGames", { error: errorText(e.code, e.message) }));
  }
}

// A table's clock in the lobby: its speed profile, or its own times.
function clockLabel(clock) {
  const key = `clock.profile.${clock.profile}`;
  if (has(key)) return t(key);
  return t("lobby.clockCustom", { move: clock.move ?? "∞", bank: clock.bank ?? 0 });
}

function drawLobby(list, tables, specs) {
  if (!tables.length) {
    list.replaceChildren(el("li", { class: "muted", text: t("lobby.none") }));
    return;
  }
  const mine = seatsStore();
  list.replaceChildren(...tables.map((tb) => {
    const who = tb.seats.map((s) => s.taken ? localName(s.name) : t("lobby.freeSeat")).join(", ");
    const seated = mine[tb.id] !== undefined;
    const action = seated ? t("lobby.return") : tb.status === "open" ? t("lobby.join") : t("lobby.watch");
    const summary = tableSummary(tb, specs);
    return el("li", { class: "lobby-row", "data-testid": "lobby-table", "data-table": tb.id },
      el("div", {},
        el("strong", { text: gameWord(tb.game, "title", tb.title) }),
        el("span", { class: "muted", text: ` · ${tn("lobby.players", tb.players)}${summary ? " · " + summary : ""}` }),
        el("div", { class: "muted small", text: `${tb.status === "open" ? tn("lobby.free", tb.free) : t("lobby.playing")} · ${who}` }),
        tb.clock ? el("div", { class: "muted small", "data-testid": "lobby-clock", text: clockLabel(tb.clock) }) : ""),
      el("button", { type: "button", onclick: () => go(`/t/${tb.id}`), text: action }));
  }));
}

function drawGames(list, gameSpecs) {
  list.replaceChildren(...gameSpecs.map((g) => el("li", { class: "lobby-row game-row" },
    el("div", {},
      el("strong", { text: gameWord(g.id, "title", g.title) }),
      el("span", { class: "muted", text: ` · ${t("lobby.playerRange", { min: g.min_players, max: g.max_players })}` }),
      el("div", { class: "muted small", text: gameWord(g.id, "summary", g.summary) })),
    el("div", { class: "game-row-links" },
      rulesLink(g.id, t("lobby.rules")),
      el("button", { type: "button", class: "learn", "data-testid": "learn", "data-game": g.id,
        "aria-label": t("lobby.learnGame", { game: gameWord(g.id, "title", g.title) }),
        text: t("lobby.learn"), onclick: (ev) => learn(g, ev.currentTarget) })))));
}

// "Learn to play": a short game of `g` at once, this person in seat 1 and heuristic bots in the
// others, no clock, opened as a guided game (its coach explains each decision: table/coach.js).
// Guided is this browser's mark on the table (localStorage), not the server's.
const LEARN_PLAYERS = { "why-first": 3, "six-day-race": 3, setback: 2 };

async function learn(g, button) {
  const players = Math.min(Math.max(LEARN_PLAYERS[g.id] || g.min_players, g.min_players), g.max_players);
  const seats = Array.from({ length: players }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "bot", bot: "heuristic" }));
  button.disabled = true;
  try {
    const res = await api("POST", "/api/tables", {
      game: g.id, config: { players, ...((g.presets && g.presets.quick) || {}) }, seats,
      clock: { profile: "unlimited" }, name: savedName() || null, client_seed: clientSeed(),
    });
    if (res.token) rememberSeat(res.table_id, res.seat, res.token);
    markGuided(res.table_id);
    go(`/t/${res.table_id}`);
  } catch (e) {
    showError(e);
    button.disabled = false;
  }
}

// -- the table page -------------------------------------------------------------------------------

async function tablePage(tableId, watch) {
  let info;
  try {
    info = await api("GET", `/api/tables/${tableId}`);
  } catch (e) {
    app.append(el("section", { class: "panel" }, el("h1", { text: t("table.notFound") }),
      el("p", { text: errorText(e.code, e.message) }), el("a", { href: "/", text: t("table.backToLobby") })));
    return;
  }
  // The spectator link always watches, even in a browser that holds a seat here.
  const mine = watch ? null : seatsStore()[tableId];
  if (!watch && !mine && info.status === "open" && info.free > 0) {
    joinPanel(info);
    return;
  }
  const screen = tableScreen(app, info, mine || null, shell);
  relang = screen.relang;
  leave = screen.leave;
}

function joinPanel(info) {
  const free = info.seats.filter((s) => !s.taken);
  const seatSel = el("select", { id: "join-seat", "data-testid": "join-seat" },
    ...free.map((s) => el("option", { value: s.seat, text: t("form.seat", { n: s.seat + 1 }) })));
  const name = el("input", { id: "join-name", "data-testid": "your-name", maxlength: 24,
    value: savedName(), placeholder: t("form.namePlaceholder"), autocomplete: "nickname" });
  const join = el("button", { type: "submit", class: "primary", "data-testid": "join", text: t("join.take") });
  const form = el("form", { class: "panel join", "data-testid": "join-form" },
    el("h1", { text: t("join.title", { game: gameWord(info.game, "title", info.title) }) }),
    el("p", { class: "muted", text: info.seats.map((s) => t("join.seatIs", { n: s.seat + 1, who: s.taken ? localName(s.name) : t("join.free") })).join(" · ") }),
    el("div", { class: "field" }, el("label", { for: "join-name", text: t("form.yourName") }), name),
    el("div", { class: "field" }, el("label", { for: "join-seat", text: t("join.seat") }), seatSel),
    el("div", { class: "buttons" }, join,
      el("button", { type: "button", "data-testid": "watch", text: t("join.watch"),
        onclick: () => go(`/t/${info.id}/watch`) })),
    el("div", { class: "invite-slot" }, inviteBox(shell, info.invite_url), watchBox(shell, info.invite_url)));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const who = name.value.trim();
    if (who) localStorage.setItem(NAME_KEY, who);
    join.disabled = true;
    try {
      const res = await api("POST", `/api/tables/${info.id}/join`,
        { seat: Number(seatSel.value), name: who || null, client_seed: clientSeed() });
      rememberSeat(info.id, res.seat, res.token);
      route();
    } catch (e) {
      showError(e);
      join.disabled = false;
      if (e.code === "seat/taken" || e.code === "table/full") route();
    }
  });
  app.append(form);
}

route();

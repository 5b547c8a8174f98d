// The racedeck browser shell: the lobby, the new-table form, seats, the invite link, and the
// table page around a game's renderer (header bar, scoreboard, narration, errors, connection,
// end-of-game standings). The protocol is in docs/protocol.md.
//
// A renderer is static/games/<game-id>.js exporting createRenderer(root, ctx) -> {update, destroy}
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
// "alerts" (static/alerts.js).
// The replay viewer and "what if" are in replay.js (/t/<id>/games/<n>, /replay).
//
// Every text goes through t() (static/i18n.js). The server's own words (event `text`, the
// header's `waiting`, a game's summary and option help) are English; the client words them
// itself from the structured fields with static/words/<game-id>.js and the catalogues, and
// falls back to the server's text only for what it has no words for yet.

import { LOW_SECONDS, clockText as fmt, createAlerts } from "./alerts.js";
import { el } from "./dom.js";
import { createFaceDown } from "./facedown.js";
import { gameWord, rulesLink, tableSummary } from "./game-words.js";
import {
  LANGUAGES, botName, has, label, lang, listOf, localName, localView, onLanguage, relabel, setLang, t, tn,
} from "./i18n.js";
import { newTableForm } from "./new-table.js";

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

function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

// This seat's share of the deal (provably fair deals, docs/protocol.md): 16 random bytes.
function clientSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// SHA-256 of a text as hex, or null where the browser offers no crypto.subtle (plain http
// away from localhost).
async function sha256Hex(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
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
    cleanup = mod.replayPage(app, { api, go, toast, rememberSeat, games, savedName }, source);
  }).catch((e) => toast(e.message));
}

function replayUrl(tableId, gameNo) {
  return `/t/${tableId}/games/${gameNo}`;
}

function replayLink(tableId, gameNo, text) {
  const href = replayUrl(tableId, gameNo);
  return el("a", { href, class: "replay-link", "data-testid": "replay-link", text,
    onclick: (e) => { e.preventDefault(); go(href); } });
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
    rulesLink(g.id, t("lobby.rules")))));
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
  tableScreen(info, mine || null);
}

function linkBox(url, name) {
  const full = new URL(url, location.href).href;
  const input = el("input", { readonly: true, value: full, "data-testid": `${name}-link`,
    "aria-label": t(`link.${name}`), onfocus: (e) => e.target.select() });
  const copy = el("button", { type: "button", "data-testid": `copy-${name}`, text: t("link.copy"),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(full);
        toast(t(`link.${name}.copied`), "info");
      } catch {
        input.select();
        toast(t("link.selectIt"), "info");
      }
    } });
  return el("div", { class: "invite" }, el("span", { class: "link-label", text: t("link.label", { label: t(`link.${name}`) }) }), input, copy);
}

function inviteBox(url) {
  return linkBox(url, "invite");
}

// The spectator link: the invite link with /watch, which opens the table to watch.
function watchBox(inviteUrl) {
  return linkBox(`${inviteUrl}/watch`, "watch");
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
    el("div", { class: "invite-slot" }, inviteBox(info.invite_url), watchBox(info.invite_url)));
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

function forgetSeat(tableId) {
  const all = seatsStore();
  delete all[tableId];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

// The words of a game (static/words/<game-id>.js): its events, its "waiting for" line. Without
// them, the server's English text is shown.
const wordsCache = new Map();
function wordsFor(gameId) {
  if (!wordsCache.has(gameId)) {
    wordsCache.set(gameId, import(`/static/words/${gameId}.js`).catch((e) => {
      console.warn("no words for", gameId, e);
      return null;
    }));
  }
  return wordsCache.get(gameId);
}

const FINISHED_SHOWN = 5; // finished games listed before "Show N more"

function tableScreen(info, saved) {
  let mine = saved;
  let seat = mine ? mine.seat : null;
  const title = el("h1", { class: "title" });
  const meta = el("span", { class: "meta muted" });
  const waiting = el("span", { class: "waiting", "data-testid": "waiting" });
  const scoreboard = el("ol", { class: "scoreboard", "data-testid": "scoreboard" });
  const board = el("div", { class: "board", "data-testid": "board" });
  // Read out as it grows (a live region), and scrollable by keyboard too (it takes the focus).
  const log = el("ol", { class: "log", "data-testid": "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "log-title" });
  const standings = el("section", { class: "standings panel", "data-testid": "standings", hidden: true });
  const invite = el("div", { class: "invite-slot" });
  const fairLine = el("div", { class: "fair muted", "data-testid": "fairness" });
  let fairShown = null;
  // What the end's checks found: the server seed against its commitment, the face-down cards
  // against theirs (null: not checked, or not here).
  let seedOk = null;
  let faceDownOk = null;
  const faceDown = createFaceDown(sha256Hex, (ok) => { faceDownOk = ok; drawFairBadge(); });
  // Fairness as a small badge that opens its details (the commitment, the face-down cards, the
  // check at the end); it opens by itself when the end is checked.
  const fairSummary = el("summary", { class: "badge fair-badge", "data-testid": "fair-badge" });
  const fairBox = el("details", { class: "fair-box" }, fairSummary,
    el("div", { class: "fair-details panel" }, fairLine, faceDown.element));
  let fairOpenedFor = null;
  // The spectator link behind a Share button (the invite link stays in view while seats are free).
  const shareSummary = el("summary", { class: "badge share-badge", "data-testid": "share" });
  const shareBox = el("details", { class: "share-box" }, shareSummary, el("div", { class: "share-details panel" }));
  const watching = label(el("span", { class: "badge watching", "data-testid": "watching" }), "table.watching");
  const spectators = el("span", { class: "spectators muted", "data-testid": "spectators" });
  const finished = el("ol", { class: "finished", "data-testid": "finished-games" });
  // The latest few finished games; the rest behind a button (a long evening makes many).
  let finishedAll = false;
  const moreFinished = el("button", { type: "button", class: "link-button", "data-testid": "more-finished", hidden: true,
    onclick: () => { finishedAll = true; finished.querySelectorAll("li[hidden]").forEach((li) => { li.hidden = false; });
      moreFinished.hidden = true; } });
  const finishedPanel = el("div", { class: "panel", hidden: true }, label(el("h2"), "table.finished"), finished, moreFinished);
  const rules = el("span");
  const clockNotice = el("div", { class: "clock-notice", "data-testid": "clock-notice", role: "status", hidden: true });
  const windowClock = el("span", { class: "window-clock muted", "data-testid": "window-clock", hidden: true });
  const alerts = createAlerts();
  app.append(el("section", { class: "table-page" },
    el("div", { class: "table-header panel", "data-testid": "table-header" },
      el("div", { class: "title-line" }, watching, title, meta, " · ", rules, spectators),
      el("div", { class: "waiting-line" }, waiting, windowClock), clockNotice,
      el("div", { class: "header-badges" }, alerts.element, fairBox, shareBox), invite),
    el("div", { class: "table-body" },
      el("div", { class: "board-wrap" }, standings, board),
      el("aside", { class: "side" },
        el("div", { class: "panel" }, label(el("h2"), "table.scores"), scoreboard),
        el("div", { class: "panel" }, label(el("h2", { id: "log-title" }), "table.log"), log),
        finishedPanel))));

  let table = info;
  let view = null;
  let sentView = null; // the view as the server sent it: names are worded again in another language
  let gameNo = null;
  let renderer = null;
  let rendererFor = null;
  let ws = null;
  let closed = false;
  let retry = 0;
  let retryTimer = null;
  let pingTimer = null;
  let nextId = 1;
  let greeted = false;
  let specs = [];
  let events = []; // every event of the current game this page has seen, to narrate again
  games().then((s) => { specs = s; drawTable(); }).catch(() => {});
  // The table's clock as last sent, and when it came: the countdown runs from there.
  let clock = null;
  let clockAt = 0;
  const clockTimer = setInterval(() => drawClocks(), 250);
  // What a returning person is told of their time ({key, vars}), shown in the notice a while.
  let backNote = null;
  let backTimer = null;
  let standInShown = null; // the stand-in the renderer last drew (see standIn())
  let takeoverToast = null; // "You ran out of time …", taken away when you are back

  const names = () => (view && view.header.seat_names) || table.seats.map((s) => localName(s.name) || t("form.seat", { n: s.seat + 1 }));

  // Labels a language change redraws (the attributes label() does not reach).
  function drawLabels() {
    alerts.drawLabels();
    shareSummary.textContent = t("table.share");
    watching.title = t("table.watchingHint");
    scoreboard.setAttribute("aria-label", t("table.scores"));
    log.setAttribute("aria-label", t("table.log"));
    finished.setAttribute("aria-label", t("table.finished"));
    rules.replaceChildren(rulesLink(info.game, t("lobby.rules")));
  }

  function drawTable() {
    title.textContent = gameWord(table.game, "title", table.title);
    const parts = seat === null ? [] : [t("table.youAreSeat", { n: seat + 1 })];
    watching.hidden = seat !== null;
    alerts.element.hidden = seat === null; // a spectator is never asked to act
    const summary = tableSummary(table, specs);
    if (summary) parts.push(summary);
    if (table.game_no > 1) parts.push(t("table.gameNo", { n: table.game_no }));
    meta.textContent = parts.length ? " · " + parts.join(" · ") : "";
    const n = table.spectators;
    spectators.textContent = n ? ` · ${tn("table.watchers", n)}` : "";
    invite.replaceChildren(table.status === "open" ? inviteBox(table.invite_url) : "");
    shareBox.lastChild.replaceChildren(watchBox(table.invite_url));
    loadFinished();
    drawFairness();
    faceDown.table(table);
    if (!view) {
      const missing = table.seats.filter((s) => !s.taken).length;
      waiting.textContent = table.status === "open" ? tn("table.waitingPeople", missing) : "";
      drawScores();
    }
  }

  // The finished games change when a game ends or the next is dealt: fetch them then.
  let finishedFor = null;
  async function loadFinished() {
    const key = `${table.game_no}:${table.status}:${lang()}`;
    if (key === finishedFor) return;
    finishedFor = key;
    let list;
    try {
      list = await api("GET", `/api/tables/${table.id}/games`);
    } catch {
      finishedFor = null; // try again with the next table frame
      return;
    }
    finished.replaceChildren(...list.games.slice().reverse().map((g, i) => {
      const when = new Date(g.finished);
      const won = g.winners.length ? tn("table.wins", g.winners.length, { names: listOf(g.winners.map(localName)) }) : "";
      return el("li", { "data-testid": "finished-game", "data-game-no": g.game_no, hidden: !finishedAll && i >= FINISHED_SHOWN },
        el("span", { class: "what", text: t("table.gameTitle", { n: g.game_no }) }),
        el("span", { class: "muted", text: ` · ${when.toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" })}` }),
        won ? el("div", { class: "won", text: won }) : "",
        g.bot_played && g.bot_played.length ? el("div", { class: "muted small", "data-testid": "bot-played",
          text: t("clock.finishedBotPlayed", { names: listOf(g.bot_played.map((i) => localName(g.outcome.names[i]))) }) }) : "",
        el("div", { class: "finished-links" },
          replayLink(table.id, g.game_no, t("replay.link")), " · ",
          el("a", { href: g.record_url, download: `racedeck-${table.id}-game-${g.game_no}.json`,
            "data-testid": "download-record", text: t("table.download"),
            title: t("table.downloadHint") })));
    }));
    finishedPanel.hidden = list.games.length === 0;
    const folded = finishedAll ? 0 : Math.max(0, list.games.length - FINISHED_SHOWN);
    moreFinished.hidden = folded === 0;
    moreFinished.textContent = tn("table.finished.more", folded);
  }

  // The commitment to the server seed, shown before the deal; at the end, the revealed seed is
  // checked against it here, in the browser.
  function drawFairness() {
    const f = table.fair;
    const key = f ? `${table.game_no}:${f.commitment}:${f.server_seed}:${lang()}` : table.fork ? lang() : null;
    if (key === fairShown) return;
    fairShown = key;
    fairBox.hidden = !f && !table.fork;
    seedOk = null;
    drawFairBadge();
    if (!f && table.fork) {
      // A what-if game: dealt from a known seed, so no fair deal to check.
      const o = table.fork;
      fairLine.replaceChildren(el("span", { "data-testid": "fork-origin",
        text: t("table.fork", { step: o.step, n: o.game_no ?? "?" }) + " " }),
      o.source === "table" && o.table ? replayLink(o.table, o.game_no, t("table.fork.source")) : "");
      return;
    }
    if (!f) { fairLine.replaceChildren(); return; }
    const short = el("code", { title: f.commitment, "data-testid": "commitment", text: f.commitment.slice(0, 12) });
    if (!f.server_seed) {
      fairLine.replaceChildren(t("fair.committed") + " ", short, "…");
      return;
    }
    const record = el("a", { href: `/api/tables/${table.id}/record`, download: `racedeck-${table.id}-${table.game_no}.json`,
      "data-testid": "record-link", text: t("fair.record") });
    fairLine.replaceChildren(t("fair.checking"));
    sha256Hex(f.server_seed).then((hash) => {
      if (fairShown !== key) return;
      const verdict = hash === null ? el("span", { text: t("fair.cannotCheck") })
        : hash === f.commitment
          ? el("span", { class: "verified", "data-testid": "fair-verified", text: t("fair.verified") + " " })
          : el("span", { class: "tampered", "data-testid": "fair-mismatch", text: t("fair.mismatch") + " " });
      seedOk = hash === null ? null : hash === f.commitment;
      drawFairBadge();
      // The end is checked: show how, once per game (a person may fold it away again).
      if (fairOpenedFor !== table.game_no) {
        fairOpenedFor = table.game_no;
        fairBox.open = true;
      }
      fairLine.replaceChildren(t("fair.label") + " · ", verdict, short, "… · ", record,
        " " + t("fair.verifyHint"));
    });
  }

  // The badge's words: a fair deal, checked at the end (✓), or found not to be (✗).
  function drawFairBadge() {
    const checked = seedOk !== null || faceDownOk !== null;
    const bad = seedOk === false || faceDownOk === false;
    fairSummary.textContent = !table.fair ? t("fair.badge.fork")
      : bad ? t("fair.badge.mismatch") : checked ? t("fair.badge.verified") : t("fair.label");
    fairSummary.classList.toggle("tampered", bad);
    fairSummary.classList.toggle("verified", checked && !bad);
  }

  function drawScores() {
    const h = view && view.header;
    const scoreNames = h ? h.score_names : names();
    const scores = h ? h.scores : [];
    const acting = new Set(h ? h.acting : []);
    scoreboard.replaceChildren(...scoreNames.map((n, i) => {
      const s = table.seats[i];
      const online = s ? s.connected : true;
      return el("li", { class: ["score", acting.has(i) ? "acting" : "", i === seat ? "me" : ""].join(" "),
        "data-testid": "score", "data-seat": i },
        el("span", { class: `dot ${online ? "on" : "off"}`, title: online ? t("table.connected") : t("table.notConnected") }),
        el("span", { class: "name", text: i === seat ? t("table.you", { name: n }) : n }),
        s ? el("span", { class: "clock", "data-testid": "clock", "data-seat": i }) : "",
        el("span", { class: "pts", text: scores[i] !== undefined ? String(scores[i]) : "" }));
    }));
    drawClocks();
  }

  // -- clocks ----------------------------------------------------------------------------------

  // A running clock `gone` seconds after it was sent: the move time left (negative once the
  // bank is being spent), the bank, and all the time left.
  function timeLeft(s, gone) {
    const moveLeft = s.move_left - gone;
    const bank = moveLeft >= 0 ? s.bank : s.bank + moveLeft;
    return { moveLeft, bank, left: Math.max(0, moveLeft) + Math.max(0, bank) };
  }

  // A new clock from the server: tell of takeovers and returns, then draw it.
  function setClock(next) {
    if (!next) return;
    const before = clock;
    clock = next;
    clockAt = performance.now();
    if (before && before.seats.length === next.seats.length) {
      const who = names();
      next.seats.forEach((s, i) => {
        const was = before.seats[i];
        if (s.bot && !was.bot) {
          const text = takeoverText(s, i, who);
          narrate([{ text }], false);
          if (i === seat) {
            dropBackNote();
            takeoverToast = toast(takeoverText(s, i, who, true), "info", "", 6000);
          } else {
            toast(text, "info");
          }
        } else if (!s.bot && was.bot) {
          narrate([{ text: t("clock.back", { name: who[i] }) }], false);
          if (i === seat) {
            backNote = backWords(next, s);
            if (takeoverToast) takeoverToast.remove();
            toast(t(backNote.key, backNote.vars), "info", "", 6000);
            clearTimeout(backTimer);
            backTimer = setTimeout(dropBackNote, 8000);
          } else {
            toast(t("clock.back", { name: who[i] }), "info");
          }
        }
      });
    }
    drawNotice();
    drawClocks();
    syncStandIn();
  }

  // "Ann ran out of time: the heuristic bot plays for them." (`you`: "You ran out of time …").
  function takeoverText(s, i, who, you = false) {
    const key = s.reason === "away" ? "clock.away" : "clock.timeout";
    return t(you ? `${key}.you` : key, { name: who[i], bot: botName(clock.bot) });
  }

  // What a person back from a takeover has: the per-move time, and the bank if any is left.
  function backWords(c, s) {
    if (c.move === null || c.move === undefined) return { key: "clock.youreBack", vars: {} };
    const vars = { move: fmt(c.move), bank: fmt(s.bank) };
    if (s.bank > 0) return { key: "clock.youreBack.bank", vars };
    return { key: c.bank > 0 ? "clock.youreBack.bankUsed" : "clock.youreBack.move", vars };
  }

  function dropBackNote() {
    clearTimeout(backTimer);
    if (!backNote) return;
    backNote = null;
    drawNotice();
  }

  // The stand-in bot's name while it plays this page's seat in a game still going, else null.
  function standIn() {
    if (seat === null || !clock || !view || view.header.terminal) return null;
    const s = clock.seats[seat];
    return s && s.bot ? botName(clock.bot) : null;
  }

  // A renderer's turn line while the stand-in bot plays for this page's person (renderers ask
  // for it only while standIn() names a bot).
  function standInLine() {
    return el("span", { class: "stand-in", "data-testid": "stand-in",
      text: t("clock.standIn", { bot: standIn() ?? "", back: t("clock.imBack") }) });
  }

  // The renderer draws its turn line and controls again when the stand-in comes or goes.
  function syncStandIn() {
    const now = standIn();
    if (now === standInShown) return;
    drawing = drawing.then(() => {
      const current = standIn();
      if (current === standInShown) return;
      standInShown = current;
      if (renderer && view && renderer.refresh) renderer.refresh();
    });
  }

  function drawNotice() {
    const who = names();
    // Once the game is over there is nothing to come back to: the standings mark it instead.
    const over = view && view.header.terminal;
    const taken = clock && !over ? clock.seats.map((s, i) => [s, i]).filter(([s]) => s.bot) : [];
    // Your own seat first, spoken to you, with the way back.
    taken.sort(([, a], [, b]) => (b === seat) - (a === seat));
    const rows = taken.map(([s, i]) => i === seat
      ? el("div", { class: "notice-row notice-mine" },
        el("span", { class: "notice-text", text: takeoverText(s, i, who, true) }),
        el("button", { type: "button", class: "primary im-back", "data-testid": "im-back", text: t("clock.imBack"),
          onclick: (ev) => {
            if (send({ type: "back", id: String(nextId++) })) ev.currentTarget.disabled = true;
          } }))
      : el("div", { class: "notice-row" }, el("span", { class: "notice-text", text: takeoverText(s, i, who) })));
    if (backNote && !over) {
      rows.push(el("div", { class: "notice-row notice-back", "data-testid": "clock-back" },
        el("span", { class: "notice-text", text: t(backNote.key, backNote.vars) })));
    }
    clockNotice.hidden = rows.length === 0;
    clockNotice.classList.toggle("mine", taken.some(([, i]) => i === seat));
    clockNotice.classList.toggle("back", Boolean(backNote) && !taken.length);
    clockNotice.replaceChildren(...rows);
  }

  // The tab's title and icon (and, if asked for, a sound and a notification): this page's person
  // is asked to act, and how much time they have left while their clock runs.
  function drawAlerts() {
    if (!view) return;
    const h = view.header;
    const base = `${gameWord(h.game, "title", h.title)} · racedeck`;
    const turn = seat !== null && !h.terminal && (view.legal_actions || []).length > 0 && !standIn();
    let left = null;
    const s = clock && seat !== null ? clock.seats[seat] : null;
    if (turn && s && s.running && clock.move !== null) left = timeLeft(s, (performance.now() - clockAt) / 1000).left;
    alerts.update({ base, turn, left });
    dockActions(turn);
  }

  // On a phone or a touch tablet held upright (style.css docks with the same query), what you
  // act on (a renderer's ".dock": your hand, the choice you are asked) stays on screen while
  // it is your turn, over the bottom of the page; the page gets room below so that nothing
  // stays covered.
  const narrow = window.matchMedia("(max-width: 620px), (max-width: 900px) and (pointer: coarse)");
  function dockActions(turn) {
    board.classList.toggle("my-turn", turn);
    const dock = turn && narrow.matches ? board.querySelector(".dock") : null;
    // A docked dock scrolls when it is taller than its room: it takes the focus, so it can be
    // scrolled by keyboard too.
    for (const d of board.querySelectorAll(".dock")) {
      if (d === dock) d.tabIndex = 0;
      else d.removeAttribute("tabindex");
    }
    const room = dock ? `${dock.offsetHeight}px` : "";
    if (document.body.style.paddingBottom !== room) document.body.style.paddingBottom = room;
  }

  function drawClocks() {
    drawAlerts();
    if (!clock) return;
    const gone = (performance.now() - clockAt) / 1000;
    for (const node of scoreboard.querySelectorAll("[data-testid=clock]")) {
      const i = Number(node.dataset.seat);
      const s = clock.seats[i];
      if (!s) continue;
      let state = "idle";
      let text = "";
      const seatRow = table.seats[i];
      if (seatRow && seatRow.kind === "bot") {
        state = "idle"; // a bot seat has no clock
      } else if (s.bot) {
        state = "bot";
        text = t("clock.bot");
      } else if (clock.move !== null) {
        if (s.running) {
          state = "running";
          const { moveLeft, bank, left } = timeLeft(s, gone);
          text = moveLeft < 0 ? t("clock.bankOnly", { bank: fmt(bank) })
            : clock.bank > 0 ? t("clock.moveAndBank", { move: fmt(moveLeft), bank: fmt(bank) })
              : t("clock.moveOnly", { move: fmt(moveLeft) });
          node.classList.toggle("low", left < LOW_SECONDS);
        } else {
          text = clock.bank > 0 ? t("clock.bankOnly", { bank: fmt(s.bank) }) : "";
          node.classList.remove("low");
        }
      }
      node.dataset.state = state;
      node.textContent = text;
      node.title = s.bot ? t("clock.botTitle", { bot: clock.bot }) : t("clock.title");
    }
    const done = view && view.header.terminal;
    windowClock.hidden = clock.window === null || Boolean(done);
    if (clock.window !== null) windowClock.textContent = t("clock.window", { time: fmt(clock.window - gone) });
  }

  // The narration: each event in this language from its fields (the game's words module), the
  // server's English text only for an event the module does not know.
  async function narrate(fresh, reset, again = false) {
    if (reset && !again) events = [];
    events.push(...fresh);
    const words = table.game ? await wordsFor(table.game) : null;
    const ctx = { view, names: view ? view.header.score_names : names(), seats: names(), config: table.config };
    const lines = (reset ? events : fresh).map((e) => {
      let text = null;
      try {
        text = words ? words.describeEvent(e, ctx) : null;
      } catch (err) {
        console.warn("cannot word event", e, err);
      }
      return text === null || text === undefined ? e.text : text;
    });
    if (reset) log.replaceChildren();
    (reset ? events : fresh).forEach((e, i) => {
      if (lines[i]) log.append(el("li", { class: e.audience !== undefined ? "private" : "", text: lines[i] }));
    });
    while (log.children.length > 300) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  async function waitingText(h) {
    if (h.terminal) return t("table.over");
    const words = await wordsFor(h.game);
    const ctx = { view, names: h.score_names, seats: h.seat_names, config: h.config };
    const text = words ? words.describeWaiting(view, ctx) : null;
    return text === null || text === undefined ? h.waiting : text;
  }

  function drawStandings() {
    const h = view && view.header;
    if (!h || !h.terminal || !h.outcome) {
      standings.hidden = true;
      return;
    }
    const o = h.outcome;
    const who = o.names && o.names.length ? o.names : h.score_names;
    const order = who.map((_, i) => i).sort((a, b) => o.ranks[a] - o.ranks[b]);
    const winners = listOf(o.winners.map((i) => who[i]));
    const winRule = gameWord(h.game, "winRule", table.win_rule);
    standings.replaceChildren(
      el("h2", { text: tn("table.winsBang", o.winners.length, { names: winners }) }),
      winRule ? el("p", { class: "muted", "data-testid": "win-rule", text: t("table.why", { rule: winRule }) }) : "",
      el("ol", { class: "ranks" }, ...order.map((i) => el("li", { class: o.winners.includes(i) ? "winner" : "" },
        el("span", { class: "rank", text: `${o.ranks[i]}.` }),
        el("span", { class: "name", text: who[i] },
          clock && clock.seats[i] && clock.seats[i].bot_played
            ? el("span", { class: "badge bot-played", "data-testid": "bot-played", text: t("clock.botPlayed"),
              title: t("clock.botPlayedTitle", { bot: clock.bot }) }) : ""),
        el("span", { class: "pts", text: String(o.scores[i]) })))),
      mine && !table.fork ? el("button", { type: "button", class: "primary", "data-testid": "play-again", text: t("table.again"),
        onclick: async (ev) => {
          ev.target.disabled = true;
          try {
            await api("POST", `/api/tables/${table.id}/again`, { token: mine.token, client_seed: clientSeed() });
          } catch (e) {
            showError(e);
            ev.target.disabled = false;
          }
        } }) : "",
      replayLink(table.id, table.game_no, t("replay.this-game")),
      el("a", { href: "/", text: t("table.backToLobby"), onclick: (e) => { e.preventDefault(); go("/"); } }));
    standings.hidden = false;
  }

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(obj));
      return true;
    }
    toast(t("table.notSent"));
    return false;
  }

  async function mountRenderer(gameId) {
    if (rendererFor === gameId && renderer) return renderer;
    if (renderer) renderer.destroy();
    renderer = null;
    rendererFor = gameId;
    const ctx = {
      send: (action) => send({ type: "act", move: view.header.move, action, id: String(nextId++) }),
      seat,
      names: names(),
      options: table.config,
      standIn,
      standInLine,
    };
    board.replaceChildren();
    try {
      if (!document.querySelector(`link[data-game="${gameId}"]`)) {
        document.head.append(el("link", { rel: "stylesheet", href: `/static/games/${gameId}.css`, "data-game": gameId }));
      }
      const mod = await import(`/static/games/${gameId}.js`);
      renderer = mod.createRenderer(board, ctx);
    } catch (e) {
      console.warn("renderer unavailable, listing legal actions", e);
      renderer = plainRenderer(board, ctx);
    }
    return renderer;
  }

  let drawing = Promise.resolve();
  function show(newView, evs, initial) {
    // Frames are drawn strictly in order, even while a renderer module is still loading.
    drawing = drawing.then(async () => {
      sentView = newView;
      view = localView(newView);
      const h = view.header;
      drawAlerts();
      waiting.textContent = await waitingText(h);
      drawScores();
      const r = await mountRenderer(h.game);
      standInShown = standIn();
      const focused = focusedControl();
      try {
        r.update(view, evs, { initial });
      } catch (e) {
        console.error(e);
        toast(t("table.drawFailed"), "error", e.message);
      }
      refocus(focused);
      drawStandings();
      drawNotice();
    });
  }

  // A keyboard player keeps the focus on the board when it is drawn again (a move came in):
  // on the same control if it is still there, else on the first one offered, never lost to
  // the top of the page.
  const SAME = ["testid", "action", "card", "value", "figure"];
  function focusedControl() {
    const a = document.activeElement;
    return a && a !== board && board.contains(a) ? Object.fromEntries(SAME.map((k) => [k, a.dataset[k]])) : null;
  }
  function refocus(was) {
    if (!was || board.contains(document.activeElement)) return;
    const usable = [...board.querySelectorAll("button:enabled")].filter((b) => b.checkVisibility());
    const same = usable.find((b) => SAME.every((k) => b.dataset[k] === was[k]));
    const next = same || usable[0];
    if (next) next.focus({ preventScroll: true });
  }

  // Narration waits for the frames before it, so it is worded with the view it belongs to.
  function tell(evs, reset) {
    drawing = drawing.then(() => narrate(evs, reset));
  }

  // Another language: every word on the page again, the board drawn afresh from the last view;
  // the socket stays open.
  function redraw() {
    drawLabels();
    drawTable();
    drawing = drawing.then(async () => {
      if (!view) return;
      view = localView(sentView); // "heuristic bot" is "Heuristik-Bot" only while in German
      if (renderer) renderer.destroy();
      renderer = null;
      rendererFor = null;
      waiting.textContent = await waitingText(view.header);
      drawScores();
      const r = await mountRenderer(view.header.game);
      standInShown = standIn();
      try {
        r.update(view, [], { initial: true });
      } catch (e) {
        console.error(e);
      }
      drawStandings();
      drawNotice();
    }).then(() => narrate([], true, true));
  }
  relang = redraw;

  function onFrame(frame) {
    switch (frame.type) {
      case "welcome": {
        table = frame.table;
        drawTable();
        setClock(table.clock);
        const fresh = gameNo !== frame.game_no;
        gameNo = frame.game_no;
        if (frame.view) show(frame.view, frame.events, true);
        else if (fresh && renderer) { renderer.destroy(); renderer = null; rendererFor = null; }
        if (frame.answer && frame.view) {
          // This seat's answer to the open window, sealed until it closes (SB-9).
          const move = frame.view.header.move;
          drawing = drawing.then(() => renderer && renderer.sealed && renderer.sealed(move, frame.answer));
        }
        tell(frame.events, true);
        break;
      }
      case "update": {
        const fresh = gameNo !== frame.game_no;
        if (fresh) {
          gameNo = frame.game_no;
          if (renderer) { renderer.destroy(); renderer = null; rendererFor = null; }
          standings.hidden = true;
        }
        show(frame.view, frame.events, fresh);
        faceDown.update(frame);
        tell(frame.events, fresh);
        setClock(frame.clock);
        break;
      }
      case "table":
        table = frame.table;
        drawTable();
        if (view) drawScores();
        setClock(table.clock);
        break;
      case "error":
        if (frame.code === "auth/invalid" && mine && !greeted) {
          // The server does not know this seat's key (a new database?): watch instead.
          toast(t("table.keyInvalid"));
          forgetSeat(table.id);
          mine = null;
          seat = null;
        } else if (frame.code !== "action/stale") {
          showError(frame);
          if (frame.id && renderer && renderer.refused) renderer.refused();
        }
        break;
      default:
        break;
    }
  }

  function connect() {
    if (closed) return;
    setConn("connecting", retry ? "conn.reconnecting" : "conn.connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${table.id}`);
    greeted = false;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify(mine ? { type: "hello", token: mine.token } : { type: "hello", spectator: true }));
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
        setConn("online", "conn.online");
      }
      onFrame(frame);
    });
    ws.addEventListener("close", () => {
      clearInterval(pingTimer);
      if (closed) return;
      setConn("offline", "conn.offline");
      // Back off 0.5 s, 1 s, 2 s … up to 15 s, with jitter so a restarted server is not stormed.
      const delay = Math.min(15000, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
      retry += 1;
      retryTimer = setTimeout(connect, delay);
    });
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "ping" }));
    }, 25000);
  }

  drawLabels();
  drawTable();
  connect();
  leave = () => {
    closed = true;
    clearInterval(clockTimer);
    clearTimeout(backTimer);
    clearTimeout(retryTimer);
    clearInterval(pingTimer);
    if (ws) ws.close();
    if (renderer) renderer.destroy();
    alerts.destroy();
    document.body.style.paddingBottom = "";
  };
}

// A renderer for games without one: the legal actions as buttons (keeps every game playable).
function plainRenderer(root, ctx) {
  const box = el("div", { class: "plain" });
  let last = null;
  root.append(box);
  return {
    update(view) {
      last = view;
      const bot = ctx.standIn();
      const acts = bot ? [] : view.legal_actions || [];
      box.replaceChildren(
        bot ? el("p", {}, ctx.standInLine()) : el("p", { class: "muted", text: acts.length ? t("plain.choices") : t("plain.nothing") }),
        el("div", { class: "choices" }, ...acts.map((a) => el("button", { type: "button",
          "data-testid": "legal-action", "data-action": JSON.stringify(a),
          text: Object.entries(a).map(([k, v]) => (k === "type" ? v : `${k}: ${JSON.stringify(v)}`)).join(" · "),
          onclick: () => ctx.send(a) }))));
    },
    refresh() { if (last) this.update(last); },
    destroy() { box.remove(); },
  };
}

route();

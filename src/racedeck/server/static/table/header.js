// The table page's header bar: the game's title and what the table is (your seat, options, game
// number, spectators, the rules link), the "waiting for" line, and the badges (turn alerts,
// fairness, Share with the spectator link); the invite link while seats are free. The clock's
// parts (the window clock, the notice) and the badges are made elsewhere and placed here.
//
// Test hooks (data-testid): "table-header", "waiting", "watching", "spectators", "share",
// "rules-link" (game-words.js), "invite-link", "watch-link" (links.js).

import { el } from "../dom.js";
import { gameWord, rulesLink, tableSummary } from "../game-words.js";
import { label, t, tn } from "../i18n.js";
import { inviteBox, watchBox } from "./links.js";
import { waitingText } from "./words.js";

/**
 * The header of a table page. `parts`: {alerts (its badge, static/alerts.js), fairBox (the
 * fairness badge), windowClock, clockNotice}. Returns {element, drawLabels(), draw(),
 * drawSeatsWanted(), drawWaiting(header)}.
 */
export function createHeader(st, shell, parts) {
  const title = el("h1", { class: "title" });
  const meta = el("span", { class: "meta muted" });
  const waiting = el("span", { class: "waiting", "data-testid": "waiting" });
  const invite = el("div", { class: "invite-slot" });
  // The spectator link behind a Share button (the invite link stays in view while seats are free).
  const shareSummary = el("summary", { class: "badge share-badge", "data-testid": "share" });
  const shareBox = el("details", { class: "share-box" }, shareSummary, el("div", { class: "share-details panel" }));
  const watching = label(el("span", { class: "badge watching", "data-testid": "watching" }), "table.watching");
  const spectators = el("span", { class: "spectators muted", "data-testid": "spectators" });
  const rules = el("span");
  const gameId = st.table.game;
  const element = el("div", { class: "table-header panel", "data-testid": "table-header" },
    el("div", { class: "title-line" }, watching, title, meta, " · ", rules, spectators),
    el("div", { class: "waiting-line" }, waiting, parts.windowClock), parts.clockNotice,
    el("div", { class: "header-badges" }, parts.alerts.element, parts.fairBox, shareBox), invite);

  /** Labels a language change redraws (the attributes label() does not reach). */
  function drawLabels() {
    parts.alerts.drawLabels();
    shareSummary.textContent = t("table.share");
    watching.title = t("table.watchingHint");
    rules.replaceChildren(rulesLink(gameId, t("lobby.rules")));
  }

  /** The header from the table as last sent; before the first view, who is still awaited. */
  function draw() {
    const table = st.table;
    title.textContent = gameWord(table.game, "title", table.title);
    const bits = st.seat === null ? [] : [t("table.youAreSeat", { n: st.seat + 1 })];
    watching.hidden = st.seat !== null;
    parts.alerts.element.hidden = st.seat === null; // a spectator is never asked to act
    const summary = tableSummary(table, st.specs);
    if (summary) bits.push(summary);
    if (table.game_no > 1) bits.push(t("table.gameNo", { n: table.game_no }));
    meta.textContent = bits.length ? " · " + bits.join(" · ") : "";
    const n = table.spectators;
    spectators.textContent = n ? ` · ${tn("table.watchers", n)}` : "";
    invite.replaceChildren(table.status === "open" ? inviteBox(shell, table.invite_url) : "");
    shareBox.lastChild.replaceChildren(watchBox(shell, table.invite_url));
  }

  /** The "waiting for" line before the first view: how many people the table still needs. */
  function drawSeatsWanted() {
    const missing = st.table.seats.filter((s) => !s.taken).length;
    waiting.textContent = st.table.status === "open" ? tn("table.waitingPeople", missing) : "";
  }

  /** The "waiting for" line of view header `h`, in this language (waits for the game's words). */
  async function drawWaiting(h) {
    waiting.textContent = await waitingText(st.view, h);
  }

  return { element, drawLabels, draw, drawSeatsWanted, drawWaiting };
}

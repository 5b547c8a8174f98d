// The table's finished games, in the side bar: the latest first, each with when it ended, who
// won, which seats a bot played, its replay and its record to download; the latest few shown,
// the rest behind "Show N more" (a long evening makes many). Fetched again when a game ends or
// the next is dealt (GET /api/tables/<id>/games).
//
// Test hooks (data-testid): "finished-games", "finished-game" (data-game-no), "more-finished",
// "bot-played", "download-record", "replay-link" (links.js).

import { el } from "../dom.js";
import { label, lang, listOf, localName, t, tn } from "../i18n.js";
import { replayLink } from "./links.js";

const FINISHED_SHOWN = 5; // finished games listed before "Show N more"

/** The finished games of a table page (hidden while there are none). Returns {panel,
 * drawLabels(), load()}. */
export function createFinished(st, shell) {
  const finished = el("ol", { class: "finished", "data-testid": "finished-games" });
  // The latest few finished games; the rest behind a button (a long evening makes many).
  let finishedAll = false;
  const moreFinished = el("button", { type: "button", class: "link-button", "data-testid": "more-finished", hidden: true,
    onclick: () => { finishedAll = true; finished.querySelectorAll("li[hidden]").forEach((li) => { li.hidden = false; });
      moreFinished.hidden = true; } });
  const finishedPanel = el("div", { class: "panel", hidden: true }, label(el("h2"), "table.finished"), finished, moreFinished);
  let finishedFor = null;

  /** Labels a language change redraws (the attributes label() does not reach). */
  function drawLabels() {
    finished.setAttribute("aria-label", t("table.finished"));
  }

  /** Fetch and draw the finished games, unless the table has not changed since the last time
   * (its game number and status) and neither has the language. */
  async function loadFinished() {
    const table = st.table;
    const key = `${table.game_no}:${table.status}:${lang()}`;
    if (key === finishedFor) return;
    finishedFor = key;
    let list;
    try {
      list = await shell.api("GET", `/api/tables/${table.id}/games`);
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
          replayLink(shell, st.table.id, g.game_no, t("replay.link")), " · ",
          el("a", { href: g.record_url, download: `racedeck-${st.table.id}-game-${g.game_no}.json`,
            "data-testid": "download-record", text: t("table.download"),
            title: t("table.downloadHint") })));
    }));
    finishedPanel.hidden = list.games.length === 0;
    const folded = finishedAll ? 0 : Math.max(0, list.games.length - FINISHED_SHOWN);
    moreFinished.hidden = folded === 0;
    moreFinished.textContent = tn("table.finished.more", folded);
  }

  return { panel: finishedPanel, drawLabels, load: loadFinished };
}

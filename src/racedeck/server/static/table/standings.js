// The standings over the board once a game is over: who won and why (the game's win rule), the
// ranks with the points, which seats a bot played for a while; "Play again" for a seated person
// (not at a what-if table), the game's replay and the way back to the lobby.
//
// Test hooks (data-testid): "standings", "win-rule", "bot-played", "play-again",
// "replay-link" (links.js).

import { el } from "../dom.js";
import { gameWord } from "../game-words.js";
import { botName, listOf, t, tn } from "../i18n.js";
import { replayLink } from "./links.js";

/** The standings of a table page (hidden while a game goes on). `shell`: the shell's helpers
 * (api, go, showError, clientSeed). Returns {element, draw(), hide()}. */
export function createStandings(st, shell) {
  const standings = el("section", { class: "standings panel", "data-testid": "standings", hidden: true });

  /** The standings of the view's game when it is over, else hidden. */
  function draw() {
    const h = st.view && st.view.header;
    if (!h || !h.terminal || !h.outcome) {
      standings.hidden = true;
      return;
    }
    const table = st.table;
    const clock = st.clock;
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
              title: t("clock.botPlayedTitle", { bot: botName(clock.bot) }) }) : ""),
        el("span", { class: "pts", text: String(o.scores[i]) })))),
      st.mine && !table.fork ? el("button", { type: "button", class: "primary", "data-testid": "play-again", text: t("table.again"),
        onclick: async (ev) => {
          ev.target.disabled = true;
          try {
            await shell.api("POST", `/api/tables/${st.table.id}/again`, { token: st.mine.token, client_seed: shell.clientSeed() });
          } catch (e) {
            shell.showError(e);
            ev.target.disabled = false;
          }
        } }) : "",
      replayLink(shell, table.id, table.game_no, t("replay.this-game")),
      el("a", { href: "/", text: t("table.backToLobby"), onclick: (e) => { e.preventDefault(); shell.go("/"); } }));
    standings.hidden = false;
  }

  /** Hide the standings (a new game is dealt). */
  function hide() {
    standings.hidden = true;
  }

  return { element: standings, draw, hide };
}

// The replay's standings, over the boards at a step where the game is over: who won, the ranks
// with the points.
//
// Test hooks (data-testid): "replay-standings".

import { el } from "../dom.js";
import { listOf, localName, tn } from "../i18n.js";

/** The standings of a replay among seats `names` (hidden until the end). Returns {element,
 * draw(view)}. */
export function createStandings(names) {
  const standings = el("div", { class: "panel replay-standings", "data-testid": "replay-standings", hidden: true });

  /** The standings from `view` (the step's public view) if its game is over, else hidden. */
  function draw(view) {
    const h = view && view.header;
    if (!h || !h.terminal || !h.outcome) {
      standings.hidden = true;
      return;
    }
    const o = h.outcome;
    const who = o.names && o.names.length ? o.names.map(localName) : names;
    const order = who.map((_, i) => i).sort((a, b) => o.ranks[a] - o.ranks[b]);
    const winners = listOf(o.winners.map((i) => who[i]));
    standings.replaceChildren(
      el("h2", { text: tn("replay.win", o.winners.length, { names: winners }) }),
      el("ol", { class: "ranks" }, ...order.map((i) => el("li", { class: o.winners.includes(i) ? "winner" : "" },
        el("span", { class: "rank", text: `${o.ranks[i]}.` }),
        el("span", { class: "name", text: who[i] }),
        el("span", { class: "pts", text: String(o.scores[i]) })))));
    standings.hidden = false;
  }

  return { element: standings, draw };
}

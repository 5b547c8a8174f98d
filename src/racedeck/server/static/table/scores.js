// The table page's scoreboard: a row per seat with whether the person is connected, their
// name ("you" for this page's seat), their clock's slot (drawn by clocks.js) and their score;
// the seats asked to act are marked.
//
// Test hooks (data-testid): "scoreboard", "score" (data-seat), "clock" (data-seat; clocks.js).

import { el } from "../dom.js";
import { label, t } from "../i18n.js";

/** The scoreboard of a table page. Returns {panel, list (the rows' <ol>), drawLabels(), draw()}. */
export function createScores(st) {
  const scoreboard = el("ol", { class: "scoreboard", "data-testid": "scoreboard" });
  const panel = el("div", { class: "panel" }, label(el("h2"), "table.scores"), scoreboard);

  /** Labels a language change redraws (the attributes label() does not reach). */
  function drawLabels() {
    scoreboard.setAttribute("aria-label", t("table.scores"));
  }

  /** The rows from the view's header, else (before the first view) the table's seats. */
  function draw() {
    const h = st.view && st.view.header;
    const scoreNames = h ? h.score_names : st.names();
    const scores = h ? h.scores : [];
    const acting = new Set(h ? h.acting : []);
    scoreboard.replaceChildren(...scoreNames.map((n, i) => {
      const s = st.table.seats[i];
      const online = s ? s.connected : true;
      return el("li", { class: ["score", acting.has(i) ? "acting" : "", i === st.seat ? "me" : ""].join(" "),
        "data-testid": "score", "data-seat": i },
        el("span", { class: `dot ${online ? "on" : "off"}`, title: online ? t("table.connected") : t("table.notConnected") }),
        el("span", { class: "name", text: i === st.seat ? t("table.you", { name: n }) : n }),
        s ? el("span", { class: "clock", "data-testid": "clock", "data-seat": i }) : "",
        el("span", { class: "pts", text: scores[i] !== undefined ? String(scores[i]) : "" }));
    }));
  }

  return { panel, list: scoreboard, drawLabels, draw };
}

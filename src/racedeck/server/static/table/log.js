// The table page's log: the narration of the game, each event in this language from its fields
// (the game's words module, words.js), the server's English text only for an event the module
// does not know. A live region, read out as it grows, and scrollable by keyboard too.
//
// Test hooks (data-testid): "log".

import { el } from "../dom.js";
import { label, t } from "../i18n.js";
import { wordsFor } from "./words.js";

const KEPT = 300; // lines the log keeps

/** The log of a table page. Returns {panel, drawLabels(), narrate(events, reset, again)}. */
export function createLog(st) {
  // Read out as it grows (a live region), and scrollable by keyboard too (it takes the focus).
  const log = el("ol", { class: "log", "data-testid": "log", "aria-live": "polite", tabindex: "0", "aria-labelledby": "log-title" });
  const panel = el("div", { class: "panel" }, label(el("h2", { id: "log-title" }), "table.log"), log);
  let events = []; // every event of the current game this page has seen, to narrate again

  /** Labels a language change redraws (the attributes label() does not reach). */
  function drawLabels() {
    log.setAttribute("aria-label", t("table.log"));
  }

  /**
   * Tell `fresh` events. `reset`: a new game or a new page, the log starts afresh; with
   * `again` (another language) every event of the game so far is told again.
   */
  async function narrate(fresh, reset, again = false) {
    if (reset && !again) events = [];
    events.push(...fresh);
    const words = st.table.game ? await wordsFor(st.table.game) : null;
    // Worded with the view and the table as they are once the words are at hand.
    const view = st.view;
    const ctx = { view, names: view ? view.header.score_names : st.names(), seats: st.names(), config: st.table.config };
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
    while (log.children.length > KEPT) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }

  return { panel, drawLabels, narrate };
}

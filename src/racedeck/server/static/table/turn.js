// Whether it is this page's person's turn, and what follows from it: the tab's title and icon
// (and, if asked for, a sound and a notification: static/alerts.js) with the time left while
// their clock runs, and on a phone the docked hand, what they act on kept on screen.
//
// Test hooks (data-testid): "alerts" (alerts.js), "board" gets the class "my-turn".

import { createAlerts } from "../alerts.js";
import { gameWord } from "../game-words.js";
import { timeLeft } from "./clocks.js";

// On a phone or a touch tablet held upright (style.css docks with the same query), what you
// act on (a renderer's ".dock": your hand, the choice you are asked) stays on screen while
// it is your turn, over the bottom of the page; the page gets room below so that nothing
// stays covered.
const NARROW = "(max-width: 620px), (max-width: 900px) and (pointer: coarse)";

/**
 * The turn alerts of a table page for its `board` element; `standIn()` names the bot playing
 * this page's seat (clocks.js). Returns {alerts (the badge: element, drawLabels), draw(),
 * destroy()}.
 */
export function createTurn(st, board, standIn) {
  const alerts = createAlerts();
  const narrow = window.matchMedia(NARROW);

  /** The tab's title and icon, the time left, the docked hand: from the view and the clock. */
  function drawAlerts() {
    const view = st.view;
    if (!view) return;
    const h = view.header;
    const base = `${gameWord(h.game, "title", h.title)} · racedeck`;
    const seat = st.seat;
    const clock = st.clock;
    const turn = seat !== null && !h.terminal && (view.legal_actions || []).length > 0 && !standIn();
    let left = null;
    const s = clock && seat !== null ? clock.seats[seat] : null;
    if (turn && s && s.running && clock.move !== null) left = timeLeft(s, (performance.now() - st.clockAt) / 1000).left;
    alerts.update({ base, turn, left });
    dockActions(turn);
  }

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

  /** Let go of the alerts and the room the dock took (the page is left). */
  function destroy() {
    alerts.destroy();
    document.body.style.paddingBottom = "";
  }

  return { alerts, draw: drawAlerts, destroy };
}

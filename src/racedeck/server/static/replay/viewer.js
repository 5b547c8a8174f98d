// The replay viewer once the server has stepped the record through: its parts (static/replay/*.js)
// made and wired together. It shows one step at a time (the views fetched as needed, views.js)
// on the game's boards (boards.js), with the controls (controls.js), the steps and their words
// (narration.js), the standings at the end (standings.js) and "What if…?" (whatif.js); where
// the reader is is kept in the history entry (place.js).

import { el } from "../dom.js";
import { localName, t } from "../i18n.js";
import { createBoards } from "./boards.js";
import { createControls } from "./controls.js";
import { createNarration } from "./narration.js";
import { savedPlace, savePlace } from "./place.js";
import { createStandings } from "./standings.js";
import { createViews } from "./views.js";
import { whatIfPanel } from "./whatif.js";

/**
 * The viewer of replay `data` (the server's first answer: the steps, the first views) in
 * `page`, worded by `words` (the game's words module, or null). `env`: the shell's helpers;
 * `src`: where the record came from (replay.js). Returns {destroy()}.
 */
export function createViewer(page, env, src, data, words) {
  const names = data.names.map(localName);
  const total = data.total;
  const last = total - 1;
  const views = createViews(data, src.fetchReplay);

  // Where the reader was before the page was drawn again, else the deal with every hand.
  const place = savedPlace();
  const validSeat = (p) => p === "all" || p === "public" || (/^\d+$/.test(p) && Number(p) < names.length);
  let index = Number.isInteger(place.step) ? Math.max(0, Math.min(total - 1, place.step)) : 0;
  let perspective = typeof place.perspective === "string" && validSeat(place.perspective) ? place.perspective : "all";
  let drawn = -1; // the step the boards show
  let destroyed = false;
  let drawing = Promise.resolve();

  const controls = createControls(last, names, perspective, {
    index: () => index,
    go,
    perspective: (p) => {
      perspective = p;
      savePlace({ perspective });
      draw(false);
    },
  });
  const boards = createBoards(data, names);
  const standings = createStandings(names);
  const narration = createNarration(data, names, words, (step) => go(step));
  const whatif = whatIfPanel(env, src, data, () => index);
  page.append(controls.element, el("div", { class: "replay-body" },
    el("div", { class: "replay-main" }, standings.element, boards.element),
    el("aside", { class: "replay-side" }, narration.now, whatif.panel, narration.list)));
  controls.listen();

  function go(to, stepping = false) {
    const i = Math.max(0, Math.min(last, to));
    if (i === index && boards.mountedFor() !== null) return;
    const animate = stepping && i === index + 1;
    index = i;
    remember();
    draw(animate);
    // The next stretch of views is fetched before it is needed.
    if (i + 5 < total && !views.has(i + 5)) views.at(i + 5).catch(() => {});
  }

  function draw(animate) {
    const i = index;
    drawing = drawing.then(async () => {
      if (destroyed || i !== index) return; // a later step was asked for meanwhile
      let vs;
      try {
        vs = await views.at(i);
      } catch (e) {
        env.toast(t("replay.cannot", { why: e.message }));
        return;
      }
      if (destroyed || i !== index) return;
      const fresh = boards.mountedFor() !== perspective;
      await boards.mount(perspective);
      // A step animates only from the step before it (keys pressed fast skip some draws).
      const initial = fresh || !animate || drawn !== i - 1;
      drawn = i;
      boards.update(vs, i, initial);
      drawChrome(vs);
    });
  }

  // Everything around the boards at the step shown.
  function drawChrome(vs) {
    controls.draw(index);
    narration.draw(index, perspective, vs);
    standings.draw(vs[0]);
    whatif.update(index, last);
  }

  // The step is kept once the stepping pauses (the browser limits how often history changes).
  let keepTimer = null;
  function remember() {
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => { if (!destroyed) savePlace({ step: index }); }, 200);
  }

  draw(false);
  return {
    destroy() {
      // A step not yet kept is kept now: a language switch draws the page again at once,
      // and the new page must open where this one was.
      if (keepTimer !== null) savePlace({ step: index });
      clearTimeout(keepTimer);
      destroyed = true;
      controls.destroy();
      boards.destroy();
    },
  };
}

// The replay's words: the list of steps (each what its actor did, a button to go there; the
// shown one marked) and "this step", the step's events as the perspective shown may see them.
// The events are worded in this language by the game's words module (static/games/<id>/words.js)
// from their fields; the server's English words only for an event the module does not know.
//
// Test hooks (data-testid): "replay-narration", "replay-steps", "replay-step-item" (data-step;
// aria-current on the shown one).

import { el } from "../dom.js";
import { lang, localView, t } from "../i18n.js";

/** Whether an event is seen from `seat` (null: the public view): public, or that seat's own. */
export function visible(e, seat) {
  return e.audience === undefined || (seat !== null && e.audience === seat);
}

/**
 * The steps and "this step" of a replay of `data` among seats `names`, worded by `words` (the
 * game's words module, or null); `go(step)` shows a step. Returns {now (the "this step"
 * panel), list (the steps' panel), draw(index, perspective, views)}.
 */
export function createNarration(data, names, words, go) {
  const narration = el("div", { class: "replay-narration", "data-testid": "replay-narration", "aria-live": "polite" });
  const stepList = el("ol", { class: "replay-steps", "data-testid": "replay-steps", "aria-label": t("replay.steps") });
  const now = el("div", { class: "panel replay-now" }, el("h2", { text: t("replay.this-step") }), narration);
  const list = el("div", { class: "panel replay-list" }, el("h2", { text: t("replay.steps") }), stepList);

  const actor = (s) => (s.seat === null ? "" : names[s.seat] ?? `#${s.seat + 1}`);
  // An event in this language (the words module's; null for one it does not know).
  const word = (e, view) => {
    try {
      return (words && words.describeEvent(e, { view: localView(view), names, seats: names, config: data.config })) ?? null;
    } catch (err) {
      console.warn("cannot word event", e, err);
      return null;
    }
  };
  // … else the server's English words.
  const say = (e, view) => word(e, view) ?? e.text;
  // A step in words: what its actor did, as the event the step made for the actor's eyes (the
  // card placed face down, say), else its first public one. A step with no such event (a pass
  // no one has seen yet) keeps the server's words, which are English: in another language it
  // only says who moved. The first view serves all: what the words need of it does not change.
  const firstView = data.views.items[0] && data.views.items[0][0];
  const stepWords = (s) => {
    if (s.index === 0) return t("replay.deal");
    const own = s.events.find((e) => e.audience === s.seat) || s.events.find((e) => e.audience === undefined);
    const worded = own ? word(own, firstView) : null;
    if (worded) return worded;
    if (s.text && (lang() === "en" || !words)) return t("replay.by", { name: actor(s), text: s.text });
    return t("replay.moved", { name: actor(s) });
  };
  stepList.append(...data.steps.map((s) => el("li", { "data-testid": "replay-step-item", "data-step": s.index },
    el("button", { type: "button", class: "step-link", onclick: () => go(s.index) },
      el("span", { class: "n", text: String(s.index) }), el("span", { text: stepWords(s) })))));

  /** Step `index` seen from `perspective` ("all", "public" or a seat number as text), its
   * events worded with `vs` (the step's views); the step list marks it and scrolls to it. */
  function draw(index, perspective, vs) {
    const s = data.steps[index];
    const seat = perspective === "all" ? "all" : perspective === "public" ? null : Number(perspective);
    const shown = s.events.filter((e) => seat === "all" || visible(e, seat));
    narration.replaceChildren(
      el("p", { class: "replay-action", text: index === 0 ? t("replay.deal") : t("replay.action", { n: index, text: stepWords(s) }) }),
      shown.length
        ? el("ul", { class: "log", tabindex: "0", "aria-label": t("table.log") }, ...shown.map((e) => el("li", { class: e.audience !== undefined ? "private" : "",
          text: e.audience !== undefined && seat === "all" ? t("replay.private", { name: names[e.audience], text: say(e, vs[0]) }) : say(e, vs[0]) })))
        : el("p", { class: "muted", text: t("replay.no-events") }));
    for (const li of stepList.children) {
      if (Number(li.dataset.step) === index) {
        li.setAttribute("aria-current", "step");
        // Scroll the list alone (scrollIntoView would move the whole page under the reader).
        const top = li.offsetTop;
        if (top < stepList.scrollTop || top + li.offsetHeight > stepList.scrollTop + stepList.clientHeight) {
          stepList.scrollTop = top - stepList.clientHeight / 2;
        }
      } else li.removeAttribute("aria-current");
    }
  }

  return { now, list, draw };
}

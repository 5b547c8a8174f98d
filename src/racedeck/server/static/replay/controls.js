// The replay's controls: first, previous, next and last step, the slider, the step counter, and
// whose hands are shown (every seat's, the public view's, or one seat's); and the keys that do
// as the buttons do: ← → step, Home / End jump (not while typing, nor on the slider, which
// steps itself).
//
// Test hooks (data-testid): "replay-first", "replay-prev", "replay-next", "replay-last",
// "replay-slider", "replay-step" (data-step, data-total), "replay-seat" (the perspective:
// "all", "public" or a seat number).

import { el } from "../dom.js";
import { t } from "../i18n.js";

/**
 * The controls of a replay of steps 0 … `last` among seats `names`, showing `perspective`
 * first. `hooks`: {index() (the step shown), go(step, stepping) (`stepping`: one step on, which
 * may animate), perspective(p) (another perspective chosen)}. Returns {element, draw(index),
 * listen(), destroy()} (listen takes the keys, destroy lets them go).
 */
export function createControls(last, names, perspective, hooks) {
  const go = hooks.go;
  const button = (id, label, text, onclick) => el("button", { type: "button", "data-testid": id,
    "aria-label": label, title: label, text, onclick });
  const first = button("replay-first", t("replay.first"), "«", () => go(0));
  const prev = button("replay-prev", t("replay.prev"), "‹", () => go(hooks.index() - 1));
  const next = button("replay-next", t("replay.next"), "›", () => go(hooks.index() + 1, true));
  const lastBtn = button("replay-last", t("replay.last"), "»", () => go(last));
  const slider = el("input", { type: "range", min: 0, max: last, value: 0, step: 1,
    "data-testid": "replay-slider", "aria-label": t("replay.slider") });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const counter = el("span", { class: "replay-counter", "data-testid": "replay-step", "aria-live": "polite" });
  const seatSel = el("select", { "data-testid": "replay-seat", "aria-label": t("replay.seat") },
    el("option", { value: "all", text: t("replay.seat.all") }),
    el("option", { value: "public", text: t("replay.seat.public") }),
    ...names.map((n, i) => el("option", { value: String(i), text: t("replay.seat.one", { name: n }) })));
  seatSel.value = perspective;
  seatSel.addEventListener("change", () => hooks.perspective(seatSel.value));
  const element = el("div", { class: "panel replay-controls" },
    el("div", { class: "replay-buttons" }, first, prev, next, lastBtn),
    slider, counter,
    el("label", { class: "replay-seat" }, el("span", { text: t("replay.seat") }), seatSel));

  /** The counter, the slider and the buttons at step `index`. */
  function draw(index) {
    counter.textContent = t("replay.step", { n: index, total: last });
    counter.dataset.step = index;
    counter.dataset.total = last;
    slider.value = index;
    first.disabled = prev.disabled = index === 0;
    next.disabled = lastBtn.disabled = index === last;
  }

  const onKey = (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    const index = hooks.index();
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to, e.key === "ArrowRight");
  };

  /** Listen to the keys (once the rest of the viewer is ready). */
  function listen() {
    document.addEventListener("keydown", onKey);
  }

  /** Let the keys go (the viewer is left). */
  function destroy() {
    document.removeEventListener("keydown", onKey);
  }

  return { element, draw, listen, destroy };
}

// The replay's boards: the game's own renderer (static/games/<game-id>/board.js) drawing a step as
// the perspective chosen sees it, one board for each seat's hand ("all"), or one for the
// public view or a single seat; a game without a renderer shows its views as JSON. Each board
// is fed the events its seat may see, so a step on from the one before may animate.
//
// Test hooks (data-testid): "replay-boards", "replay-board" (data-seat: a seat or "public").

import { el } from "../dom.js";
import { localView, t } from "../i18n.js";
import { visible } from "./narration.js";
import { boardModule, boardStyle } from "../faces.js";

/** Add the stylesheet `href` to the page, once (`key` names it). */
export function loadStyle(href, key) {
  if (!document.querySelector(`link[data-style="${key}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href, "data-style": key }));
  }
}

/**
 * The boards of a replay of `data` among seats `names`. Returns {element, mountedFor() (the
 * perspective the boards are for; null before the first), mount(perspective),
 * update(views, index, initial), destroy()}.
 */
export function createBoards(data, names) {
  const boards = el("div", { class: "replay-boards", "data-testid": "replay-boards" });
  let renderers = []; // [{seat, renderer, box}]
  let mountedFor = null;

  // The events seat `seat` sees up to step `upTo` (`only`: of that step alone).
  const feedTo = (seat, upTo, only) => {
    const out = [];
    for (let i = only ? upTo : 0; i <= upTo; i += 1) {
      for (const e of data.steps[i].events) if (visible(e, seat)) out.push(e);
    }
    return out;
  };

  /** A board for each seat `perspective` shows, with its renderer (unless they are there). */
  async function mount(perspective) {
    const key = perspective;
    if (mountedFor === key) return;
    for (const r of renderers) r.renderer.destroy();
    renderers = [];
    boards.replaceChildren();
    let mod = null;
    try {
      loadStyle(boardStyle(data.game), `game-${data.game}`);
      mod = await boardModule(data.game);
    } catch (e) {
      console.warn("no renderer for", data.game, e);
    }
    const seats = key === "all" ? names.map((_, i) => i) : key === "public" ? [null] : [Number(key)];
    for (const seat of seats) {
      const root = el("div", { class: "board" });
      const label = seat === null ? t("replay.seat.public") : t("replay.hand-of", { name: names[seat] });
      const box = el("div", { class: "replay-board panel", "data-testid": "replay-board", "data-seat": seat === null ? "public" : seat },
        seats.length > 1 ? el("h2", { class: "replay-board-title", text: label }) : "", root);
      boards.append(box);
      const ctx = { send: () => {}, seat, names, options: data.config, owner: seats.length > 1 ? label : null };
      const renderer = mod ? mod.createRenderer(root, ctx) : jsonRenderer(root);
      renderers.push({ seat, renderer, box });
    }
    boards.classList.toggle("many", seats.length > 1);
    mountedFor = key;
  }

  /** Draw step `index` from its views `vs` ([public view, seat 0's, …]) on every board;
   * `initial`: from nothing (else one step on, which may animate). */
  function update(vs, index, initial) {
    for (const r of renderers) {
      const view = vs[r.seat === null ? 0 : r.seat + 1];
      try {
        r.renderer.update(localView(view), feedTo(r.seat, index, !initial), { initial });
      } catch (e) {
        console.error(e);
      }
    }
  }

  /** Let the renderers go (the viewer is left). */
  function destroy() {
    for (const r of renderers) r.renderer.destroy();
  }

  return { element: boards, mountedFor: () => mountedFor, mount, update, destroy };
}

// A board for a game without a renderer: its view as JSON (a replay stays readable).
function jsonRenderer(root) {
  const pre = el("pre", { class: "replay-json" });
  root.append(pre);
  return { update(view) { pre.textContent = JSON.stringify(view, null, 1); }, destroy() { pre.remove(); } };
}

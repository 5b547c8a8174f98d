// The board of a table page: the game's renderer (static/games/<game-id>/board.js, its stylesheet
// too) mounted in it and given every view, or, for a game without one, a plain list of the
// legal actions. A keyboard player's focus stays on the board when it is drawn again, and the
// renderer draws its turn line again when the stand-in bot comes or goes (clocks.js).
//
// A renderer is createRenderer(root, ctx) -> {update(view, events, {initial}), destroy(), and
// optionally refresh(), sealed(move, answer), refused()} with ctx = {send(action), seat, names,
// options, standIn(), standInLine()} (see app.js).
//
// Test hooks (data-testid): "board", "legal-action" (the plain list; data-action).

import { el } from "../dom.js";
import { t } from "../i18n.js";
import { boardModule, boardStyle } from "../faces.js";

// A keyboard player keeps the focus on the board when it is drawn again (a move came in):
// on the same control if it is still there, else on the first one offered, never lost to
// the top of the page. A control is the same if these data attributes are.
const SAME = ["testid", "action", "card", "value", "figure"];

/**
 * The board of a table page. `hooks`: {act(action) (sends it; true if sent), standIn(),
 * standInLine() (clocks.js), toast}. Returns {element, show(view, events, initial),
 * showAfresh(view), drop(), syncStandIn(), sealed(move, answer), refused(), destroy()}.
 */
export function createBoard(st, hooks) {
  const board = el("div", { class: "board", "data-testid": "board" });
  let renderer = null;
  let rendererFor = null;
  let standInShown = null; // the stand-in the renderer last drew (see hooks.standIn())

  async function mountRenderer(gameId) {
    if (rendererFor === gameId && renderer) return renderer;
    if (renderer) renderer.destroy();
    renderer = null;
    rendererFor = gameId;
    const ctx = {
      send: hooks.act,
      seat: st.seat,
      names: st.names(),
      options: st.table.config,
      standIn: hooks.standIn,
      standInLine: hooks.standInLine,
    };
    board.replaceChildren();
    try {
      if (!document.querySelector(`link[data-game="${gameId}"]`)) {
        document.head.append(el("link", { rel: "stylesheet", href: boardStyle(gameId), "data-game": gameId }));
      }
      const mod = await boardModule(gameId);
      renderer = mod.createRenderer(board, ctx);
    } catch (e) {
      console.warn("renderer unavailable, listing legal actions", e);
      renderer = plainRenderer(board, ctx);
    }
    return renderer;
  }

  function focusedControl() {
    const a = document.activeElement;
    return a && a !== board && board.contains(a) ? Object.fromEntries(SAME.map((k) => [k, a.dataset[k]])) : null;
  }

  function refocus(was) {
    if (!was || board.contains(document.activeElement)) return;
    const usable = [...board.querySelectorAll("button:enabled")].filter((b) => b.checkVisibility());
    const same = usable.find((b) => SAME.every((k) => b.dataset[k] === was[k]));
    const next = same || usable[0];
    if (next) next.focus({ preventScroll: true });
  }

  /** Draw `view` with its new `events` (`initial`: a new game or page, nothing to animate),
   * mounting its game's renderer first; the focus stays on the board (see SAME). */
  async function show(view, events, initial) {
    const r = await mountRenderer(view.header.game);
    standInShown = hooks.standIn();
    const focused = focusedControl();
    try {
      r.update(view, events, { initial });
    } catch (e) {
      console.error(e);
      hooks.toast(t("table.drawFailed"), "error", e.message);
    }
    refocus(focused);
  }

  /** Draw `view` anew after drop() (another language): a new renderer, nothing animated. */
  async function showAfresh(view) {
    const r = await mountRenderer(view.header.game);
    standInShown = hooks.standIn();
    try {
      r.update(view, [], { initial: true });
    } catch (e) {
      console.error(e);
    }
  }

  /** Let the renderer go: the next view mounts a new one (a new game, another language). */
  function drop() {
    if (renderer) renderer.destroy();
    renderer = null;
    rendererFor = null;
  }

  /** The renderer draws its turn line and controls again when the stand-in comes or goes. */
  function syncStandIn() {
    const now = hooks.standIn();
    if (now === standInShown) return;
    st.queue(() => {
      const current = hooks.standIn();
      if (current === standInShown) return;
      standInShown = current;
      if (renderer && st.view && renderer.refresh) renderer.refresh();
    });
  }

  /** This seat's answer to the open window at `move`, sealed until it closes (SB-9); once the
   * frames before it are drawn. */
  function sealed(move, answer) {
    st.queue(() => renderer && renderer.sealed && renderer.sealed(move, answer));
  }

  /** The server refused this page's action: the renderer offers its choices again. */
  function refused() {
    if (renderer && renderer.refused) renderer.refused();
  }

  /** Whether a renderer is mounted (a new game lets it go). */
  function mounted() {
    return renderer !== null;
  }

  return { element: board, show, showAfresh, drop, mounted, syncStandIn, sealed, refused, destroy: drop };
}

// A renderer for games without one: the legal actions as buttons (keeps every game playable).
function plainRenderer(root, ctx) {
  const box = el("div", { class: "plain" });
  let last = null;
  root.append(box);
  return {
    update(view) {
      last = view;
      const bot = ctx.standIn();
      const acts = bot ? [] : view.legal_actions || [];
      box.replaceChildren(
        bot ? el("p", {}, ctx.standInLine()) : el("p", { class: "muted", text: acts.length ? t("plain.choices") : t("plain.nothing") }),
        el("div", { class: "choices" }, ...acts.map((a) => el("button", { type: "button",
          "data-testid": "legal-action", "data-action": JSON.stringify(a),
          text: Object.entries(a).map(([k, v]) => (k === "type" ? v : `${k}: ${JSON.stringify(v)}`)).join(" · "),
          onclick: () => ctx.send(a) }))));
    },
    refresh() { if (last) this.update(last); },
    destroy() { box.remove(); },
  };
}

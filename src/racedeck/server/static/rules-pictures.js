// The pictures of the rules pages (/rules/<game-id>): each <figure data-testid="rules-picture">
// that rules_page.py made from a `![caption](picture:<name>)` line carries a real position as
// JSON (rules_pictures.py: the spectators' view and events, as the server sends them). Here
// each is drawn by the game's own renderer (static/games/<game-id>/board.js) as a spectator's board:
// no seat, so nothing is offered, and `send` does nothing. The board is a picture: not a
// control, not read out (the caption says what it shows), drawn once, without animation.
//
// The renderers word their labels with static/i18n.js, which follows the language the person
// chose for the client; here they follow the page's own language (<html lang>, ?lang=), and
// the person's choice is left as it was.
//
// What a picture leaves out (rules-pictures.css) is taken out of the page once it is drawn.
//
// Test hooks: a figure gets data-drawn="true" once its board is drawn, data-drawn="failed" if
// it cannot be.

import { boardModule, boardStyle } from "./faces.js";

// Read before i18n.js is loaded: it sets <html lang> to the client's language.
const PAGE_LANG = document.documentElement.lang || "en";
const { LANGUAGES, localName, localView, useLang } = await import("./i18n.js");

/** Use the page's language for the renderers' words without changing the person's choice. */
function usePageLanguage() {
  if (PAGE_LANG in LANGUAGES) useLang(PAGE_LANG);
  document.documentElement.lang = PAGE_LANG;
}

const loaded = new Map();

/** The renderer module of `game`, with its style sheet, loaded once for the page. */
function renderer(game) {
  if (!loaded.has(game)) {
    if (!document.querySelector(`link[data-game="${game}"]`)) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = boardStyle(game);
      link.dataset.game = game;
      document.head.append(link);
    }
    loaded.set(game, boardModule(game));
  }
  return loaded.get(game);
}

async function draw(figure) {
  const data = JSON.parse(figure.querySelector("script[type='application/json']").textContent);
  const root = figure.querySelector(".rules-picture-board");
  figure.dataset.game = data.game;
  const mod = await renderer(data.game);
  const names = data.seats.map(localName);
  const ctx = { send: () => false, seat: null, names, options: data.config };
  const board = mod.createRenderer(root, ctx);
  board.update(localView(data.view), data.events, { initial: true });
  leaveOutTheHidden(root);
  figure.dataset.drawn = "true";
}

/** Take out of the page what a picture does not show (rules-pictures.css hides a table page's
 * hands, menus and score tables): the page then holds only what the reader sees. SVG is left
 * whole (its defs and titles are hidden by nature). */
function leaveOutTheHidden(root) {
  for (const node of [...root.querySelectorAll("*")]) {
    if (node instanceof SVGElement || !node.isConnected) continue;
    if (getComputedStyle(node).display === "none") node.remove();
  }
}

async function main() {
  usePageLanguage();
  const figures = [...document.querySelectorAll("[data-testid=rules-picture]")];
  await Promise.all(
    figures.map((figure) =>
      draw(figure).catch((e) => {
        figure.dataset.drawn = "failed";
        console.error("cannot draw the picture", figure.dataset.picture, e);
      }),
    ),
  );
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
else main();

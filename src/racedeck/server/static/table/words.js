// A game's words module (static/games/<game-id>/words.js) for the table page: its events, its
// "waiting for" line in this language. Without one, the server's English text is shown.

import { t } from "../i18n.js";
import { wordsModule } from "../faces.js";

const wordsCache = new Map(); // game id -> the promise of its words module

/** The words module of game `gameId` (a promise; null without one), loaded once a page load. */
export function wordsFor(gameId) {
  if (!wordsCache.has(gameId)) {
    wordsCache.set(gameId, wordsModule(gameId).catch((e) => {
      console.warn("no words for", gameId, e);
      return null;
    }));
  }
  return wordsCache.get(gameId);
}

/** The "waiting for" line of view `view` (its header `h`): the game's words, else the server's. */
export async function waitingText(view, h) {
  if (h.terminal) return t("table.over");
  const words = await wordsFor(h.game);
  const ctx = { view, names: h.score_names, seats: h.seat_names, config: h.config };
  const text = words ? words.describeWaiting(view, ctx) : null;
  return text === null || text === undefined ? h.waiting : text;
}

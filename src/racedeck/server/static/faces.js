// Where a game's browser face lives: one folder per game, static/games/<game-id>/, holding
// board.js (its renderer: createRenderer(root, ctx) -> {update, destroy}), board.css (the
// renderer's style) and words.js (its events and "waiting for" line in words). With its web
// face module (racedeck.server.web.<game>, named in the game's spec), that folder is all a new
// game needs to be played in the browser; every page that draws a game finds it here.

/** The URL of the folder of `gameId`'s browser face. */
export function faceFolder(gameId) {
  return `/static/games/${gameId}`;
}

/** `gameId`'s renderer module (a promise). */
export function boardModule(gameId) {
  return import(`${faceFolder(gameId)}/board.js`);
}

/** The URL of the style sheet of `gameId`'s renderer. */
export function boardStyle(gameId) {
  return `${faceFolder(gameId)}/board.css`;
}

/** `gameId`'s words module (a promise). */
export function wordsModule(gameId) {
  return import(`${faceFolder(gameId)}/words.js`);
}

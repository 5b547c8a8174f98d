// Where the reader of a replay was, kept in the history entry: the shell draws the page again
// when the language changes (and when going back), and the step and the hands shown come back
// from here, and the record file opened, by its number in `opened` (a reload starts afresh with
// the form to open one).

/** The record files opened since the page loaded: number -> {name, text}. */
export const opened = new Map();

/** The place kept in the history entry: {file?, step?, perspective?} ({} when none). */
export function savedPlace() {
  const state = history.state && history.state.replay;
  return state && typeof state === "object" ? state : {};
}

/** Keep `changes` to the place in the history entry (without a new entry). */
export function savePlace(changes) {
  try {
    history.replaceState({ ...(history.state || {}), replay: { ...savedPlace(), ...changes } }, "");
  } catch (e) {
    console.warn("the replay's place is not kept", e); // the browser may refuse a change
  }
}

// The replay viewer: a finished game of a table (/t/<id>/games/<n>) or a record file the person
// opens or drops (/replay), stepped through event by event and drawn by the game's own renderer
// (games/<game-id>/board.js). The game is over, so every seat's view may be shown, or all at once.
// From any step, "What if…?" forks a private game against bots from there (POST /api/forks).
// The record is checked here too: the commitment and the seed's derivation in this browser
// (crypto.subtle), the replay to the stated result by the server (POST /api/verify).
//
// The server computes the steps (docs/protocol.md, "Replays, checks and what if"): the list of
// steps with their events at once, the views twenty steps at a time as the viewer needs them.
// Its words are English: the steps and events are worded here by the game's words module
// (static/games/<game-id>/words.js) from their fields, the seats' default names in this language.
// The shell draws the page again when the language changes; the step and the hands shown are
// kept in the history entry (and which record file was open), so it comes back where it was.
//
// This module is the page: the form to open a record file, the record fetched or read, the
// head (title, where from, the checks); the viewer itself is static/replay/, one module a
// concern: viewer.js wires controls.js, boards.js, narration.js, standings.js, whatif.js and
// views.js; checks.js checks a record, place.js keeps the reader's place, requests.js posts a
// record as it was read.
//
// Test hooks (data-testid): "replay" (the page; data-game), "record-file" (the file input),
// "record-drop", "replay-error", "replay-title", "replay-another", "fork-note", "verify"
// (data-state: checking|pass|fail|none), "verify-row" (data-check: commitment|derivation|replay;
// data-state: pass|fail|unknown), "verify-reason", "verify-problems", "replay-first",
// "replay-prev", "replay-next", "replay-last", "replay-slider", "replay-step" (data-step,
// data-total), "replay-seat" (the perspective: "all", "public" or a seat number),
// "replay-boards", "replay-board" (data-seat: a seat or "public"), "replay-narration",
// "replay-steps", "replay-step-item" (data-step; aria-current on the shown one),
// "replay-standings", "whatif", "whatif-seat", "whatif-bot", "whatif-budget", "fork". Each
// static/replay/ module lists the hooks it draws.

import { el } from "./dom.js";
import { localName, t } from "./i18n.js";
import { loadStyle } from "./replay/boards.js";
import { checkRecord, drawCheck, parseRecord } from "./replay/checks.js";
import { opened, savePlace, savedPlace } from "./replay/place.js";
import { errorText, postRecord } from "./replay/requests.js";
import { CHUNK } from "./replay/views.js";
import { createViewer } from "./replay/viewer.js";
// The viewer's other parts, named here too so that the browser fetches them together with this
// module when the page is first opened, not one level of imports after another.
import "./replay/controls.js";
import "./replay/narration.js";
import "./replay/standings.js";
import "./replay/whatif.js";
import { wordsModule } from "./faces.js";

export { checkRecord, gameSeed, parseRecord } from "./replay/checks.js";

const STYLE = "/static/replay.css";

/**
 * The replay page in `root`. `source` is {tableId, gameNo} for a table's finished game, or null
 * to open a record file. `env` holds the shell's helpers: api, go, toast, rememberSeat, games,
 * savedName. Returns what to do when the person leaves the page.
 */
export function replayPage(root, env, source) {
  loadStyle(STYLE, "replay");
  const page = el("section", { class: "replay-page", "data-testid": "replay" });
  root.append(page);
  let viewer = null;
  let gone = false;
  const leave = () => { gone = true; if (viewer) viewer.destroy(); viewer = null; };
  // A viewer that is ready after the person left is let go at once (its keys are global).
  const keep = (v) => { if (gone) v.destroy(); else viewer = v; };

  if (source) {
    document.title = t("replay.doc-title.plain");
    (async () => {
      const base = `/api/tables/${source.tableId}/games/${source.gameNo}`;
      try {
        const recordRes = await fetch(`${base}/record`);
        const text = await recordRes.text();
        if (!recordRes.ok) throw new Error(errorText(text, recordRes));
        keep(await openViewer(page, env, { text, tableId: source.tableId, gameNo: source.gameNo,
          fetchReplay: (query) => env.api("GET", `${base}/replay?${query}`) }));
      } catch (e) {
        page.replaceChildren(failure(e.message));
      }
    })();
    return leave;
  }

  document.title = t("replay.doc-title.plain");
  const input = el("input", { type: "file", accept: ".json,application/json", id: "record-file",
    class: "visually-hidden", "data-testid": "record-file" });
  const drop = el("div", { class: "panel replay-open", "data-testid": "record-drop" },
    el("h1", { text: t("replay.open.title") }),
    el("p", { class: "muted", text: t("replay.open.help") }),
    el("label", { class: "file-button", for: "record-file", text: t("replay.open.choose") }), input);
  page.append(drop);
  const show = async (name, text) => {
    if (viewer) viewer.destroy();
    page.replaceChildren();
    try {
      keep(await openViewer(page, env, { text, file: name,
        fetchReplay: (query) => postRecord(`/api/replay?${query}`, text) }));
    } catch (e) {
      page.replaceChildren(failure(e.message));
    }
  };
  const open = async (file) => {
    if (!file) return;
    let text;
    try {
      text = await file.text();
      parseRecord(text);
    } catch (e) {
      env.toast(t("replay.open.bad", { name: file.name, why: e.message }));
      return;
    }
    const number = opened.size + 1;
    opened.set(number, { name: file.name, text });
    savePlace({ file: number, step: 0, perspective: "all" });
    await show(file.name, text);
  };
  // The file this page had open before it was drawn again (in another language, say).
  const before = opened.get(savedPlace().file);
  if (before) show(before.name, before.text);
  input.addEventListener("change", () => open(input.files[0]));
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    open(e.dataTransfer.files[0]);
  });
  return leave;
}

function failure(message) {
  return el("div", { class: "panel" }, el("h1", { text: t("replay.unavailable") }),
    el("p", { "data-testid": "replay-error", text: message }),
    el("a", { href: "/", text: t("replay.back") }));
}

// The game's words module (null without one: the server's English words are shown then).
function wordsFor(gameId) {
  return wordsModule(gameId).catch((e) => {
    console.warn("no words for", gameId, e);
    return null;
  });
}

// The viewer once the record is at hand. `src`: {text, tableId?, gameNo?, file?, fetchReplay}.
async function openViewer(page, env, src) {
  const { record } = parseRecord(src.text);
  const verifyBox = el("div", { class: "verify", "data-testid": "verify", "data-state": "checking" },
    el("p", { class: "muted", text: t("verify.checking") }));
  const head = el("div", { class: "panel replay-head" });
  page.append(head);
  // The check does not wait for the replay: a record that does not replay is still judged.
  const names0 = (Array.isArray(record.meta && record.meta.names) ? record.meta.names : []).map(localName);
  const checking = checkRecord(src.text, names0)
    .then((c) => drawCheck(verifyBox, c))
    .catch((e) => drawCheck(verifyBox, { state: "fail", rows: [{ check: "replay", state: "fail", reason: e.message }], problems: [] }));

  const where = src.tableId
    ? t("replay.from-table", { table: src.tableId, n: src.gameNo })
    : t("replay.from-file", { name: src.file });
  const title = el("h1", { "data-testid": "replay-title", text: t("replay.title", { game: record.game }) });
  const another = src.file ? el("a", { href: "/replay", "data-testid": "replay-another", text: t("replay.open.another"),
    onclick: (e) => { e.preventDefault(); env.go("/replay"); } }) : "";
  head.append(title, el("p", { class: "muted" }, where, another ? " · " : "", another), verifyBox);
  env.games().then((list) => {
    const g = list.find((x) => x.id === record.game);
    if (g) title.textContent = t("replay.title", { game: g.title });
  }).catch(() => {});

  let data;
  try {
    data = await src.fetchReplay(`count=${CHUNK}`);
  } catch (e) {
    // A record that does not replay: the check above already says why.
    const why = e.code === "record/invalid" ? t("replay.does-not-replay") : t("replay.cannot", { why: e.message });
    head.append(el("p", { class: "replay-error", "data-testid": "replay-error", text: why }));
    await checking;
    return { destroy() {} };
  }
  page.dataset.game = data.game;
  document.title = t("replay.doc-title", { game: data.title });
  title.textContent = t("replay.title", { game: data.title });
  if (data.fork) {
    const f = data.fork;
    head.insertBefore(el("p", { class: "fork-note", "data-testid": "fork-note",
      text: t("replay.fork-note", { step: f.step, n: f.game_no ?? "?", table: f.table ?? "?" }) }), verifyBox);
  }
  return createViewer(page, env, src, data, await wordsFor(data.game));
}

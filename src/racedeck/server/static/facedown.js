// Face-down commitments (docs/protocol.md, "Face-down cards are committed too"). The hashes the
// server publishes as cards are placed face down are gathered here while the game is played;
// when it is over the record is fetched and checked in the browser: every hash seen during the
// game must be the record's, and each must open, with its salt, to the card the record holds.

import { el } from "./dom.js";
import { t, tn } from "./i18n.js";

// Canonical JSON as the server hashes it: keys sorted, no spaces, non-ASCII as \uXXXX.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${canonical(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// The first problem with the record's face-down commitments, as {move} (null: none), or
// undefined when this browser cannot hash (no crypto.subtle away from https and localhost).
async function firstMismatch(record, seen, sha256Hex) {
  const fair = record.meta && record.meta.fair;
  const entries = (fair && fair.commitments) || [];
  const byMove = new Map(entries.map((e) => [e.move, e]));
  for (const move of seen.keys()) {
    if (!byMove.has(move) || byMove.get(move).hash !== seen.get(move)) return { move };
  }
  for (const e of entries) {
    const action = record.actions[e.move];
    if (!action || action.seat !== e.seat) return { move: e.move };
    const text = canonical({ action: action.action, game: fair.commitment, move: e.move, salt: e.salt, seat: e.seat });
    const hash = await sha256Hex(text);
    if (hash === null) return undefined;
    if (hash !== e.hash) return { move: e.move };
  }
  return null;
}

/**
 * The face-down line of a table page: `element` to place, `table(info)` for every table
 * description (welcome and table frames, and the page's redraw in another language: the line
 * is worded again from what it last found), `update(frame)` for every update frame.
 */
export function createFaceDown(sha256Hex, onVerdict = () => {}) {
  const line = el("div", { class: "fair muted", "data-testid": "face-down", hidden: true });
  let gameNo = null;
  let seen = new Map(); // move -> hash, as published during the game
  let checkedFor = null;
  let verdict = null; // what the check found: {found, count}, kept to word it again

  function reset(no) {
    if (no === gameNo) return;
    if (verdict) onVerdict(null); // a new game: nothing found yet
    gameNo = no;
    seen = new Map();
    checkedFor = null;
    verdict = null;
  }

  function note(c) {
    if (c) seen.set(c.move, c.hash);
  }

  function drawCount() {
    if (checkedFor !== null) return;
    line.hidden = seen.size === 0;
    line.replaceChildren(tn("fair.faceDown.committed", seen.size));
  }

  function drawVerdict() {
    const { found, count } = verdict;
    if (found === undefined) {
      line.replaceChildren(tn("fair.faceDown.cannotCheck", count));
    } else if (found === null) {
      line.replaceChildren(el("span", { class: "verified", "data-testid": "face-down-verified",
        text: tn("fair.faceDown.checked", count) }));
    } else {
      line.replaceChildren(el("span", { class: "tampered", "data-testid": "face-down-mismatch",
        text: t("fair.faceDown.mismatch", { move: found.move }) }));
    }
    onVerdict(found === undefined ? null : found === null);
  }

  async function check(table) {
    const key = `${table.id}:${table.game_no}`;
    if (checkedFor === key) {
      if (verdict) drawVerdict(); // the same game again: only its words may have changed
      else if (!line.hidden) line.replaceChildren(t("fair.faceDown.checking"));
      return;
    }
    checkedFor = key;
    let record;
    try {
      const res = await fetch(`/api/tables/${table.id}/record`);
      if (!res.ok) throw new Error(String(res.status));
      record = await res.json();
    } catch {
      checkedFor = null; // try again with the next table frame
      return;
    }
    const entries = (record.meta && record.meta.fair && record.meta.fair.commitments) || [];
    if (entries.length === 0 && seen.size === 0) return;
    line.hidden = false;
    line.replaceChildren(t("fair.faceDown.checking"));
    const found = await firstMismatch(record, seen, sha256Hex);
    if (checkedFor !== key) return;
    verdict = { found, count: entries.length };
    drawVerdict();
  }

  return {
    element: line,
    table(table) {
      reset(table.game_no);
      for (const c of (table.fair && table.fair.commitments) || []) note(c);
      if (table.fair && table.fair.server_seed && table.status === "over") check(table);
      else drawCount();
    },
    update(frame) {
      reset(frame.game_no);
      note(frame.commitment);
      for (const c of frame.opened || []) note(c);
      drawCount();
    },
  };
}

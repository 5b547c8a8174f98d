// The checks of a game's record: the revealed server seed against the commitment published
// before the deal, the game's seed against its derivation from the server seed and the client
// seeds (both in this browser, crypto.subtle), and the actions replayed to the stated result
// (by the server, POST /api/verify); and how they are shown.
//
// Test hooks (data-testid): "verify-row" (data-check: commitment|derivation|replay;
// data-state: pass|fail|unknown), "verify-reason", "verify-problems". The box they are drawn
// in is "verify" (data-state: checking|pass|fail|none; replay.js).

import { el } from "../dom.js";
import { t, tn } from "../i18n.js";

/**
 * Parse a record file's text. JSON numbers are doubles, and a game's seed is a 63-bit integer:
 * the seed is read from its own digits (the reviver's source text) as a BigInt, so a check of
 * its derivation compares every bit. Returns {record, seed} (seed null where unreadable).
 */
export function parseRecord(text) {
  let seed = null;
  const record = JSON.parse(text, function revive(key, value, context) {
    if (key === "seed" && typeof value === "number" && Object.hasOwn(this, "rules_version")) {
      try {
        seed = BigInt(context && context.source !== undefined ? context.source : value);
      } catch {
        seed = null;
      }
    }
    return value;
  });
  if (!record || typeof record !== "object" || Array.isArray(record) || typeof record.game !== "string") {
    throw new Error(t("replay.not-a-record"));
  }
  return { record, seed };
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  if (!crypto.subtle) return null; // plain http away from localhost
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** The game's seed from the server seed and the client seeds: as core/fairness.py game_seed. */
export async function gameSeed(serverSeed, clientSeeds) {
  const digest = await sha256([serverSeed, ...clientSeeds].map((s) => s + "\n").join(""));
  if (digest === null) return null;
  let n = 0n;
  for (const b of digest.slice(0, 8)) n = (n << 8n) | BigInt(b);
  return n >> 1n;
}

function resultWords(result, names) {
  if (!result || typeof result !== "object") return "—";
  const who = (result.winners || []).map((i) => names[i] ?? `#${i + 1}`).join(", ");
  return t("verify.result", { scores: (result.scores || []).join(" – "), winners: who });
}

/**
 * Check a record (its text): the commitment and the seed here, the replay on the server.
 * Returns {state: "pass"|"fail"|"none", note, rows: [{check, state, reason}], problems}.
 */
export async function checkRecord(text, names) {
  const { record, seed } = parseRecord(text);
  const meta = record.meta && typeof record.meta === "object" ? record.meta : {};
  const fair = meta.fair;
  if (!fair || typeof fair !== "object") {
    const note = meta.fork ? t("verify.fork") : t("verify.unfair");
    return { state: "none", note, rows: [], problems: [] };
  }
  const rows = [];
  const serverSeed = typeof fair.server_seed === "string" ? fair.server_seed : null;
  const clientSeeds = Array.isArray(fair.client_seeds) && fair.client_seeds.every((s) => typeof s === "string")
    ? fair.client_seeds : null;

  // 1. The revealed server seed hashes to the commitment published before the deal.
  if (!serverSeed || typeof fair.commitment !== "string") {
    rows.push({ check: "commitment", state: "fail", reason: t("verify.commitment.missing") });
  } else {
    const digest = await sha256(serverSeed);
    if (digest === null) rows.push({ check: "commitment", state: "unknown", reason: t("verify.no-crypto") });
    else if (hex(digest) === fair.commitment) rows.push({ check: "commitment", state: "pass", reason: "" });
    else {
      rows.push({ check: "commitment", state: "fail",
        reason: t("verify.commitment.fail", { hash: hex(digest), commitment: fair.commitment }) });
    }
  }

  // 2. The record's seed is the one derived from the server seed and the client seeds.
  if (!serverSeed || !clientSeeds || seed === null) {
    rows.push({ check: "derivation", state: "fail", reason: t("verify.derivation.missing") });
  } else {
    const derived = await gameSeed(serverSeed, clientSeeds);
    if (derived === null) rows.push({ check: "derivation", state: "unknown", reason: t("verify.no-crypto") });
    else if (derived === seed) rows.push({ check: "derivation", state: "pass", reason: "" });
    else {
      rows.push({ check: "derivation", state: "fail",
        reason: t("verify.derivation.fail", { seed: String(seed), derived: String(derived) }) });
    }
  }

  // 3. The actions replay to the result the record states (the server replays them).
  const res = await fetch("/api/verify", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const server = await res.json().catch(() => ({}));
  let problems = [];
  if (!res.ok) {
    const why = (server.error && server.error.message) || res.statusText;
    rows.push({ check: "replay", state: "fail", reason: t("verify.replay.broken", { detail: why }) });
  } else {
    problems = server.problems || [];
    if (!server.replays) {
      rows.push({ check: "replay", state: "fail", reason: t("verify.replay.broken", { detail: server.replay_error }) });
    } else if (!server.result_matches) {
      rows.push({ check: "replay", state: "fail", reason: t("verify.replay.differs",
        { stated: resultWords(server.stated, names), result: resultWords(server.result, names) }) });
    } else {
      rows.push({ check: "replay", state: "pass", reason: "" });
    }
  }
  const failed = rows.some((r) => r.state === "fail") || problems.length > 0;
  return { state: failed ? "fail" : "pass", note: "", rows, problems };
}

// The three checks in words (each key written out, so a search for a message finds its use).
const CHECKS = {
  commitment: () => t("verify.commitment"),
  derivation: () => t("verify.derivation"),
  replay: () => t("verify.replay"),
};

/** Draw what checkRecord() found (`check`) in `box`, the "verify" box. */
export function drawCheck(box, check) {
  box.dataset.state = check.state;
  if (check.state === "none") {
    box.replaceChildren(el("p", { class: "verify-note", text: check.note }));
    return;
  }
  const verdict = check.state === "pass" ? t("verify.pass") : t("verify.fail");
  box.replaceChildren(
    el("p", { class: "verify-verdict", text: verdict }),
    el("ul", { class: "verify-rows" }, ...check.rows.map((r) => el("li",
      { class: `verify-row ${r.state}`, "data-testid": "verify-row", "data-check": r.check, "data-state": r.state },
      el("span", { class: "mark", "aria-hidden": "true", text: r.state === "pass" ? "✓" : r.state === "fail" ? "✗" : "?" }),
      el("span", { class: "what", text: CHECKS[r.check]() }),
      r.reason ? el("div", { class: "reason", "data-testid": "verify-reason", text: r.reason }) : ""))),
    check.problems.length
      ? el("details", { class: "verify-problems", "data-testid": "verify-problems" },
        el("summary", { text: tn("verify.server", check.problems.length) }),
        el("ul", {}, ...check.problems.map((p) => el("li", { text: p }))))
      : "");
}

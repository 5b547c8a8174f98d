// The fairness badge of the table header and the details it opens: the commitment to the
// server seed shown before the deal, checked here in the browser against the seed revealed at
// the end; the face-down cards' commitments (static/facedown.js); for a what-if table, where it
// was forked from instead. The badge opens by itself once the end is checked.
//
// Test hooks (data-testid): "fair-badge", "fairness", "commitment", "fair-verified",
// "fair-mismatch", "record-link", "fork-origin", "face-down" (facedown.js).

import { el } from "../dom.js";
import { createFaceDown } from "../facedown.js";
import { lang, t } from "../i18n.js";
import { replayLink } from "./links.js";

/** SHA-256 of a text as hex, or null where the browser offers no crypto.subtle (plain http
 * away from localhost). */
export async function sha256Hex(text) {
  if (!crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The fairness badge of a table page. Returns {element (the badge with its details), draw()
 * for every table description and language, update(frame) for every update frame}.
 */
export function createFairness(st, shell) {
  const fairLine = el("div", { class: "fair muted", "data-testid": "fairness" });
  let fairShown = null;
  // What the end's checks found: the server seed against its commitment, the face-down cards
  // against theirs (null: not checked, or not here).
  let seedOk = null;
  let faceDownOk = null;
  const faceDown = createFaceDown(sha256Hex, (ok) => { faceDownOk = ok; drawBadge(); });
  // Fairness as a small badge that opens its details (the commitment, the face-down cards, the
  // check at the end); it opens by itself when the end is checked.
  const fairSummary = el("summary", { class: "badge fair-badge", "data-testid": "fair-badge" });
  const fairBox = el("details", { class: "fair-box" }, fairSummary,
    el("div", { class: "fair-details panel" }, fairLine, faceDown.element));
  let fairOpenedFor = null;

  // The commitment to the server seed, shown before the deal; at the end, the revealed seed is
  // checked against it here, in the browser.
  function drawFairness() {
    const table = st.table;
    const f = table.fair;
    const key = f ? `${table.game_no}:${f.commitment}:${f.server_seed}:${lang()}` : table.fork ? lang() : null;
    if (key === fairShown) return;
    fairShown = key;
    fairBox.hidden = !f && !table.fork;
    seedOk = null;
    drawBadge();
    if (!f && table.fork) {
      // A what-if game: dealt from a known seed, so no fair deal to check.
      const o = table.fork;
      fairLine.replaceChildren(el("span", { "data-testid": "fork-origin",
        text: t("table.fork", { step: o.step, n: o.game_no ?? "?" }) + " " }),
      o.source === "table" && o.table ? replayLink(shell, o.table, o.game_no, t("table.fork.source")) : "");
      return;
    }
    if (!f) { fairLine.replaceChildren(); return; }
    const short = el("code", { title: f.commitment, "data-testid": "commitment", text: f.commitment.slice(0, 12) });
    if (!f.server_seed) {
      fairLine.replaceChildren(t("fair.committed") + " ", short, "…");
      return;
    }
    const record = el("a", { href: `/api/tables/${table.id}/record`, download: `racedeck-${table.id}-${table.game_no}.json`,
      "data-testid": "record-link", text: t("fair.record") });
    fairLine.replaceChildren(t("fair.checking"));
    sha256Hex(f.server_seed).then((hash) => {
      if (fairShown !== key) return;
      const verdict = hash === null ? el("span", { text: t("fair.cannotCheck") })
        : hash === f.commitment
          ? el("span", { class: "verified", "data-testid": "fair-verified", text: t("fair.verified") + " " })
          : el("span", { class: "tampered", "data-testid": "fair-mismatch", text: t("fair.mismatch") + " " });
      seedOk = hash === null ? null : hash === f.commitment;
      drawBadge();
      // The end is checked: show how, once per game (a person may fold it away again).
      if (fairOpenedFor !== st.table.game_no) {
        fairOpenedFor = st.table.game_no;
        fairBox.open = true;
      }
      fairLine.replaceChildren(t("fair.label") + " · ", verdict, short, "… · ", record,
        " " + t("fair.verifyHint"));
    });
  }

  // The badge's words: a fair deal, checked at the end (✓), or found not to be (✗).
  function drawBadge() {
    const checked = seedOk !== null || faceDownOk !== null;
    const bad = seedOk === false || faceDownOk === false;
    fairSummary.textContent = !st.table.fair ? t("fair.badge.fork")
      : bad ? t("fair.badge.mismatch") : checked ? t("fair.badge.verified") : t("fair.label");
    fairSummary.classList.toggle("tampered", bad);
    fairSummary.classList.toggle("verified", checked && !bad);
  }

  /** The fairness details and badge from the table as last sent (and the face-down line). */
  function draw() {
    drawFairness();
    faceDown.table(st.table);
  }

  /** An update frame: the face-down commitments it publishes. */
  function update(frame) {
    faceDown.update(frame);
  }

  return { element: fairBox, draw, update };
}

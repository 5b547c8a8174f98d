// Why First? in the browser: the track, the figures, your hand, the secret choice and the
// "3 – 2 – 1 – NOW!" reveal, stage scoring, Leo in the 2-player game and the tactical variant.
//
// Renderer interface (see docs/protocol.md): createRenderer(root, ctx) -> {update, destroy}.
// The view is the engine's JSON view (docs/json.md, "Why First? view") with its "header"; the
// renderer offers only the seat's `legal_actions` and re-derives no rule: where a card goes and
// what it did come from the events (`cards_revealed`, `figure_moved`, `stage_scored`). In the
// base game only card values are shown (white numbers mean nothing there); white numbers are
// shown in the tactical variant, where they set the order of moves (WF-10).
//
// Test hooks (data-testid), so a test can play a whole game by clicking legal choices:
//   data-testid="wf-board"       the whole board; data-phase, data-variant, data-stage, data-round,
//                                data-animating ("true" while a reveal, moves or scoring play),
//                                data-scoring ("true" while the stage scoring is lit on the track)
//   data-testid="prompt"         what you are asked to do now (or whom the table waits for); while
//                                the stand-in bot plays your seat, the shell's "stand-in" line
//   data-testid="track"          the SVG track; data-testid="space" cells carry data-space
//   data-testid="pawn"           a figure on the track; data-figure, data-space
//   data-testid="figure-row"     one figure at the table; data-figure, data-committed
//   data-testid="revealed-card"  a revealed card in front of a figure; data-value, data-by, data-target
//   data-testid="card"           a card in your hand; data-value (and data-card in the tactical
//                                variant); an enabled <button> exactly when it may be played now
//   data-testid="target"         a figure you may choose now; data-figure, data-action='<json>'
//   data-testid="action"         a button that sends data-action='<json>' (tactical: play the card)
//   data-testid="countdown"      the "3 – 2 – 1 – NOW!" overlay of a reveal
//   data-testid="order"          tactical: the revealed cards in white-number order
//   data-testid="stage-result"   the latest stage scoring; data-space, data-scorers
//   data-testid="history"        points by stage and totals

import { el, partName, svg } from "../../dom.js";
import { listOf, t, tn } from "../../i18n.js";

const COLOURS = ["#d62828", "#1f5fd1", "#168a3a", "#d99a00", "#7b2cbf", "#e8590c"];
const LEO_COLOUR = "#5b616b";

// Animation lengths in milliseconds; short, so that a table never waits long for the board.
const TIMING = { count: 200, land: 350, move: 450, score: 1500, note: 600 };
const REDUCED = { count: 0, land: 100, move: 150, score: 1000, note: 400 };

// Track geometry in SVG user units. On a phone the track folds into two rows, and figures and
// numbers are drawn larger for the same cell so that they stay readable once scaled down.
const CELL_W = 40;
const WIDE = { numH: 30, pawnR: 15, step: 25, numFont: 17, pawnFont: 15 };
const NARROW = { numH: 34, pawnR: 19, step: 29, numFont: 23, pawnFont: 21 };

/** A card value as printed: +3, −2 (a real minus sign). */
export function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `\u2212${-value}` : "0";
}

/** A space number as printed on the board: 7, −3. */
function space(value) {
  return value < 0 ? `\u2212${-value}` : String(value);
}

/** Points as a person writes them: 1 pt, −3 pts. */
function points(n) {
  return tn("wf.points", Math.abs(n) === 1 ? 1 : 2, { pts: space(n) });
}

const listWords = listOf;

/** The cards of a `cards_revealed` event, or of the view's `last_reveal` when no event is at
 * hand (after a reload without a feed): [{by, value, target, card?}]. */
function revealFromView(view) {
  const rows = view.last_reveal || [];
  const values = view.card_values || [];
  const out = [];
  for (const row of rows) {
    if (!Array.isArray(row)) {
      if (row && typeof row.value === "number") out.push({ ...row });
      continue;
    }
    if (row.length >= 4) {
      // [by, card (null in the base game), value, target]
      const [by, card, value, target] = row;
      out.push(card === null || card === undefined ? { by, value, target } : { by, card, value, target });
      continue;
    }
    const [by, card, target] = row;
    const value = values[card - 1];
    if (typeof value !== "number") return null;
    out.push({ by, card, value, target });
  }
  return out.length ? out : null;
}

export function createRenderer(root, ctx) {
  const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const timing = () => (motionQuery && motionQuery.matches ? REDUCED : TIMING);

  let view = null;
  let destroyed = false;
  let updates = 0;
  // What the player has picked but not sent: a card value (base) or a card number (tactical).
  let picked = null;
  let pickedIndex = -1;
  // The update count at which an action was sent; choices stay disabled until the next view.
  let sentAt = -1;
  let sentTimer = null;
  let chosen = null; // your commit this round, from what you sent or the `card_chosen` event
  let choiceKey = "";
  let narrow = null;

  // What the board shows; it lags the view while a reveal plays.
  const disp = {
    positions: null,
    totals: null,
    reveal: null, // {stage, round, cards: [{by, value, target, card?}]}
    fresh: false, // the reveal has just landed: animate the cards in
    moves: [], // figure_moved data since the reveal
    scoring: null, // stage_scored data while it is shown on the board
    result: null, // the latest stage_scored data, for the result panel
  };

  // ---- skeleton ------------------------------------------------------------------------------

  const board = el("section", { class: "wf", "data-testid": "wf-board", "data-animating": "false", "aria-label": partName(ctx, t("wf.board")) });
  const where = el("p", { class: "wf-where" });
  const prompt = el("p", { class: "wf-prompt", "data-testid": "prompt", "aria-live": "polite" });
  const trackSvg = svg("svg", { class: "wf-track", "data-testid": "track", role: "img" });
  const cellsLayer = svg("g", { class: "wf-cells" });
  const marksLayer = svg("g", { class: "wf-marks" });
  const pawnsLayer = svg("g", { class: "wf-pawns" });
  trackSvg.append(cellsLayer, marksLayer, pawnsLayer);
  const countdown = el("div", { class: "wf-countdown", "data-testid": "countdown", hidden: true, "aria-live": "assertive" });
  const trackWrap = el("div", { class: "wf-trackwrap" }, trackSvg, countdown);
  const result = el("div", { class: "wf-result", "data-testid": "stage-result", hidden: true });
  const tableCaption = el("p", { class: "wf-caption" });
  const table = el("ul", { class: "wf-table", "data-testid": "figures" });
  // "dock": on a phone the shell keeps the choice on screen while it is your turn (style.css).
  const choice = el("div", { class: "wf-choice dock", "data-testid": "choice" });
  const history = el("details", { class: "wf-history", "data-testid": "history" });
  const rules = el("details", { class: "wf-rules" });
  board.append(
    el("div", { class: "wf-head" }, where, prompt),
    trackWrap,
    result,
    el("div", { class: "wf-tablewrap" }, tableCaption, table),
    choice,
    el("div", { class: "wf-foot" }, history, rules),
  );
  root.append(board);

  const pawns = new Map(); // figure -> <g>

  // ---- names and figures ---------------------------------------------------------------------

  function header() {
    return (view && view.header) || {};
  }

  function players() {
    return view ? view.players : 0;
  }

  function figureCount() {
    return view ? view.positions.length : 0;
  }

  function hasLeo() {
    return figureCount() > players();
  }

  function rawName(i) {
    const h = header();
    if (i >= players()) return (h.score_names && h.score_names[i]) || "Leo";
    return (h.seat_names && h.seat_names[i]) || (ctx.names && ctx.names[i]) || `P${i + 1}`;
  }

  /** A figure's name; seats that share a name (two "heuristic bot"s) get their seat number. */
  function nameOf(i) {
    const name = rawName(i);
    for (let j = 0; j < figureCount(); j++) {
      if (j !== i && rawName(j) === name) return `${name} ${i + 1}`;
    }
    return name;
  }

  function colourOf(i) {
    return i >= players() ? LEO_COLOUR : COLOURS[i % COLOURS.length];
  }

  function labels() {
    const names = [];
    for (let i = 0; i < figureCount(); i++) names.push(nameOf(i));
    const initials = names.map((n) => (Array.from(n.trim())[0] || "?").toUpperCase());
    const unique = new Set(initials).size === initials.length;
    return names.map((_, i) => (unique ? initials[i] : i >= players() ? "L" : String(i + 1)));
  }

  function mySeat() {
    if (view && typeof view.seat === "number") return view.seat;
    return typeof ctx.seat === "number" ? ctx.seat : null;
  }

  function isYou(i) {
    return i === mySeat();
  }

  function chip(i, extra = "") {
    return el("span", {
      class: `wf-chip ${extra}`,
      style: `--c:${colourOf(i)}`,
      "aria-hidden": "true",
      text: labels()[i],
    });
  }

  function acting() {
    const h = header();
    if (Array.isArray(h.acting)) return h.acting;
    if (view && Array.isArray(view.pending)) return view.pending;
    return [];
  }

  function tactical() {
    return view && view.variant === "tactical";
  }

  function track() {
    return view && Array.isArray(view.track) ? view.track : [-12, 16];
  }

  function stages() {
    return view.stages || (header().config && header().config.stages) || 5;
  }

  function handSize() {
    return view.hand_size || (header().config && header().config.hand_size) || 5;
  }

  function over() {
    return Boolean(header().terminal) || view.phase === "over";
  }

  // ---- the track -----------------------------------------------------------------------------

  let layoutKey = "";
  let geometry = null;

  function layout() {
    const [lo, hi] = track();
    const n = hi - lo + 1;
    const cols = narrow ? Math.ceil(n / 2) : n;
    const rows = Math.ceil(n / cols);
    const m = narrow ? NARROW : WIDE;
    const stack = Math.max(figureCount(), 3);
    const pawnH = 8 + 2 * m.pawnR + (stack - 1) * m.step;
    const rowH = pawnH + m.numH;
    const gap = 16;
    const pad = 8;
    const width = cols * CELL_W + 2 * pad;
    const height = rows * rowH + (rows - 1) * gap + 2 * 4 + 12;
    const cell = (s) => {
      const k = s - lo;
      const r = Math.floor(k / cols);
      const c = k % cols;
      return { x: pad + c * CELL_W, y: 4 + r * (rowH + gap), pawnH };
    };
    return { lo, hi, cols, rows, pawnH, rowH, width, height, cell, m };
  }

  function drawCells() {
    const [lo, hi] = track();
    const key = `${lo}:${hi}:${narrow}:${figureCount()}`;
    if (key === layoutKey) return;
    layoutKey = key;
    geometry = layout();
    const g = geometry;
    const { numH, numFont } = g.m;
    trackSvg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
    trackSvg.setAttribute("aria-label", t("wf.trackLabel", { lo: space(lo), hi: space(hi) }));
    cellsLayer.replaceChildren();
    for (let s = lo; s <= hi; s++) {
      const { x, y, pawnH } = g.cell(s);
      const kind = s === 0 ? "start" : s < 0 ? "neg" : "pos";
      const cellG = svg("g", { class: `wf-cell wf-cell--${kind}`, "data-testid": "space", "data-space": s });
      cellG.append(
        svg("rect", { class: "wf-lane", x: x + 1, y, width: CELL_W - 2, height: pawnH, rx: 6 }),
        svg("rect", { class: "wf-num", x: x + 1, y: y + pawnH, width: CELL_W - 2, height: numH - 2, rx: 5 }),
        svg("text", {
          class: "wf-numtext",
          x: x + CELL_W / 2,
          y: y + pawnH + numH / 2,
          "dominant-baseline": "central",
          "text-anchor": "middle",
          "font-size": s <= -10 ? numFont - (narrow ? 6 : 3) : numFont,
          text: space(s),
        }),
      );
      if (s === 0) {
        cellG.append(
          svg("text", { class: "wf-starttext", x: x + CELL_W / 2, y: y + pawnH + numH + 9, "text-anchor": "middle", text: t("wf.start") }),
        );
      }
      if (s === lo || s === hi) {
        // The ends of the track: a figure stops there (WF-1, WF-4).
        const bx = s === lo ? x - 5 : x + CELL_W + 1;
        cellG.append(svg("rect", { class: "wf-end", x: bx, y, width: 4, height: pawnH + numH - 2, rx: 2 }));
      }
      cellsLayer.append(cellG);
    }
    for (const p of pawns.values()) p.remove();
    pawns.clear();
  }

  function pawnFor(i) {
    let g = pawns.get(i);
    if (g) return g;
    const you = isYou(i);
    g = svg(
      "g",
      { class: `wf-pawn${you ? " wf-pawn--you" : ""}${i >= players() ? " wf-pawn--leo" : ""}`, "data-testid": "pawn", "data-figure": i },
      svg("circle", { class: "wf-pawn-ring", r: geometry.m.pawnR + 3 }),
      svg("circle", { class: "wf-pawn-body", r: geometry.m.pawnR, fill: colourOf(i) }),
      svg("text", {
        class: "wf-pawn-label",
        "dominant-baseline": "central",
        "text-anchor": "middle",
        "font-size": geometry.m.pawnFont,
        text: labels()[i],
      }),
      svg("title", { text: you ? t("wf.you", { name: nameOf(i) }) : nameOf(i) }),
    );
    pawns.set(i, g);
    pawnsLayer.append(g);
    return g;
  }

  function drawBoard() {
    if (!view) return;
    drawCells();
    const g = geometry;
    const positions = disp.positions || view.positions;
    const [lo, hi] = track();
    // Stack the figures of one space upward from its number, in figure order.
    const slot = new Map();
    for (let i = 0; i < positions.length; i++) {
      const p = Math.max(lo, Math.min(hi, positions[i]));
      const k = slot.get(p) || 0;
      slot.set(p, k + 1);
      const { x, y, pawnH } = g.cell(p);
      const cx = x + CELL_W / 2;
      const cy = y + pawnH - 4 - g.m.pawnR - k * g.m.step;
      const pawn = pawnFor(i);
      pawn.style.transform = `translate(${cx}px, ${cy}px)`;
      pawn.dataset.space = String(positions[i]);
      const scorer = disp.scoring && disp.scoring.scorers.includes(i);
      pawn.classList.toggle("wf-pawn--scorer", Boolean(scorer));
      pawn.classList.toggle("wf-pawn--acting", !over() && acting().includes(i) && view.phase === "move");
    }
    for (const cellG of cellsLayer.querySelectorAll(".wf-cell")) {
      const s = Number(cellG.dataset.space);
      cellG.classList.toggle("wf-cell--scoring", Boolean(disp.scoring && disp.scoring.space === s));
    }
    board.dataset.scoring = disp.scoring ? "true" : "false";
    marksLayer.replaceChildren();
    if (disp.scoring && disp.scoring.space !== null && disp.scoring.space !== undefined) {
      const { x, y } = g.cell(disp.scoring.space);
      marksLayer.append(
        svg("text", { class: "wf-scoremark", x: x + CELL_W / 2, y: y + 16, "text-anchor": "middle", text: signed(disp.scoring.space) }),
      );
    }
    // STOP where a figure of this round stopped at a track end (WF-4) and still stands.
    const stops = new Set(disp.moves.filter((m) => m.clamped && positions[m.figure] === m.to).map((m) => m.to));
    for (const to of stops) {
      const { x, y, pawnH } = g.cell(to);
      marksLayer.append(
        svg("text", { class: "wf-clampmark", x: x + CELL_W / 2, y: y + pawnH + g.m.numH + 9, "text-anchor": "middle", text: t("wf.stop") }),
      );
    }
  }

  // ---- the table of figures ------------------------------------------------------------------

  function cardFace(value, attrs = {}, card = null, from = null) {
    const cls = `wf-card wf-card--${value > 0 ? "pos" : "neg"}${attrs.class ? ` ${attrs.class}` : ""}`;
    return el(
      attrs.button ? "button" : "span",
      { ...attrs, button: null, class: cls },
      el("span", { class: "wf-card-value", text: signed(value) }),
      card !== null && tactical() ? el("span", { class: "wf-card-white", text: String(card) }) : null,
      from,
    );
  }

  function movesOf(i) {
    return disp.moves.filter((m) => m.figure === i);
  }

  function moveText(m) {
    const values = (m.values || []).map(signed).join(" ");
    const sum = m.values && m.values.length > 1 ? ` = ${signed(m.net)}` : "";
    const by = m.by !== undefined && m.by !== null ? " " + t("wf.from", { name: nameOf(m.by) }) : "";
    return `${space(m.from)} \u2192 ${space(m.to)} (${values}${sum}${by})`;
  }

  function statusOf(i) {
    // While a reveal plays, the statuses of the next round would contradict the board.
    if (over() || running) return { text: "", cls: "" };
    if (i >= players()) {
      const left = view.leo_cards_left;
      if (tactical() && view.phase === "move" && acting().length === 0) return { text: "", cls: "" };
      return { text: left ? tn("wf.status.leoPlays", left) : t("wf.status.leoDone"), cls: "wf-status--leo" };
    }
    if (view.phase === "move") {
      if (acting().includes(i)) return { text: isYou(i) && !standIn() ? t("wf.status.yourMove") : t("wf.status.moving"), cls: "wf-status--acting" };
      return { text: "", cls: "" };
    }
    if ((view.committed || []).includes(i)) return { text: t("wf.status.chosen"), cls: "wf-status--done" };
    if (acting().includes(i)) return { text: isYou(i) && !standIn() ? t("wf.status.yourChoice") : t("wf.status.choosing"), cls: "wf-status--acting" };
    return { text: "", cls: "" };
  }

  function drawTable() {
    const positions = disp.positions || view.positions;
    const totals = disp.totals || view.totals;
    const reveal = disp.reveal;
    tableCaption.textContent = reveal
      ? t(tactical() ? "wf.caption.revealedOwners" : "wf.caption.revealed", { round: reveal.round, stage: reveal.stage })
      : t("wf.caption.table");
    const rows = [];
    let landing = 0;
    for (let i = 0; i < figureCount(); i++) {
      const status = statusOf(i);
      const committed = (view.committed || []).includes(i);
      const cards = el("span", { class: "wf-cards" });
      if (reveal) {
        const mine = reveal.cards.filter((c) => (tactical() ? c.by === i : c.target === i));
        for (const c of mine) {
          const from = tactical()
            ? null
            : el("span", { class: "wf-from", style: `--c:${colourOf(c.by)}`, title: t("wf.from", { name: nameOf(c.by) }), text: labels()[c.by] });
          const face = cardFace(
            c.value,
            {
              "data-testid": "revealed-card",
              "data-value": c.value,
              "data-by": c.by,
              "data-target": c.target,
              title: `${signed(c.value)} ${t("wf.from", { name: nameOf(c.by) })}`,
              class: disp.fresh ? "wf-land" : "",
              style: disp.fresh ? `animation-delay:${landing++ * 70}ms` : null,
            },
            c.card ?? null,
            from,
          );
          cards.append(face);
          if (tactical()) {
            const moved = disp.moves.find((m) => m.by === c.by && (m.card === undefined || m.card === c.card));
            if (moved) cards.append(el("span", { class: "wf-arrow", text: `\u2192 ${nameOf(moved.figure)}` }));
          }
        }
      } else if (committed && view.phase === "commit" && !narrow && !running) {
        cards.append(el("span", { class: "wf-card wf-card--back", title: t("wf.cardBack") }));
      }
      const moved = movesOf(i);
      const moveLine = moved.length
        ? el(
            "span",
            { class: "wf-move" },
            moved.map(moveText).join("; "),
            moved.some((m) => m.clamped)
              ? el("span", { class: "wf-clamp", text: " " + t("wf.clamped", { space: space(moved[moved.length - 1].to) }) })
              : null,
          )
        : null;
      const scorer = disp.scoring && disp.scoring.scorers.includes(i);
      rows.push(
        el(
          "li",
          {
            class: `wf-row${isYou(i) ? " wf-row--you" : ""}${scorer ? " wf-row--scorer" : ""}${status.cls === "wf-status--acting" ? " wf-row--acting" : ""}`,
            "data-testid": "figure-row",
            "data-figure": i,
            "data-committed": committed ? "true" : "false",
          },
          chip(i),
          el(
            "span",
            { class: "wf-who" },
            el("span", { class: "wf-name", text: nameOf(i) }),
            isYou(i) ? el("span", { class: "wf-you", text: t("wf.youTag") }) : null,
            el("span", { class: `wf-status ${status.cls}`, text: status.text }),
          ),
          el("span", { class: "wf-at", title: t("wf.atHint"), text: t("wf.at", { space: space(positions[i]) }) }),
          el("span", { class: "wf-pts", title: t("wf.ptsHint"), text: points(totals[i]) }),
          cards,
          moveLine,
        ),
      );
    }
    table.replaceChildren(...rows);
    disp.fresh = false;
  }

  // ---- the stage result ----------------------------------------------------------------------

  function drawResult() {
    const r = disp.result;
    const outcome = header().outcome;
    if (!r && !outcome) {
      result.hidden = true;
      return;
    }
    result.hidden = false;
    const parts = [];
    if (r) {
      result.dataset.space = r.space === null ? "" : String(r.space);
      result.dataset.scorers = (r.scorers || []).join(",");
      const order = r.positions.map((p, i) => [p, i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const line = el("ol", { class: "wf-finish" });
      for (const [p, i] of order) {
        const scored = r.scorers.includes(i);
        line.append(
          el(
            "li",
            { class: scored ? "wf-finish--scorer" : "" },
            chip(i),
            el("span", { text: t("wf.result.on", { name: nameOf(i), space: space(p) }) }),
            scored ? el("strong", { text: t("wf.result.scores", { points: signed(r.points[i]) }) }) : null,
          ),
        );
      }
      const headline =
        r.space === null
          ? t("wf.result.nobody", { stage: r.stage })
          : tn("wf.result.head", r.scorers.length, { stage: r.stage, space: space(r.space), names: listWords(r.scorers.map(nameOf)), points: signed(r.space) });
      parts.push(el("p", { class: "wf-result-head", text: headline }), line);
    }
    if (outcome && Array.isArray(outcome.winners) && Array.isArray(outcome.scores)) {
      const nm = (i) => nameOf(i);
      const order = outcome.scores.map((s, i) => [Number(s), i]).sort((x, y) => y[0] - x[0] || x[1] - y[1]);
      const totals = order.map(([s, i]) => `${nm(i)} ${space(s)}`).join(", ");
      const won = outcome.winners.map(nm);
      const best = outcome.winners.length ? Number(outcome.scores[outcome.winners[0]]) : null;
      const why = order.length && best === order[0][0] ? t("wf.final.allEqual") : t("wf.final.rule");
      parts.unshift(
        el(
          "p",
          { class: "wf-final", "data-testid": "winners" },
          el("strong", { text: tn("wf.final.head", won.length, { names: listWords(won), points: points(best) }) }),
          ` \u2014 ${t("wf.final.totals", { why, totals })}`,
        ),
      );
    }
    result.replaceChildren(...parts);
  }

  // ---- stage history -------------------------------------------------------------------------

  function drawHistory() {
    const rowsH = view.stage_history || [];
    const n = stages();
    const head = el("tr", {}, el("th", { scope: "col", text: "" }));
    for (let s = 1; s <= n; s++) head.append(el("th", { scope: "col", text: t("wf.history.stage", { n: s }) }));
    head.append(el("th", { scope: "col", text: t("wf.history.total") }));
    const body = [];
    for (let i = 0; i < figureCount(); i++) {
      const tr = el("tr", { class: isYou(i) ? "wf-row--you" : "" }, el("th", { scope: "row" }, chip(i), ` ${nameOf(i)}`));
      for (let s = 0; s < n; s++) {
        const v = rowsH[s] ? rowsH[s][i] : null;
        tr.append(el("td", { class: v ? "wf-scored" : "", text: v === null ? "\u00b7" : space(v) }));
      }
      tr.append(el("td", { class: "wf-total", text: space(view.totals[i]) }));
      body.push(tr);
    }
    const open = history.open;
    history.replaceChildren(
      el("summary", { text: t("wf.history.title", { done: view.stage_history.length, n }) }),
      el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)),
    );
    history.open = open;
  }

  function drawRules() {
    if (rules.childElementCount) return;
    const [lo, hi] = track();
    const leo = hasLeo() ? " " + t("wf.how.leo", { last: handSize() - 1 }) : "";
    const how = tactical() ? t("wf.how.tactical") : t("wf.how.base", { round: handSize(), now: t("wf.now") });
    rules.append(
      el("summary", { text: t("wf.how.title") }),
      el(
        "p",
        {},
        `${how} ${t("wf.how.track", { lo: space(lo), hi: space(hi), rounds: handSize() })} ${tn("wf.how.stages", stages())}${leo}`,
      ),
    );
  }

  // ---- what you are asked --------------------------------------------------------------------

  /** The stand-in bot's name while it plays your seat (you offer nothing then), else null. */
  function standIn() {
    return ctx.standIn ? ctx.standIn() : null;
  }

  function legal() {
    if (standIn()) return [];
    return (view && view.legal_actions) || [];
  }

  /** The line under your hand saying whom the table waits for (not while a bot plays for you:
   * the prompt says so). */
  function waitHint() {
    return standIn() ? null : el("p", { class: "wf-hint", text: waitingWords() });
  }

  function sending() {
    return sentAt === updates;
  }

  function send(action) {
    if (sending()) return;
    sentAt = updates;
    if (action.type === "place") chosen = { value: action.value, target: action.target };
    picked = null;
    pickedIndex = -1;
    clearTimeout(sentTimer);
    // If the server refuses (the shell shows why), offer the choices again.
    sentTimer = setTimeout(() => {
      if (sentAt === updates) {
        sentAt = -1;
        drawChoice(true);
      }
    }, 4000);
    drawChoice(true);
    ctx.send(action);
  }

  function waitingWords() {
    // The table's own names for the seats; the header's words when it names nobody.
    const names = acting().map(nameOf);
    if (names.length) return t("wf.waitingFor", { names: listWords(names) });
    return "";
  }

  /** Your own commit: {value, target|null, card|null} or null. */
  function myCommit() {
    const c = view.my_commit;
    if (c === null || c === undefined) return null;
    if (typeof c === "object" && !Array.isArray(c)) return { value: c.value, target: c.target ?? null, card: c.card ?? null };
    if (Array.isArray(c)) {
      const [x, target] = c;
      if (chosen && chosen.target === target && typeof chosen.value === "number") return { value: chosen.value, target, card: null };
      // A view that shows values only (it has `revealed_values`) gives [value, target];
      // an older one [white number, target].
      if ("revealed_values" in view) return { value: x, target, card: null };
      const v = view.card_values && view.card_values[x - 1];
      return { value: typeof v === "number" ? v : x, target, card: null };
    }
    const v = view.card_values ? view.card_values[c - 1] : null;
    return { value: v, target: null, card: c };
  }

  function handCards() {
    const values = view.hand_values || [];
    const numbers = tactical() && Array.isArray(view.hand) ? view.hand : values.map(() => null);
    return values.map((value, k) => ({ value, card: numbers[k], k })).sort((a, b) => a.value - b.value || (a.card ?? 0) - (b.card ?? 0));
  }

  function focusKey() {
    const a = document.activeElement;
    if (!a || !choice.contains(a)) return null;
    return [a.dataset.testid, a.dataset.value, a.dataset.card, a.dataset.figure, a.dataset.k].join("|");
  }

  function refocus(key) {
    if (!key) return;
    for (const b of choice.querySelectorAll("button")) {
      if ([b.dataset.testid, b.dataset.value, b.dataset.card, b.dataset.figure, b.dataset.k].join("|") === key) {
        b.focus();
        return;
      }
    }
  }

  function drawChoice(force = false) {
    const key = JSON.stringify([legal(), view.hand_values, view.hand, view.my_commit, picked, pickedIndex, sending(), view.phase, view.move_queue, header().move, over(), narrow, standIn()]);
    if (!force && key === choiceKey) return;
    choiceKey = key;
    const keep = focusKey();
    const parts = [];
    const seat = mySeat();
    if (seat === null || over()) {
      choice.replaceChildren();
      choice.hidden = true;
      return;
    }
    choice.hidden = false;
    const acts = legal();
    const busy = sending();
    if (tactical()) parts.push(...tacticalChoice(acts, busy));
    else parts.push(...baseChoice(acts, busy));
    choice.replaceChildren(...parts.filter(Boolean));
    refocus(keep);
  }

  function handRow(cards, playable, onPick, isPicked, placed) {
    const row = el("div", { class: "wf-hand", role: "group", "aria-label": t("wf.hand") });
    for (const c of cards) {
      const can = playable(c);
      const label = c.card !== null && tactical() ? t("wf.card.white", { value: signed(c.value), card: c.card }) : signed(c.value);
      const attrs = {
        "data-testid": "card",
        "data-value": c.value,
        "data-card": c.card ?? null,
        "data-k": c.k,
        class: `${isPicked(c) ? "wf-card--picked" : ""}${placed(c) ? " wf-card--placed" : ""}`,
        title: placed(c) ? t("wf.card.placed", { card: label }) : label,
      };
      if (can) {
        row.append(
          cardFace(c.value, { ...attrs, button: true, type: "button", "aria-pressed": isPicked(c) ? "true" : "false", "aria-label": t("wf.card.play", { card: label }), onclick: () => onPick(c) }, c.card),
        );
      } else {
        row.append(cardFace(c.value, { ...attrs, button: true, type: "button", disabled: true, "aria-label": label }, c.card));
      }
    }
    return row;
  }

  function targetButton(i, action, note) {
    return el(
      "button",
      {
        type: "button",
        class: `wf-target${isYou(i) ? " wf-target--you" : ""}`,
        "data-testid": "target",
        "data-figure": i,
        "data-action": JSON.stringify(action),
        onclick: () => send(action),
        "aria-label": `${isYou(i) ? t("wf.you", { name: nameOf(i) }) : nameOf(i)}, ${t("wf.at", { space: space(view.positions[i]) })}${note ? `, ${note}` : ""}`,
      },
      chip(i),
      el("span", { class: "wf-target-name", text: nameOf(i) }),
      isYou(i) ? el("span", { class: "wf-you", text: t("wf.youTag") }) : null,
      el("span", { class: "wf-target-at", text: note || t("wf.at", { space: space(view.positions[i]) }) }),
    );
  }

  function baseChoice(acts, busy) {
    const places = acts.filter((a) => a.type === "place");
    const byValue = new Map();
    for (const a of places) {
      if (!byValue.has(a.value)) byValue.set(a.value, []);
      byValue.get(a.value).push(a);
    }
    if (picked !== null && !byValue.has(picked)) {
      picked = null;
      pickedIndex = -1;
    }
    const cards = handCards();
    const mine = myCommit();
    let placedK = -1;
    if (mine && view.phase === "commit") {
      const c = cards.find((x) => x.value === mine.value);
      if (c) placedK = c.k;
    }
    const pickedK = picked === null ? -1 : (cards.find((c) => c.k === pickedIndex && c.value === picked) || cards.find((c) => c.value === picked)).k;
    const out = [];
    const title = el("h2", { class: "wf-choice-title" });
    out.push(title);
    const hand = handRow(
      cards,
      (c) => !busy && byValue.has(c.value),
      (c) => {
        picked = c.value;
        pickedIndex = c.k;
        drawChoice(true);
        drawHead();
        const first = choice.querySelector('[data-testid="target"]');
        if (first) first.focus();
      },
      (c) => c.k === pickedK,
      (c) => c.k === placedK,
    );
    if (over()) {
      title.textContent = t("wf.over");
      return cards.length ? [title, hand] : [title];
    }
    if (busy) {
      title.textContent = t("wf.sending");
      out.push(hand);
      return out;
    }
    if (places.length) {
      if (picked === null) {
        title.textContent = t("wf.base.choose");
        out.push(hand, el("p", { class: "wf-hint", text: t("wf.base.chooseHint") }));
      } else {
        title.textContent = t("wf.base.which", { value: signed(picked) });
        const targets = el("div", { class: "wf-targets", role: "group", "aria-label": t("wf.figures") });
        for (const a of byValue.get(picked)) targets.append(targetButton(a.target, a, null));
        out.push(
          hand,
          targets,
          el("p", { class: "wf-hint", text: t("wf.base.another") }),
        );
      }
      return out;
    }
    if (mine && view.phase === "commit") {
      const where = mine.target === null || mine.target === undefined ? "" : " " + t("wf.base.inFront", { name: isYou(mine.target) ? t("wf.base.ownFigure") : nameOf(mine.target) });
      title.textContent = t("wf.base.lies", { value: signed(mine.value), where });
      out.push(hand, waitHint());
      return out;
    }
    title.textContent = t("wf.hand");
    out.push(hand, waitHint());
    return out;
  }

  function orderList() {
    // Tactical: the round's cards by white number, highest first (WF-10), and what each did.
    const reveal = disp.reveal || (view.phase === "move" ? { cards: revealFromView(view) || [] } : null);
    if (!reveal || !reveal.cards.length || reveal.cards.some((c) => typeof c.card !== "number")) return null;
    const queue = (view.move_queue || []).map((m) => (Array.isArray(m) ? m[0] : m.card));
    const list = el("ol", { class: "wf-order", "data-testid": "order", "aria-labelledby": "wf-order-title" });
    const cards = [...reveal.cards].sort((a, b) => b.card - a.card);
    for (const c of cards) {
      const moved = disp.moves.find((m) => m.by === c.by && (m.card === undefined || m.card === c.card));
      const now = queue.length && queue[0] === c.card && view.phase === "move";
      const state = moved ? `\u2192 ${nameOf(moved.figure)}` : now ? (isYou(c.by) && !standIn() ? t("wf.order.yourTurn") : t("wf.order.now")) : queue.includes(c.card) ? t("wf.order.toCome") : "";
      list.append(
        el(
          "li",
          { class: now ? "wf-order--now" : moved ? "wf-order--done" : "" },
          cardFace(c.value, {}, c.card),
          chip(c.by),
          el("span", { class: "wf-order-who", text: nameOf(c.by) }),
          el("span", { class: "wf-order-state", text: state }),
        ),
      );
    }
    return el("div", { class: "wf-orderbox" }, el("p", { class: "wf-order-title", id: "wf-order-title", text: t("wf.order.title") }), list);
  }

  function tacticalChoice(acts, busy) {
    const commits = acts.filter((a) => a.type === "commit");
    const moves = acts.filter((a) => a.type === "move");
    const legalCards = new Set(commits.map((a) => a.card));
    if (picked !== null && !legalCards.has(picked)) picked = null;
    const cards = handCards();
    const mine = myCommit();
    const out = [];
    const title = el("h2", { class: "wf-choice-title" });
    out.push(title);
    const hand = handRow(
      cards,
      (c) => !busy && legalCards.has(c.card),
      (c) => {
        picked = c.card;
        drawChoice(true);
        drawHead();
        const go = choice.querySelector('[data-testid="action"]');
        if (go) go.focus();
      },
      (c) => c.card === picked,
      (c) => Boolean(mine) && view.phase === "commit" && c.card === mine.card,
    );
    if (over()) {
      title.textContent = t("wf.over");
      return cards.length ? [title, hand] : [title];
    }
    if (busy) {
      title.textContent = t("wf.sending");
      out.push(hand);
      return out;
    }
    if (commits.length) {
      if (picked === null) {
        title.textContent = t("wf.tac.choose");
        out.push(hand, el("p", { class: "wf-hint", text: t("wf.tac.chooseHint") }));
      } else {
        const value = view.card_values[picked - 1];
        const action = commits.find((a) => a.card === picked);
        out.push(
          hand,
          el(
            "div",
            { class: "wf-confirm" },
            el("button", {
              type: "button",
              class: "wf-go",
              "data-testid": "action",
              "data-action": JSON.stringify(action),
              onclick: () => send(action),
              text: t("wf.tac.play", { value: signed(value), card: picked }),
            }),
          ),
          el("p", { class: "wf-hint", text: t("wf.tac.playHint", { card: picked }) }),
        );
        title.textContent = t("wf.tac.confirm");
      }
      return out;
    }
    const order = orderList();
    if (moves.length) {
      const card = mine && mine.card !== null ? mine : null;
      const value = card ? card.value : null;
      title.textContent = value !== null ? t("wf.tac.which", { value: signed(value) }) : t("wf.tac.whichAny");
      const targets = el("div", { class: "wf-targets", role: "group", "aria-label": t("wf.figures") });
      const [lo, hi] = track();
      for (const a of moves) {
        const from = view.positions[a.target];
        const to = value === null ? null : Math.max(lo, Math.min(hi, from + value));
        targets.append(targetButton(a.target, a, to === null ? null : `${space(from)} \u2192 ${space(to)}`));
      }
      out.push(targets);
      if (order) out.push(order);
      return out;
    }
    if (view.phase === "move") {
      title.textContent = t("wf.tac.moving");
      if (order) out.push(order);
      out.push(waitHint(), hand);
      return out;
    }
    if (mine && view.phase === "commit") {
      title.textContent = t("wf.tac.lies", { value: signed(mine.value), card: mine.card });
      out.push(hand, waitHint());
      return out;
    }
    title.textContent = t("wf.hand");
    out.push(hand, waitHint());
    return out;
  }

  // ---- the lines at the top ------------------------------------------------------------------

  // The stage and round the board shows (1-based). While the reveal, the moves or the scoring
  // of a stage that just ended are still on the board, theirs: the view is already at the next
  // stage by then (its last round is played by itself), and the pills must not name a stage
  // whose figures are not the ones on the board.
  function shownStageRound() {
    const scoring = disp.scoring;
    const reveal = disp.reveal;
    if (scoring && !over()) return { stage: scoring.stage, round: handSize() };
    if (reveal && reveal.stage !== view.stage + 1) return { stage: reveal.stage, round: reveal.round };
    return { stage: Math.min(view.stage + 1, stages()), round: Math.min(view.round + 1, handSize()) };
  }

  function drawHead() {
    board.dataset.phase = view.phase;
    board.dataset.variant = view.variant;
    board.dataset.stage = String(view.stage);
    board.dataset.round = String(view.round);
    const n = stages();
    const { stage: st, round: rd } = shownStageRound();
    where.replaceChildren(
      ...[
        el("span", { class: "wf-pill", text: over() ? tn("wf.pill.over", n) : t("wf.pill.stage", { stage: st, n }) }),
        over() ? null : el("span", { class: "wf-pill", text: t("wf.pill.round", { round: rd, n: handSize() }) }),
        tactical() ? el("span", { class: "wf-pill wf-pill--variant", text: t("wf.pill.tactical") }) : null,
        hasLeo() ? el("span", { class: "wf-pill wf-pill--leo", text: t("wf.pill.leo") }) : null,
      ].filter(Boolean),
    );
    let text;
    const seat = mySeat();
    const acts = legal();
    const bot = seat !== null && !over() && standIn();
    prompt.classList.toggle("wf-prompt--bot", Boolean(bot));
    if (bot) {
      prompt.classList.remove("wf-prompt--you");
      prompt.replaceChildren(ctx.standInLine());
      return;
    }
    if (over()) text = t("wf.prompt.over");
    else if (seat === null) text = `${t("wf.prompt.watching")} ${waitingWords()}`;
    else if (sending()) text = t("wf.prompt.sending");
    else if (acts.some((a) => a.type === "place")) text = picked === null ? t("wf.prompt.chooseCard") : t("wf.prompt.chooseFigure");
    else if (acts.some((a) => a.type === "commit")) text = t("wf.prompt.chooseCard");
    else if (acts.some((a) => a.type === "move")) text = t("wf.prompt.move");
    else text = waitingWords() || t("wf.prompt.waiting");
    prompt.textContent = text;
    prompt.classList.toggle("wf-prompt--you", acts.length > 0 && !sending());
  }

  function drawAll() {
    if (!view || destroyed) return;
    drawHead();
    drawBoard();
    drawTable();
    drawResult();
    drawChoice();
    drawHistory();
    drawRules();
  }

  // ---- the reveal, the moves, the scoring ----------------------------------------------------

  const queue = [];
  let running = false;
  let hurry = false;
  const sleepers = new Set();

  function sleep(ms) {
    if (hurry || destroyed || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = { resolve, timer: null };
      entry.timer = setTimeout(() => {
        sleepers.delete(entry);
        resolve();
      }, ms);
      sleepers.add(entry);
    });
  }

  function wakeAll() {
    for (const s of sleepers) {
      clearTimeout(s.timer);
      s.resolve();
    }
    sleepers.clear();
  }

  async function showCountdown() {
    const tm = timing();
    countdown.hidden = false;
    const now = t("wf.now");
    const words = tm.count ? ["3", "2", "1", now] : [now];
    for (const w of words) {
      // A fresh element for each word restarts its pop.
      countdown.replaceChildren(el("span", { class: `wf-count wf-pop${w === now ? " wf-count--now" : ""}`, text: w }));
      await sleep(tm.count || tm.land);
    }
    countdown.hidden = true;
  }

  async function showNote(text) {
    countdown.hidden = false;
    countdown.replaceChildren(el("span", { class: "wf-count wf-count--note", text }));
    await sleep(timing().note);
    countdown.hidden = true;
  }

  async function playEvents(events) {
    const tm = timing();
    for (let k = 0; k < events.length; k++) {
      const ev = events[k];
      if (destroyed) return;
      switch (ev.kind) {
        case "last_round_automatic":
          await showNote(t("wf.note.lastRound", { round: ev.round }));
          break;
        case "cards_revealed": {
          disp.scoring = null;
          disp.positions = disp.positions || [...view.positions];
          // The automatic last round has no secret to build up to: its cards just land.
          if (!(k > 0 && events[k - 1].kind === "last_round_automatic")) await showCountdown();
          disp.reveal = { stage: ev.stage, round: ev.round, cards: ev.cards.map((c) => ({ ...c })) };
          disp.moves = [];
          disp.fresh = !hurry;
          drawHead();
          drawTable();
          drawChoice(true);
          await sleep(tm.land);
          break;
        }
        case "figure_moved": {
          // The base game moves every figure at once (WF-4); the tactical variant one card at a time (WF-10).
          const batch = [ev];
          if (!tactical()) while (events[k + 1] && events[k + 1].kind === "figure_moved") batch.push(events[++k]);
          disp.positions = disp.positions || [...view.positions];
          for (const m of batch) {
            disp.positions[m.figure] = m.to;
            disp.moves.push({ ...m });
          }
          drawBoard();
          drawTable();
          drawChoice(true);
          await sleep(tm.move);
          break;
        }
        case "stage_scored":
          disp.positions = [...ev.positions];
          disp.totals = [...ev.totals];
          disp.scoring = { ...ev, scorers: [...ev.scorers] };
          disp.result = disp.scoring;
          drawHead();
          drawBoard();
          drawTable();
          drawResult();
          await sleep(tm.score);
          break;
        case "stage_started":
          if (k > 0 || disp.reveal) {
            disp.reveal = null;
            disp.moves = [];
            disp.scoring = null;
            disp.positions = null;
            disp.totals = null;
            drawHead();
            drawBoard();
            drawTable();
          }
          break;
        default:
          break;
      }
    }
  }

  function settle() {
    disp.positions = null;
    disp.totals = null;
    // The final stage's scoring stays on the board once the game is over.
    if (!over()) disp.scoring = null;
    else if (disp.result) disp.scoring = disp.result;
    drawAll();
  }

  async function runQueue() {
    running = true;
    board.dataset.animating = "true";
    while (queue.length && !destroyed) {
      const events = queue.shift();
      hurry = queue.length > 1;
      await playEvents(events);
    }
    hurry = false;
    running = false;
    board.dataset.animating = "false";
    countdown.hidden = true;
    if (!destroyed) settle();
  }

  function animated(events) {
    return events.some((e) => ["cards_revealed", "figure_moved", "stage_scored", "last_round_automatic"].includes(e.kind));
  }

  /** On a fresh page, rebuild the latest reveal and scoring from the feed, without animation. */
  function restore(events) {
    let lastReveal = -1;
    let lastStart = -1;
    for (let k = 0; k < events.length; k++) {
      const e = events[k];
      if (e.kind === "cards_revealed") lastReveal = k;
      if (e.kind === "stage_started") lastStart = k;
      if (e.kind === "stage_scored") disp.result = { ...e, scorers: [...e.scorers] };
      if (e.kind === "card_chosen") chosen = { value: e.value, target: e.target, card: e.card };
      if (e.kind === "cards_revealed") chosen = null;
    }
    disp.reveal = null;
    disp.moves = [];
    if (lastReveal > lastStart) {
      const e = events[lastReveal];
      disp.reveal = { stage: e.stage, round: e.round, cards: e.cards.map((c) => ({ ...c })) };
      for (const m of events.slice(lastReveal + 1)) if (m.kind === "figure_moved") disp.moves.push({ ...m });
    } else if (lastReveal < 0 && lastStart < 0 && view.phase === "move") {
      const cards = revealFromView(view);
      if (cards) disp.reveal = { stage: view.stage + 1, round: view.round + 1, cards };
    }
    if (over() && disp.result) disp.scoring = disp.result;
  }

  // ---- sizes ---------------------------------------------------------------------------------

  function measure() {
    // The board's width, as the stylesheet's container query reads it (board.css, "phones").
    const w = board.clientWidth || root.clientWidth || window.innerWidth;
    const next = w < 620;
    if (next !== narrow) {
      narrow = next;
      if (view) {
        drawBoard();
        drawChoice(true);
      }
    }
  }
  const resizer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : null;
  if (resizer) resizer.observe(board);
  else window.addEventListener("resize", measure);
  measure();

  function onKey(e) {
    if (e.key === "Escape" && picked !== null) {
      picked = null;
      pickedIndex = -1;
      drawChoice(true);
      drawHead();
      const c = choice.querySelector('[data-testid="card"]:not([disabled])');
      if (c) c.focus();
    }
  }
  board.addEventListener("keydown", onKey);

  // ---- the interface -------------------------------------------------------------------------

  return {
    update(nextView, events = [], { initial = false } = {}) {
      if (destroyed || !nextView) return;
      const firstDraw = view === null;
      const evs = Array.isArray(events) ? events : [];
      if (view && !running && animated(evs)) {
        // The board starts from what it showed before this update.
        disp.positions = disp.positions || [...view.positions];
        disp.totals = disp.totals || [...view.totals];
      }
      for (const e of evs) {
        // Your own choice, as the game tells only you; forgotten once the cards are revealed.
        if (e.kind === "card_chosen") chosen = { value: e.value, target: e.target, card: e.card };
        if (e.kind === "cards_revealed") chosen = null;
      }
      view = nextView;
      updates += 1;
      clearTimeout(sentTimer);
      measure();
      if (initial || firstDraw) {
        // A (re)connection: the feed so far says what to show; anything still playing ends.
        queue.length = 0;
        if (running) {
          hurry = true;
          wakeAll();
        }
        disp.positions = null;
        disp.totals = null;
        disp.scoring = null;
        restore(evs);
        drawAll();
        return;
      }
      if (!running && !animated(evs)) {
        drawAll();
        for (const e of evs) {
          if (e.kind === "card_committed") {
            const row = table.querySelector(`[data-testid="figure-row"][data-figure="${e.seat}"]`);
            if (row) row.classList.add("wf-row--ping");
          }
        }
        return;
      }
      // The choices follow the newest view at once; the board catches up through the events.
      if (animated(evs)) {
        queue.push(evs);
        if (!running) runQueue(); // marks the board as running before its first pause
        else if (queue.length > 1) {
          // More than one resolution behind (a slow tab, a burst of bot moves): catch up.
          hurry = true;
          wakeAll();
        }
      }
      drawHead();
      drawTable();
      drawChoice();
      drawHistory();
    },
    /** Draw the prompt and your choices again (the stand-in bot came or went). */
    refresh() {
      if (destroyed || !view) return;
      if (standIn()) {
        picked = null;
        pickedIndex = -1;
      }
      drawHead();
      drawTable();
      drawChoice(true);
    },
    destroy() {
      destroyed = true;
      wakeAll();
      clearTimeout(sentTimer);
      if (resizer) resizer.disconnect();
      else window.removeEventListener("resize", measure);
      board.removeEventListener("keydown", onKey);
      board.remove();
    },
  };
}

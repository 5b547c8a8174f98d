// Six Day Race in the browser: the oval, the riders, your hand, sprints, results and series.
//
// Renderer interface (see docs/protocol.md): createRenderer(root, ctx) -> {update, destroy}.
// The view is the engine's JSON view (docs/json.md, "Six Day Race view") with its "header";
// nothing here re-derives a rule: landings are shown only when the view offers a preview.
//
// Test hooks (data-testid), so a test can play a whole game by clicking legal choices:
//   data-testid="sdr-board"        the SVG oval
//   data-testid="rider"            a rider on the oval; data-rider, data-position
//   data-testid="card"             a playable card of the rider to move; data-value,
//                                  data-action='{"type":"play","value":3}'; clicking selects it
//   data-testid="confirm"          plays the selected card; data-action as above
//   data-testid="callout"          a slipstream / sprint / crash / rider-change note on the oval
//   data-testid="series"           the series table (laps lost and points per player)
//   data-testid="race-result"      the latest race's result sheet
//   data-testid="turn"             the line saying whose turn it is (while the stand-in bot
//                                  plays your seat: that it does, the shell's "stand-in" line)

import { el, partName, svg } from "../dom.js";
import { t, tn } from "../i18n.js";
import { ordinal, raceEnded } from "../words/six-day-race.js";

const COLOURS = ["#d62828", "#1f5fd1", "#168a3a", "#c77800", "#7b2cbf", "#0f7c8c", "#d63384", "#4b5563"];
const GLYPHS = { "1/2": "½", "1/3": "⅓", "2/3": "⅔", "1/4": "¼", "3/4": "¾" };

// --- fractions (points are exact fraction strings, "20/3") ----------------------------------

function frac(text) {
  const [n, d] = String(text).split("/");
  return [Number(n), d === undefined ? 1 : Number(d)];
}

function gcd(a, b) {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}

function addFrac(a, b) {
  const n = a[0] * b[1] + b[0] * a[1];
  const d = a[1] * b[1];
  const g = gcd(n, d);
  return [n / g, d / g];
}

/** Points as a person writes them: 6, 6⅔, 2 2/7. */
export function formatPoints(value) {
  const [n, d] = typeof value === "string" ? frac(value) : value;
  if (d === 1) return String(n);
  const whole = Math.floor(n / d);
  const rest = n - whole * d;
  const part = GLYPHS[`${rest}/${d}`] || `${rest}/${d}`;
  return whole ? `${whole}${GLYPHS[`${rest}/${d}`] ? "" : " "}${part}` : part;
}


// --- the oval ------------------------------------------------------------------------------

// Geometry: a wide oval for desktops, a compact upright one for phones.
const WIDE = { w: 1000, h: 540, half: 300, radius: 188, track: 66, start: 90 };
const TALL = { w: 720, h: 430, half: 150, radius: 158, track: 62, start: 60 };
const MARGIN = 58; // room for labels outside the track

class Oval {
  constructor(line, upright) {
    this.g = upright ? TALL : WIDE;
    this.upright = upright;
    this.line = line;
    this.perimeter = 4 * this.g.half + 2 * Math.PI * this.g.radius;
    this.cell = this.perimeter / line;
    this.track = this.g.track;
  }

  get width() {
    return this.upright ? this.g.h : this.g.w;
  }

  get height() {
    return this.upright ? this.g.w : this.g.h;
  }

  /** Point and outward normal at arc length s from the start/finish line, racing direction. */
  centreAt(s) {
    const { w, h, half, radius, start } = this.g;
    const cx = w / 2;
    const cy = h / 2;
    s = ((s % this.perimeter) + this.perimeter) % this.perimeter;
    const bend = Math.PI * radius;
    const first = half - start; // from the line to the end of the bottom straight
    if (s < first) return { x: cx + start + s, y: cy + radius, nx: 0, ny: 1 };
    s -= first;
    if (s < bend) {
      const t = Math.PI / 2 - s / radius;
      return { x: cx + half + radius * Math.cos(t), y: cy + radius * Math.sin(t), nx: Math.cos(t), ny: Math.sin(t) };
    }
    s -= bend;
    if (s < 2 * half) return { x: cx + half - s, y: cy - radius, nx: 0, ny: -1 };
    s -= 2 * half;
    if (s < bend) {
      const t = -Math.PI / 2 - s / radius;
      return { x: cx - half + radius * Math.cos(t), y: cy + radius * Math.sin(t), nx: Math.cos(t), ny: Math.sin(t) };
    }
    s -= bend;
    return { x: cx - half + s, y: cy + radius, nx: 0, ny: 1 };
  }

  /** A point at arc length s, `off` outward from the centre line, in screen coordinates
   * (the upright oval is the wide one turned a quarter). */
  at(s, off = 0) {
    const c = this.centreAt(s);
    const x = c.x + c.nx * off;
    const y = c.y + c.ny * off;
    return this.upright ? { x: this.g.h - y, y: x } : { x, y };
  }

  centre(space, off = 0) {
    return this.at((space + 0.5) * this.cell, off);
  }

  /** The outline of one space as an SVG path. */
  spacePath(space) {
    const s0 = space * this.cell;
    const s1 = (space + 1) * this.cell;
    const t = this.track / 2;
    const pts = [];
    for (const s of [s0, (s0 + s1) / 2, s1]) pts.push(this.at(s, -t));
    for (const s of [s1, (s0 + s1) / 2, s0]) pts.push(this.at(s, t));
    return `M${pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join("L")}Z`;
  }

  /** A line across the track at the start of `space`, reaching `extra` beyond each edge. */
  across(space, extra = 0) {
    const a = this.at(space * this.cell, -this.track / 2 - extra);
    const b = this.at(space * this.cell, this.track / 2 + extra);
    return { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
  }
}

// --- the renderer --------------------------------------------------------------------------

export function createRenderer(root, ctx) {
  // Read at each move: a change of the setting applies at once.
  const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const reduced = () => Boolean(motionQuery && motionQuery.matches);
  root.classList.add("sdr");
  const boardBox = el("div", { class: "sdr-board" });
  const turnLine = el("div", { class: "sdr-turn", "data-testid": "turn", role: "status", "aria-live": "polite" });
  // "dock": on a phone the shell keeps it on screen while it is your turn (style.css).
  const handBox = el("section", { class: "sdr-hands dock", "aria-label": partName(ctx, t("sdr.yourCards")) });
  const infoBox = el("div", { class: "sdr-info" });
  root.replaceChildren(turnLine, boardBox, handBox, infoBox);

  let view = null;
  let selected = null; // the value of the selected card
  let lastPlay = null; // the latest card_played event, drawn as a trail
  let callouts = []; // notes on the oval from the latest events
  let freshNotes = false; // the notes are new: let them pop in once
  let queue = [];
  let busy = false;
  let destroyed = false;
  let upright = false;
  let sent = false; // an action is on its way: no second one until the next update
  let sentTimer = null;

  const names = () => (view && view.header && view.header.seat_names) || ctx.names || [];
  const players = () => view.players;
  const per = () => view.riders_per_player || 1;
  const owner = (rider) => rider % players();
  const seatName = (seat) => names()[seat] || `P${seat + 1}`;
  const riderName = (rider) =>
    per() === 1 ? seatName(owner(rider)) : `${seatName(owner(rider))}-${Math.floor(rider / players()) + 1}`;
  const riderMark = (rider) => (per() === 1 ? String(owner(rider) + 1) : String(Math.floor(rider / players()) + 1));
  const colour = (rider) => COLOURS[owner(rider) % COLOURS.length];
  const config = () => (view.header && view.header.config) || ctx.options || {};
  const mine = (rider) => ctx.seat !== null && ctx.seat !== undefined && owner(rider) === ctx.seat;

  function chip(rider) {
    return el("span", { class: "sdr-chip", style: `--c:${colour(rider)}`, "aria-hidden": "true", text: riderMark(rider) });
  }

  function riderLabel(rider) {
    return el("span", { class: "sdr-rider-label" }, chip(rider), " ", el("span", { text: riderName(rider) }));
  }

  // -- the board ----------------------------------------------------------------------------

  function drawBoard() {
    const v = view;
    const oval = new Oval(v.line, upright);
    const g = svg("svg", {
      viewBox: `${-MARGIN} ${-MARGIN} ${oval.width + 2 * MARGIN} ${oval.height + 2 * MARGIN}`,
      class: `sdr-svg${upright ? " sdr-upright" : ""}`,
      role: "img",
      "aria-label": t("sdr.trackLabel", { spaces: v.line, riders: v.positions.length }),
      "data-testid": "sdr-board",
    });
    // Infield and track.
    const spaces = svg("g", { class: "sdr-spaces" });
    const special = { [v.rider_change]: "change", [v.crash]: "crash" };
    for (let p = 0; p < v.line; p++) {
      const kind = special[p] || (p % 2 ? "odd" : "even");
      spaces.append(svg("path", { d: oval.spacePath(p), class: `sdr-space sdr-${kind}` }));
    }
    g.append(spaces);
    // Space numbers on the infield side, every fifth space.
    const numbers = svg("g", { class: "sdr-numbers", "aria-hidden": "true" });
    for (let p = 0; p < v.line; p += 5) {
      const at = oval.centre(p, -oval.track / 2 - 12);
      numbers.append(svg("text", { x: at.x, y: at.y, text: String(p) }));
    }
    g.append(numbers);
    // Laps-lost marks (the black hash marks of the board): behind mark k a rider loses k laps.
    // The view's header carries the whole configuration (every option, defaults included).
    const cfg = config();
    const lap = cfg.lap_spaces;
    const maxLaps = cfg.max_laps_lost;
    const marks = svg("g", { class: "sdr-lapmarks" });
    for (let k = 1; k <= maxLaps; k++) {
      const b = v.line - k * lap + 1;
      if (b <= 0) break;
      const a = oval.across(b, 4);
      const mid = oval.at(b * oval.cell, oval.track / 2 + 4);
      const out = oval.at((b - 0.9) * oval.cell, oval.track / 2 + 14);
      marks.append(svg("line", { x1: mid.x, y1: mid.y, x2: oval.at(b * oval.cell, oval.track / 4).x, y2: oval.at(b * oval.cell, oval.track / 4).y }));
      marks.append(svg("text", { x: out.x, y: out.y, text: t("sdr.lapsMark", { n: k }) }));
      void a;
    }
    g.append(marks);
    // Sprint lines and the start/finish line.
    v.sprints.forEach((s, i) => {
      const a = oval.across(s, 6);
      g.append(svg("line", { ...a, class: "sdr-sprint" }));
      const lab = oval.at(s * oval.cell, oval.track / 2 + 22);
      g.append(svg("text", { x: lab.x, y: lab.y, class: "sdr-sprint-label", text: t("sdr.sprint", { n: i + 1 }) }));
    });
    const fin = oval.across(0, 6);
    g.append(svg("line", { ...fin, class: "sdr-finish-bg" }));
    g.append(svg("line", { ...fin, class: "sdr-finish" }));
    const finLab = upright ? oval.at(-2.5 * oval.cell, -oval.track / 2 - 50) : oval.at(0, oval.track / 2 + 22);
    g.append(svg("text", { x: finLab.x, y: finLab.y, class: "sdr-finish-label", text: t("sdr.startFinish") }));
    // Names of the special spaces.
    for (const [space, label, cls] of [
      [v.rider_change, "FAHRERWECHSEL", "change"],
      [v.crash, "STURZ", "crash"],
    ]) {
      const at = oval.centre(space, -oval.track / 2 - (upright ? 62 : 46));
      g.append(svg("text", { x: at.x, y: at.y - 8, class: `sdr-special-label sdr-${cls}-label`, text: label }));
      g.append(svg("text", { x: at.x, y: at.y + 10, class: "sdr-special-sub", text: cls === "change" ? t("sdr.changeSub") : t("sdr.crashSub") }));
    }
    // The latest move: the card's spaces solid, the slipstream's dashed.
    if (lastPlay) {
      const d = lastPlay;
      const trail = (from, to, cls) => {
        if (to <= from) return;
        const pts = [];
        const end = Math.min(to, v.line);
        for (let s = from + 0.5; s <= end - 0.5 + 1e-9; s += 0.5) pts.push(oval.at(s * oval.cell, 0));
        if (pts.length < 2) return;
        g.append(
          svg("polyline", {
            points: pts.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" "),
            class: cls,
            style: `--c:${colour(d.rider)}`,
          }),
        );
      };
      trail(d.from, d.first, "sdr-trail");
      trail(d.first, d.to, "sdr-trail sdr-slip-trail");
    }
    // Riders on the track (those past the line wait in the infield).
    const at = new Map();
    const order = v.order && v.order.length ? v.order : v.positions.map((_, r) => r);
    for (const r of order) {
      const p = v.positions[r];
      if (p >= v.line) continue;
      if (!at.has(p)) at.set(p, []);
      at.get(p).push(r);
    }
    const ridersG = svg("g", { class: "sdr-riders" });
    const spots = new Map();
    for (const [space, riders] of at) {
      const n = riders.length;
      riders.forEach((r, i) => {
        let along = 0;
        let across = 0;
        let size = upright ? 15 : 13;
        if (n <= 3) {
          across = [0, -1, 1][i] * (size * 2 - 4);
        } else {
          size = upright ? 12 : 10.5;
          along = (i % 2 ? 0.5 : -0.5) * 2.2 * size;
          across = (Math.floor(i / 2) - 1) * 2.1 * size;
        }
        const pt = oval.at((space + 0.5) * oval.cell + along, across);
        spots.set(r, pt);
        ridersG.append(riderToken(r, pt, size));
      });
    }
    // Finished riders in the infield by the line, in crossing order, four to a row.
    const finishers = v.finishers || [];
    if (finishers.length) {
      const rowsOf = Math.ceil(finishers.length / 4);
      finishers.forEach((r, i) => {
        const along = ((i % 4) - 1.5) * Math.max(1.9 * oval.cell, 40);
        const pt = oval.at(along, -oval.track / 2 - 40 - 36 * Math.floor(i / 4));
        spots.set(r, pt);
        ridersG.append(riderToken(r, pt, 13, ordinal(i + 1)));
      });
      const label = oval.at(0, -oval.track / 2 - 40 - 36 * rowsOf + 6);
      g.append(svg("text", { x: label.x, y: label.y, class: "sdr-finished-label", text: t("sdr.crossedLabel") }));
    }
    g.append(ridersG);
    // The selected card: the space it brings the rider to first (before any slipstream).
    if (selected !== null && v.current >= 0 && legalValues().includes(selected)) {
      const first = v.positions[v.current] + selected;
      const pt = first < v.line ? oval.centre(first) : oval.at(0, 0);
      const ghost = svg("g", { class: "sdr-ghost", transform: `translate(${pt.x.toFixed(1)},${pt.y.toFixed(1)})` });
      ghost.append(svg("circle", { r: 17 }));
      ghost.append(svg("text", { y: 5, text: `+${selected}` }));
      g.append(ghost);
    }
    // Notes from the latest events.
    const notes = svg("g", { class: "sdr-callouts" });
    callouts.forEach((c, i) => {
      const pt = oval.at(c.s * oval.cell, -oval.track / 2 - 48 - 24 * (c.stack || 0));
      const gNote = svg("g", {
        class: `sdr-callout sdr-callout-${c.kind}${freshNotes ? " sdr-callout-new" : ""}`,
        transform: `translate(${pt.x.toFixed(1)},${pt.y.toFixed(1)})`,
        "data-testid": "callout",
        "data-kind": c.kind,
      });
      const w = 12 + c.text.length * 9.2;
      gNote.append(svg("rect", { x: -w / 2, y: -15, width: w, height: 26, rx: 13 }));
      gNote.append(svg("text", { x: 0, y: 3, text: c.text }));
      gNote.style.animationDelay = `${i * 80}ms`;
      notes.append(gNote);
    });
    g.append(notes);
    freshNotes = false; // redrawn later (a card selected): the notes stay still
    // The title in the infield.
    const midY = upright ? oval.height / 2 - 60 : oval.height / 2;
    const title = svg("text", { x: oval.width / 2, y: midY - 12, class: "sdr-infield-title" });
    const raceNo = Math.min(v.race + 1, v.races);
    title.textContent = v.phase === "over" ? t("sdr.seriesOver") : t("sdr.raceOf", { race: raceNo, races: v.races });
    g.append(title);
    const sub = svg("text", { x: oval.width / 2, y: midY + 16, class: "sdr-infield-sub" });
    sub.textContent = t("sdr.oneLap", { spaces: v.line });
    g.append(sub);
    boardBox.replaceChildren(g);
    return { oval, spots };
  }

  function riderToken(r, pt, size, badge) {
    const v = view;
    const cls = ["sdr-token"];
    if (r === v.current && v.phase === "race") cls.push("sdr-current");
    if (mine(r)) cls.push("sdr-mine");
    if (v.crashed && v.crashed[r]) cls.push("sdr-crashed");
    const g = svg("g", {
      class: cls.join(" "),
      transform: `translate(${pt.x.toFixed(1)},${pt.y.toFixed(1)})`,
      "data-testid": "rider",
      "data-rider": r,
      "data-position": v.positions[r],
    });
    g.append(svg("title", { text: t(v.crashed[r] ? "sdr.riderAtCrashed" : "sdr.riderAt", { rider: riderName(r), space: v.positions[r] }) }));
    if (r === v.current && v.phase === "race") g.append(svg("circle", { r: size + 5, class: "sdr-halo" }));
    g.append(svg("circle", { r: size, fill: colour(r), class: "sdr-disc" }));
    g.append(svg("text", { y: size * 0.36, class: "sdr-token-text", "font-size": size * 1.05, text: riderMark(r) }));
    if (badge) g.append(svg("text", { x: size - 4, y: -size + 4, class: "sdr-token-badge", text: badge }));
    if (v.crashed && v.crashed[r]) g.append(svg("text", { x: size, y: -size + 2, class: "sdr-crash-mark", text: "✚" }));
    return g;
  }

  // -- animation of the latest card -----------------------------------------------------------

  function animateMove(board, d, duration) {
    const token = boardBox.querySelector(`[data-testid="rider"][data-rider="${d.rider}"]`);
    const end = board.spots.get(d.rider);
    if (!token || !end || !token.animate) return 0;
    const oval = board.oval;
    const line = view.line;
    const frames = [];
    const path = [];
    for (let p = d.from; p <= Math.min(d.first, line - 1); p++) path.push(p);
    for (let p = d.first + 1; p <= Math.min(d.to, line - 1); p++) path.push(p);
    if (path.length < 2) return 0;
    for (const p of path) {
      const c = oval.centre(p);
      frames.push({ transform: `translate(${c.x.toFixed(1)}px,${c.y.toFixed(1)}px)` });
    }
    frames.push({ transform: `translate(${end.x.toFixed(1)}px,${end.y.toFixed(1)}px)` });
    token.style.transformBox = "view-box";
    token.animate(frames, { duration, easing: "ease-in-out" });
    return duration;
  }

  // -- hands and choices ----------------------------------------------------------------------

  /** The stand-in bot's name while it plays your seat (you offer nothing then), else null. */
  function standIn() {
    return ctx.standIn ? ctx.standIn() : null;
  }

  function legalValues() {
    if (standIn()) return [];
    return (view.legal_actions || []).filter((a) => a.type === "play").map((a) => a.value);
  }

  function previewFor(value) {
    // A landing preview only when the view offers one (the engine's own words and numbers).
    const src = view.previews || view.landings || view.preview || null;
    if (!src) {
      const act = (view.legal_actions || []).find((a) => a.type === "play" && a.value === value);
      return act && (act.to !== undefined || act.landing !== undefined) ? act : null;
    }
    if (Array.isArray(src)) return src.find((p) => p.value === value) || null;
    return src[value] || src[String(value)] || null;
  }

  function previewText(p, value) {
    if (!p) return "";
    if (p.text) return p.text;
    const to = p.to ?? p.landing;
    const first = p.first ?? to;
    let text = `${value} → ${first}`;
    if (p.multiplier > 1 && to !== first) text += ` · ${t("sdr.preview.slipstream", { times: p.multiplier, to })}`;
    if (p.special === "rider_change" || to === view.rider_change) text += " · FAHRERWECHSEL";
    if (p.special === "crash" || to === view.crash) text += " · STURZ";
    if (to >= view.line) text += ` · ${t("sdr.preview.crosses")}`;
    return text;
  }

  function cardFace(code, count, opts = {}) {
    const value = code % 10;
    const pile = Math.floor(code / 10);
    const cls = ["sdr-card", pile === 0 ? "sdr-green" : "sdr-grey"];
    if (opts.selected) cls.push("sdr-selected");
    const inner = [el("span", { class: "sdr-card-value", text: String(value) })];
    if (count > 1) inner.push(el("span", { class: "sdr-card-count", text: `×${count}` }));
    if (!opts.button) return el("span", { class: cls.join(" "), title: pile ? t("sdr.greyCard") : t("sdr.greenCard") }, ...inner);
    const action = { type: "play", value };
    return el(
      "button",
      {
        type: "button",
        class: cls.join(" "),
        "data-testid": "card",
        "data-value": value,
        "data-action": JSON.stringify(action),
        "aria-pressed": opts.selected ? "true" : "false",
        "aria-label": count > 1 ? tn("sdr.cardCount", count, { value }) : t("sdr.card", { value }),
        onclick: () => {
          if (selected === value) return play(value);
          selected = value;
          drawBoard();
          renderHands();
          const confirm = handBox.querySelector('[data-testid="confirm"]');
          if (confirm) confirm.focus();
        },
      },
      ...inner,
    );
  }

  function play(value) {
    if (!legalValues().includes(value)) return;
    // While earlier frames are still being drawn, this hand is not the latest one.
    if (sent || queue.length) return;
    sent = true;
    // An answer that brings no update (an error the page shows) must not leave the hand dead.
    clearTimeout(sentTimer);
    sentTimer = setTimeout(() => {
      sent = false;
      if (view) renderHands();
    }, 4000);
    selected = null;
    ctx.send({ type: "play", value });
    renderHands(true);
  }

  function renderHands(waiting = false) {
    const v = view;
    handBox.replaceChildren();
    if (!v.my_hands || !v.my_hands.length || v.phase === "over") return;
    const legal = waiting ? [] : legalValues();
    for (const [rider, cards] of v.my_hands) {
      const moving = rider === v.current && legal.length > 0;
      const counts = new Map();
      for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
      const codes = [...counts.keys()].sort((a, b) => (a % 10) - (b % 10) || a - b);
      const row = el("div", { class: `sdr-hand${moving ? " sdr-hand-active" : ""}` });
      const head = el("div", { class: "sdr-hand-head" }, riderLabel(rider));
      const grey = cards.length && cards.every((c) => c >= 10);
      head.append(
        el("span", {
          class: "sdr-hand-meta",
          text: ` · ${t("sdr.hand.at", { space: v.positions[rider] >= v.line ? t("sdr.hand.finish") : v.positions[rider] })} · ${tn(grey ? "sdr.hand.grey" : "sdr.hand.green", cards.length)}`,
        }),
      );
      row.append(head);
      const list = el("div", { class: "sdr-cards", role: moving ? "group" : null, "aria-label": moving ? t("sdr.playACard") : null });
      if (!cards.length) list.append(el("span", { class: "sdr-empty", text: t("sdr.noCardsLeft") }));
      const shown = new Set();
      for (const code of codes) {
        const value = code % 10;
        const n = counts.get(code);
        if (moving && legal.includes(value) && !shown.has(value)) {
          shown.add(value);
          list.append(cardFace(code, n, { button: true, selected: selected === value }));
        } else {
          list.append(cardFace(code, n));
        }
      }
      row.append(list);
      if (moving) {
        const p = selected !== null ? previewFor(selected) : null;
        const bar = el("div", { class: "sdr-play-bar" });
        if (selected === null) {
          bar.append(el("span", { class: "sdr-hint", text: t("sdr.chooseHint") }));
        } else {
          bar.append(
            el("button", {
              type: "button",
              class: "sdr-confirm",
              "data-testid": "confirm",
              "data-action": JSON.stringify({ type: "play", value: selected }),
              text: t("sdr.play", { value: selected }),
              onclick: () => play(selected),
            }),
          );
          const from = v.positions[rider];
          const fallback = t("sdr.fallback", { from, to: from + selected });
          bar.append(el("span", { class: "sdr-preview", text: p ? previewText(p, selected) : fallback }));
          bar.append(el("button", { type: "button", class: "sdr-cancel", text: t("sdr.cancel"), onclick: () => { selected = null; drawBoard(); renderHands(); } }));
        }
        row.append(bar);
      }
      handBox.append(row);
    }
    if (waiting) {
      handBox.prepend(el("div", { class: "sdr-hint", text: t("sdr.played") }));
      turnLine.classList.remove("sdr-your-turn");
    }
  }

  // -- turn line, riders, sprints, results, series ----------------------------------------------

  function renderTurn() {
    const v = view;
    turnLine.replaceChildren();
    if (v.phase === "over") {
      turnLine.append(el("strong", { text: t("sdr.turn.over") }), " " + t("sdr.turn.seeTable"));
      return;
    }
    const bot = standIn();
    turnLine.classList.toggle("sdr-bot", Boolean(bot));
    if (bot) {
      turnLine.classList.remove("sdr-your-turn");
      turnLine.append(ctx.standInLine());
      if (v.current < 0) return;
      // Whose rider moves, below: the bot's when it is yours.
      turnLine.append(el("div", { class: "sdr-turn-sub" }, riderLabel(v.current), " " + t("sdr.turn.toMove", { space: v.positions[v.current] })));
      return;
    }
    if (v.current < 0) return;
    const legal = legalValues();
    if (legal.length) {
      turnLine.classList.add("sdr-your-turn");
      turnLine.append(el("strong", { text: t("sdr.turn.yours") + " " }), riderLabel(v.current), " " + t("sdr.turn.movesFrom", { space: v.positions[v.current] }));
    } else {
      turnLine.classList.remove("sdr-your-turn");
      turnLine.append(riderLabel(v.current), " " + t("sdr.turn.toMove", { space: v.positions[v.current] }));
    }
    if (v.final_queue) {
      turnLine.append(
        el("span", {
          class: "sdr-final",
          text: v.final_queue.length
            ? " " + t("sdr.turn.lastTurns", { riders: [v.current, ...v.final_queue].filter((r, i, a) => a.indexOf(r) === i).map(riderName).join(", ") })
            : " " + t("sdr.turn.lastTurn"),
        }),
      );
    }
  }

  function renderInfo() {
    const v = view;
    infoBox.replaceChildren();
    // The riders, leader first.
    const crossed = new Map((v.finishers || []).map((r, i) => [r, i]));
    const riders = v.positions.map((_, r) => r);
    riders.sort((a, b) => (crossed.has(a) ? crossed.get(a) : 99) - (crossed.has(b) ? crossed.get(b) : 99) || v.positions[b] - v.positions[a] || a - b);
    const tbl = el("table", { class: "sdr-table sdr-riders-table" });
    tbl.append(el("caption", { text: v.phase === "over" ? t("sdr.riders.end") : t("sdr.riders.race", { race: v.race + 1 }) }));
    tbl.append(el("thead", {}, el("tr", {}, quietHead("sdr.col.place"), ...[t("sdr.col.rider"), t("sdr.col.space"), t("sdr.col.cards"), t("sdr.col.sprintPts")].map((h) => el("th", { scope: "col", text: h })), quietHead("sdr.col.notes"))));
    const body = el("tbody");
    riders.forEach((r, i) => {
      let pts = 0;
      v.sprint_order.forEach((order, i) => {
        const k = order.indexOf(r);
        if (k >= 0) pts += v.sprint_points[i][k];
      });
      const notes = [];
      if (crossed.has(r)) notes.push(t("sdr.note.crossed", { place: ordinal(crossed.get(r) + 1) }));
      if (v.crashed[r]) notes.push(t("sdr.note.crashed"));
      if (r === v.current && v.phase === "race") notes.push(t("sdr.note.toMove"));
      if (v.phase === "race" && !v.hand_sizes[r]) notes.push(t("sdr.note.noCards"));
      const grey = v.drawn && v.drawn[r];
      body.append(
        el(
          "tr",
          { class: mine(r) ? "sdr-mine-row" : null },
          el("td", { text: `${i + 1}.` }),
          el("td", {}, riderLabel(r)),
          el("td", { class: "num", text: v.positions[r] >= v.line ? "✓" : String(v.positions[r]) }),
          el("td", { class: "num" }, el("span", { class: grey ? "sdr-grey-count" : null, title: grey ? t("sdr.greyCards") : t("sdr.greenCards"), text: String(v.hand_sizes[r]) })),
          el("td", { class: "num", text: pts ? String(pts) : "·" }),
          el("td", { class: "sdr-note", text: notes.join(", ") }),
        ),
      );
    });
    tbl.append(body);
    infoBox.append(tbl);
    // Sprints.
    const sp = el("div", { class: "sdr-sprints" });
    (v.sprint_order || []).forEach((order, i) => {
      const line = el("div", { class: "sdr-sprint-line" }, el("strong", { text: t("sdr.sprintAt", { n: i + 1, space: v.sprints[i] }) + " " }));
      if (!order.length) line.append(el("span", { class: "sdr-dim", text: t("sdr.nobodyYet") }));
      order.forEach((r, k) => {
        const won = v.sprint_points[i][k];
        if (!won) return;
        line.append(riderLabel(r), el("span", { class: "sdr-pts", text: ` +${won}` }), k < order.length - 1 ? "  " : "");
      });
      sp.append(line);
    });
    sp.append(
      el("div", { class: "sdr-dim sdr-key" }, t("sdr.key", { sprints: config().sprint_points.join("/"), finish: config().finish_points.join("/"), max: config().max_laps_lost })),
    );
    infoBox.append(sp);
    // The latest race's sheet and the series.
    if (v.results && v.results.length) {
      infoBox.append(raceSheet(v.results.length - 1));
      infoBox.append(seriesTable());
    }
  }

  // A column's head that the column speaks for itself to the eye (places, notes): said to
  // screen readers only.
  function quietHead(key) {
    return el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: t(key) }));
  }

  function raceSheet(race) {
    const v = view;
    const results = v.results[race];
    const det = el("details", { class: "sdr-sheet", "data-testid": "race-result", open: v.phase === "over" || v.race === race + 1 ? true : null });
    det.append(el("summary", { text: t("sdr.sheet.title", { race: race + 1, races: v.races }) }));
    const tbl = el("table", { class: "sdr-table" });
    const heads = [t("sdr.col.rider"), ...v.sprints.map((_, i) => t("sdr.col.sprintNo", { n: i + 1 })), t("sdr.col.finish"), t("sdr.col.points"), t("sdr.col.lapsLost")];
    tbl.append(el("thead", {}, el("tr", {}, quietHead("sdr.col.place"), ...heads.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    const riders = results.map((_, r) => r).sort((a, b) => results[a].place - results[b].place || a - b);
    for (const r of riders) {
      const res = results[r];
      let total = frac(res.finish);
      for (const s of res.sprints) total = addFrac(total, [s, 1]);
      body.append(
        el(
          "tr",
          { class: mine(r) ? "sdr-mine-row" : null },
          el("td", { text: `${res.place}.` }),
          el("td", {}, riderLabel(r)),
          ...res.sprints.map((s) => el("td", { class: "num", text: s ? String(s) : "·" })),
          el("td", { class: "num", text: formatPoints(res.finish) }),
          el("td", { class: "num strong", text: formatPoints(total) }),
          el("td", { class: "num", text: res.laps ? String(res.laps) : "·" }),
        ),
      );
    }
    tbl.append(body);
    det.append(tbl);
    return det;
  }

  function seriesTable() {
    const v = view;
    const wrap = el("section", { class: "sdr-series", "data-testid": "series" });
    const played = v.results.length;
    wrap.append(el("h2", { text: tn("sdr.series.title", v.races, { played }) }));
    const tbl = el("table", { class: "sdr-table" });
    const heads = [t("sdr.col.player"), ...v.results.map((_, i) => t("sdr.col.raceNo", { n: i + 1 })), t("sdr.col.lapsLost"), t("sdr.col.points")];
    tbl.append(el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    const outcome = v.header && v.header.outcome;
    const winners = new Set(outcome ? outcome.winners : []);
    const seats = [...Array(v.players).keys()];
    if (outcome) seats.sort((a, b) => outcome.ranks[a] - outcome.ranks[b] || a - b);
    for (const p of seats) {
      const cells = v.results.map((res) => {
        let pts = [0, 1];
        let laps = 0;
        res.forEach((r, rider) => {
          if (rider % v.players !== p) return;
          pts = addFrac(pts, frac(r.finish));
          for (const s of r.sprints) pts = addFrac(pts, [s, 1]);
          laps += r.laps;
        });
        return el("td", { class: "num", text: `${formatPoints(pts)}${laps ? ` ${t("sdr.lapsMark", { n: laps })}` : ""}` });
      });
      body.append(
        el(
          "tr",
          { class: `${p === ctx.seat ? "sdr-mine-row" : ""}${winners.has(p) ? " sdr-winner" : ""}` },
          el("td", {}, el("span", { class: "sdr-chip", style: `--c:${COLOURS[p % COLOURS.length]}`, text: String(p + 1) }), ` ${seatName(p)}`, winners.has(p) ? el("strong", { class: "sdr-won", text: ` ★ ${t("sdr.winner")}` }) : null),
          ...cells,
          el("td", { class: "num strong", text: String(v.laps[p]) }),
          el("td", { class: "num strong", text: formatPoints(v.points[p]) }),
        ),
      );
    }
    tbl.append(body);
    wrap.append(tbl);
    wrap.append(
      el("p", {
        class: "sdr-dim",
        text: v.races > 1 ? t("sdr.series.rule") : t("sdr.series.oneRace"),
      }),
    );
    return wrap;
  }

  // -- events ---------------------------------------------------------------------------------

  function readEvents(events) {
    const notes = [];
    let moved = null;
    const v = view;
    for (const e of events || []) {
      if (e.kind === "race_started") {
        lastPlay = null;
        notes.length = 0;
        notes.push({ kind: "race", s: 0.5, text: t("sdr.notes.raceStarts", { race: e.race }) });
      } else if (e.kind === "card_played") {
        moved = e;
        notes.length = 0;
        if (e.multiplier > 1) notes.push({ kind: "slipstream", s: e.first + 0.5, text: t("sdr.notes.slipstream", { times: e.multiplier }) });
        else if (e.riders_there && e.special) notes.push({ kind: "no-slip", s: e.first + 0.5, text: t("sdr.notes.noSlipstream") });
      } else if (e.kind === "sprint") {
        const line = v.sprints[e.sprint - 1];
        notes.push({ kind: "sprint", s: line, text: `${riderName(e.rider)} +${e.points}`, stack: notes.filter((n) => n.kind === "sprint").length });
      } else if (e.kind === "crossed_line") {
        notes.push({ kind: "finish", s: 0, text: e.place === 1 ? t("sdr.notes.wins", { rider: riderName(e.rider) }) : `${riderName(e.rider)} ${ordinal(e.place)}` });
      } else if (e.kind === "rider_change") {
        notes.push({ kind: "change", s: v.rider_change + 0.5, text: t("sdr.notes.change", { rider: riderName(e.rider) }) });
      } else if (e.kind === "crash") {
        notes.push({ kind: "crash", s: v.crash + 0.5, text: t("sdr.notes.crash", { rider: riderName(e.rider) }) });
      } else if (e.kind === "turn_lost") {
        notes.push({ kind: "crash", s: v.positions[e.rider] + 0.5, text: t("sdr.notes.sitsOut", { rider: riderName(e.rider) }) });
      } else if (e.kind === "race_scored") {
        notes.push({ kind: "race", s: 0, text: t(raceEnded(e) === "sd.ev.why.empty" ? "sdr.notes.raceOver.empty" : "sdr.notes.raceOver", { race: e.race }) });
      }
    }
    if (moved) lastPlay = moved;
    // Once a race is scored, only that is worth a note; once the series is over, nothing.
    const scored = notes.filter((n) => n.kind === "race" && n.s === 0);
    callouts = (scored.length ? scored : notes).slice(-3);
    if (v.phase === "over") callouts = [];
    freshNotes = notes.length > 0;
    return moved;
  }

  function layoutMode() {
    const w = root.clientWidth || window.innerWidth;
    return w < 620;
  }

  function show(item) {
    sent = false;
    clearTimeout(sentTimer);
    view = item.view;
    if (!legalValues().includes(selected)) selected = null;
    const moved = readEvents(item.events);
    upright = layoutMode();
    const board = drawBoard();
    renderTurn();
    renderHands();
    renderInfo();
    let wait = 0;
    if (moved && !item.initial && !reduced() && !item.skipAnimation) {
      const cells = Math.max(1, Math.min(moved.to, view.line) - moved.from);
      wait = animateMove(board, moved, Math.min(1100, 200 + cells * 45));
    }
    return wait;
  }

  function pump() {
    if (busy || destroyed || !queue.length) return;
    const item = queue.shift();
    // Behind by several updates: draw them without animation so the table catches up.
    if (queue.length > 2) item.skipAnimation = true;
    const wait = show(item);
    if (wait > 0) {
      busy = true;
      setTimeout(() => {
        busy = false;
        pump();
      }, wait + 120);
    } else pump();
  }

  const onResize = () => {
    if (view && layoutMode() !== upright) {
      upright = layoutMode();
      drawBoard();
    }
  };
  window.addEventListener("resize", onResize);
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && selected !== null) {
      selected = null;
      drawBoard();
      renderHands();
    }
  });

  return {
    update(v, events, opts = {}) {
      queue.push({ view: v, events: events || [], initial: !!opts.initial });
      pump();
    },
    /** Draw the turn line and your hand again (the stand-in bot came or went). */
    refresh() {
      if (destroyed || !view) return;
      if (selected !== null && !legalValues().includes(selected)) {
        selected = null;
        if (!busy) drawBoard(); // the selected card's landing goes; a move in flight stays
      }
      renderTurn();
      renderHands();
    },
    destroy() {
      destroyed = true;
      clearTimeout(sentTimer);
      window.removeEventListener("resize", onResize);
      root.replaceChildren();
      root.classList.remove("sdr");
    },
  };
}

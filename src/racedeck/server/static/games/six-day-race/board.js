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

import { el, partName, svg } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { ordinal, raceEnded } from "./words.js";

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

// Geometry: a wide oval for desktops, a compact upright one for phones. `margin` is the room
// around the track for the labels outside it and for a crowd of riders fanned out over its
// edges; `pawn` is a rider's radius.
const WIDE = { w: 1000, h: 540, half: 300, radius: 188, track: 66, start: 90, margin: 46, pawn: 13 };
const TALL = { w: 720, h: 430, half: 130, radius: 158, track: 62, start: 60, margin: 44, pawn: 16 };

// Type sizes (user units of the oval) and weights. The upright oval is drawn smaller on a
// phone: larger type keeps it readable. Sizes are set on the text itself, so that a label is
// measured (to find it room) exactly as it is drawn.
const TYPE = {
  wide: { number: 13, line: 15, lap: 13, special: 14, sub: 11, title: 30, titleSub: 15, callout: 15, badge: 12, finished: 13 },
  tall: { number: 17, line: 18, lap: 16, special: 17, sub: 14, title: 30, titleSub: 15, callout: 17, badge: 14, finished: 15 },
};
const WEIGHT = { number: 600, line: 800, lap: 700, special: 800, sub: 500, title: 800, titleSub: 500, callout: 800, badge: 800, finished: 700 };
const FONT = "system-ui, sans-serif";

let measurer;
/** The width of `text` as the board draws it (canvas and SVG share the browser's fonts). */
function textWidth(text, size, weight) {
  if (measurer === undefined) measurer = document.createElement("canvas").getContext("2d");
  if (!measurer) return String(text).length * size * 0.62;
  measurer.font = `${weight} ${size}px ${FONT}`;
  return measurer.measureText(String(text)).width;
}

/** A label's type as attributes of its text: it is drawn as it was measured, whether or not
 * the style sheet has arrived yet. */
function typeface(kind, size) {
  return { "font-family": FONT, "font-weight": WEIGHT[kind], "font-size": size, "text-anchor": "middle", "dominant-baseline": "central" };
}

/** A label's box: a line of text, centred on its point (dominant-baseline: central). */
function textBox(text, size, weight) {
  return { w: textWidth(text, size, weight) + 2, h: size * 1.3 };
}

const boxAt = (x, y, w, h) => ({ x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2 });

/** True when the segment from a to b passes through box r (sampled: lines here are short). */
function crosses(a, b, r) {
  const n = Math.max(2, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y) / 4));
  for (let i = 1; i < n; i++) {
    const x = a.x + ((b.x - a.x) * i) / n;
    const y = a.y + ((b.y - a.y) * i) / n;
    if (x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1) return true;
  }
  return false;
}

/** The free room on the picture: what is drawn so far (riders, then labels) takes its box,
 * and a label goes only where its box meets none of them. */
class Room {
  constructor(frame) {
    this.frame = frame;
    this.taken = [];
  }

  fits(b, pad) {
    const f = this.frame;
    if (b.x0 < f.x0 + 1 || b.y0 < f.y0 + 1 || b.x1 > f.x1 - 1 || b.y1 > f.y1 - 1) return false;
    return !this.taken.some((t) => t.x0 < b.x1 + pad && b.x0 < t.x1 + pad && t.y0 < b.y1 + pad && b.y0 < t.y1 + pad);
  }

  take(b) {
    this.taken.push(b);
    return b;
  }
}

class Oval {
  constructor(line, upright) {
    this.g = upright ? TALL : WIDE;
    this.upright = upright;
    this.line = line;
    this.perimeter = 4 * this.g.half + 2 * Math.PI * this.g.radius;
    this.cell = this.perimeter / line;
    this.track = this.g.track;
    // The picture: the track's outer edge and the margin around it.
    const { w, h, half, radius, track, margin } = this.g;
    const along = half + radius + track / 2 + margin;
    const across = radius + track / 2 + margin;
    const [ax, ay] = upright ? [across, along] : [along, across];
    const [cx, cy] = upright ? [h / 2, w / 2] : [w / 2, h / 2];
    this.frame = { x0: cx - ax, y0: cy - ay, x1: cx + ax, y1: cy + ay };
  }

  get mid() {
    return { x: (this.frame.x0 + this.frame.x1) / 2, y: (this.frame.y0 + this.frame.y1) / 2 };
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

  /** The point at arc length s, `off` outward from the centre line, with the racing direction
   * (tx, ty) and the outward normal (nx, ny), in screen coordinates (the upright oval is the
   * wide one turned a quarter). */
  frameAt(s, off = 0) {
    const c = this.centreAt(s);
    const x = c.x + c.nx * off;
    const y = c.y + c.ny * off;
    const tx = c.ny; // the racing direction: the outward normal turned a quarter
    const ty = -c.nx;
    if (!this.upright) return { x, y, tx, ty, nx: c.nx, ny: c.ny };
    // (x, y) -> (h - y, x) turns a vector (vx, vy) into (-vy, vx).
    return { x: this.g.h - y, y: x, tx: -ty, ty: tx, nx: -c.ny, ny: c.nx };
  }

  at(s, off = 0) {
    const f = this.frameAt(s, off);
    return { x: f.x, y: f.y };
  }

  centre(space, off = 0) {
    return this.at((space + 0.5) * this.cell, off);
  }

  /** The centre of a w×h box `gap` clear of the track's edge at arc length s: outside the
   * track for side 1, in the infield for side -1. */
  hug(s, side, w, h, gap) {
    const f = this.frameAt(s, (side * this.track) / 2);
    const d = gap + (Math.abs(f.nx) * w + Math.abs(f.ny) * h) / 2;
    return { x: f.x + side * f.nx * d, y: f.y + side * f.ny * d };
  }

  /** Distance from a screen point to the oval's axis (the segment joining the bends' centres). */
  axisDistance(x, y) {
    const { w, h, half } = this.g;
    const [X, Y] = this.upright ? [y, h - x] : [x, y];
    return Math.hypot(Math.max(0, Math.abs(X - w / 2) - half), Y - h / 2);
  }

  /** "in" when the box lies wholly in the infield, "out" when wholly outside the track, else
   * null (it would hide part of the track). */
  offTrack(b, pad = 2) {
    const inner = this.g.radius - this.track / 2 - pad;
    const outer = this.g.radius + this.track / 2 + pad;
    const corners = [[b.x0, b.y0], [b.x1, b.y0], [b.x0, b.y1], [b.x1, b.y1]];
    if (corners.every(([x, y]) => this.axisDistance(x, y) <= inner)) return "in"; // the infield is convex
    // Outside is not convex: look along the box's edges too.
    const nx = Math.max(1, Math.ceil((b.x1 - b.x0) / 8));
    const ny = Math.max(1, Math.ceil((b.y1 - b.y0) / 8));
    for (let i = 0; i <= nx; i++) {
      const x = b.x0 + ((b.x1 - b.x0) * i) / nx;
      if (this.axisDistance(x, b.y0) < outer || this.axisDistance(x, b.y1) < outer) return null;
    }
    for (let j = 0; j <= ny; j++) {
      const y = b.y0 + ((b.y1 - b.y0) * j) / ny;
      if (this.axisDistance(b.x0, y) < outer || this.axisDistance(b.x1, y) < outer) return null;
    }
    // A box can still hold the whole track between its edges: then its centre is on it.
    const cx = (b.x0 + b.x1) / 2;
    const cy = (b.y0 + b.y1) / 2;
    return this.axisDistance(cx, cy) < outer ? null : "out";
  }

  /** The infield's width (across the oval). */
  get infieldWidth() {
    return 2 * this.g.radius - this.track;
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

/** Where riders sharing a space stand, in pawn pitches along the track and across it: side by
 * side across the lane (two fit in it), a second column behind when there are three or more,
 * more across (over the track's edges) for a crowd such as the start. */
function fan(n) {
  const rows = n <= 4 ? Math.min(n, 2) : Math.min(4, Math.ceil(n / 2));
  const cols = Math.ceil(n / rows);
  const out = [];
  for (let i = 0; i < n; i++) {
    const col = Math.floor(i / rows);
    const inCol = Math.min(rows, n - col * rows);
    out.push({ along: (cols - 1) / 2 - col, across: (i % rows) - (inCol - 1) / 2 });
  }
  return out;
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
    const type = upright ? TYPE.tall : TYPE.wide;
    const f = oval.frame;
    const g = svg("svg", {
      viewBox: `${f.x0} ${f.y0} ${f.x1 - f.x0} ${f.y1 - f.y0}`,
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
    // Laps-lost marks (the black hash marks of the board): behind mark k a rider loses k laps.
    // The view's header carries the whole configuration (every option, defaults included).
    const cfg = config();
    const lapMarks = [];
    const marks = svg("g", { class: "sdr-lapmarks" });
    for (let k = 1; k <= cfg.max_laps_lost; k++) {
      const b = v.line - k * cfg.lap_spaces + 1;
      if (b <= 0) break;
      const outer = oval.at(b * oval.cell, oval.track / 2 + 4);
      const inner = oval.at(b * oval.cell, oval.track / 4);
      marks.append(svg("line", { x1: outer.x, y1: outer.y, x2: inner.x, y2: inner.y }));
      lapMarks.push([k, b]);
    }
    g.append(marks);
    // Sprint lines and the start/finish line.
    for (const s of v.sprints) g.append(svg("line", { ...oval.across(s, 6), class: "sdr-sprint" }));
    const fin = oval.across(0, 6);
    g.append(svg("line", { ...fin, class: "sdr-finish-bg" }));
    g.append(svg("line", { ...fin, class: "sdr-finish" }));
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
    // Lines from a note to the place it is about, under the riders.
    const leaders = svg("g", { class: "sdr-leaders", "aria-hidden": "true" });
    g.append(leaders);

    // What is drawn takes room: first the riders, then every label in turn where it is free,
    // so that no label hides a rider, a space number or another label.
    const room = new Room(f);
    const put = (w, h, candidates, where = null, pad = 3) => {
      for (const c of candidates) {
        const b = boxAt(c.x, c.y, w, h);
        if (!room.fits(b, pad)) continue;
        const side = oval.offTrack(b);
        if (!side || (where && side !== where)) continue;
        room.take(b);
        return c;
      }
      return null;
    };
    // Beside the track at arc length s (side 1 outside it, -1 in the infield), nearest first.
    const beside = (s, side, w, h, { gaps = [4, 10, 18, 28, 40], reach = 40, step = 8 } = {}) => {
      const out = [];
      for (const gap of gaps) {
        for (let d = 0; d <= reach; d += step) {
          for (const k of d ? [d, -d] : [0]) out.push({ cost: gap + Math.abs(k), p: oval.hug(s + k, side, w, h, gap) });
        }
      }
      return out.sort((a, b) => a.cost - b.cost).map((o) => o.p);
    };
    // Anywhere on the picture, nearest `from` first.
    const grid = [];
    for (let x = f.x0 + 6; x < f.x1; x += 12) for (let y = f.y0 + 6; y < f.y1; y += 12) grid.push({ x, y });
    const near = (from) => grid.map((p) => ({ p, d: Math.hypot(p.x - from.x, p.y - from.y) })).sort((a, b) => a.d - b.d).map((o) => o.p);
    const write = (parent, x, y, text, kind, cls, size = type[kind]) =>
      parent.append(svg("text", { x: x.toFixed(1), y: y.toFixed(1), class: cls, ...typeface(kind, size), text }));

    // Riders on the track (those past the line wait in the infield). Riders sharing a space
    // stand side by side across the lane (fan), so each stays in sight.
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
    const size = oval.g.pawn;
    const pitch = 2 * size + 5;
    for (const [space, riders] of at) {
      const c = oval.frameAt((space + 0.5) * oval.cell);
      const spread = fan(riders.length);
      riders.forEach((r, i) => {
        const { along, across } = spread[i];
        const pt = { x: c.x + (c.tx * along + c.nx * across) * pitch, y: c.y + (c.ty * along + c.ny * across) * pitch };
        spots.set(r, pt);
        room.take(boxAt(pt.x, pt.y, 2 * size + 4, 2 * size + 4));
        ridersG.append(riderToken(r, pt, size, type));
      });
    }
    // Finished riders in the infield by the line, in crossing order, four to a row, each with
    // its place below it.
    const labels = svg("g", { class: "sdr-labels" });
    const finishers = v.finishers || [];
    if (finishers.length) {
      const fs = size - 2;
      const places = finishers.map((_, i) => ordinal(i + 1));
      const colW = Math.max(2 * fs + 8, ...places.map((p) => textWidth(p, type.badge, WEIGHT.badge) + 8));
      const rowH = 2 * fs + type.badge * 1.3 + 6;
      const head = textBox(t("sdr.crossedLabel"), type.finished, WEIGHT.finished);
      const cols = Math.min(4, finishers.length);
      const rows = Math.ceil(finishers.length / 4);
      const w = Math.max(cols * colW, head.w);
      const h = head.h + 2 + rows * rowH;
      const spot =
        put(w, h, beside(0, -1, w, h, { gaps: [6, 14, 24, 36, 50], reach: 60, step: 12 }), "in") ||
        put(w, h, near(oval.hug(0, -1, w, h, 6)), "in") ||
        oval.hug(0, -1, w, h, 6);
      const top = spot.y - h / 2;
      write(labels, spot.x, top + head.h / 2, t("sdr.crossedLabel"), "finished", "sdr-finished-label");
      finishers.forEach((r, i) => {
        const row = Math.floor(i / 4);
        const inRow = Math.min(4, finishers.length - row * 4);
        const pt = { x: spot.x + ((i % 4) - (inRow - 1) / 2) * colW, y: top + head.h + 2 + row * rowH + fs + 2 };
        spots.set(r, pt);
        ridersG.append(riderToken(r, pt, fs, type, places[i]));
      });
    }
    g.append(ridersG);
    g.append(labels);
    // Space numbers on the infield side, every fifth space (further in, or outside, where
    // riders stand; left out only when a crowd fills both sides).
    const numbers = svg("g", { class: "sdr-numbers", "aria-hidden": "true" });
    for (let p = 0; p < v.line; p += 5) {
      const { w, h } = textBox(String(p), type.number, WEIGHT.number);
      const s = (p + 0.5) * oval.cell;
      const spot = put(w, h, [
        ...beside(s, -1, w, h, { gaps: [3, 9, 16, 24, 34, 46], reach: 0 }),
        ...beside(s, 1, w, h, { gaps: [3, 9, 16], reach: 0 }),
      ]);
      if (spot) write(numbers, spot.x, spot.y, String(p), "number", null);
    }
    g.append(numbers);
    // A label by a line across the track: outside it if there is room, else in the infield.
    const byLine = (s, text, kind, cls) => {
      const { w, h } = textBox(text, type[kind], WEIGHT[kind]);
      const spot =
        put(w, h, [...beside(s, 1, w, h, { gaps: [4, 10, 18], reach: 24, step: 8 }), ...beside(s, -1, w, h, { gaps: [4, 10, 18, 28], reach: 48, step: 8 })]) ||
        put(w, h, near(oval.at(s, 0)));
      if (spot) write(labels, spot.x, spot.y, text, kind, cls);
    };
    byLine(0, t("sdr.startFinish"), "line", "sdr-finish-label");
    v.sprints.forEach((s, i) => byLine(s * oval.cell, t("sdr.sprint", { n: i + 1 }), "line", "sdr-sprint-label"));
    for (const [k, b] of lapMarks) {
      const text = t("sdr.lapsMark", { n: k });
      const { w, h } = textBox(text, type.lap, WEIGHT.lap);
      const s = (b - 0.4) * oval.cell;
      const spot = put(w, h, [...beside(s, 1, w, h, { gaps: [3, 8, 14], reach: 16, step: 4 }), ...beside(s, -1, w, h, { gaps: [3, 8, 14], reach: 16, step: 4 })], null, 2);
      if (spot) write(marks, spot.x, spot.y, text, "lap", null);
    }
    // Names of the special spaces, in the infield by their space.
    for (const [space, name, cls, subKey] of [
      [v.rider_change, "FAHRERWECHSEL", "change", "sdr.changeSub"],
      [v.crash, "STURZ", "crash", "sdr.crashSub"],
    ]) {
      const top = textBox(name, type.special, WEIGHT.special);
      const bottom = textBox(t(subKey), type.sub, WEIGHT.sub);
      const w = Math.max(top.w, bottom.w);
      const h = top.h + bottom.h;
      const s = (space + 0.5) * oval.cell;
      const spot =
        put(w, h, beside(s, -1, w, h, { gaps: [4, 10, 18, 28, 40, 54, 70], reach: 2 * oval.cell, step: 10 }), "in") ||
        put(w, h, near(oval.hug(s, -1, w, h, 4))) ||
        null;
      if (!spot) continue;
      write(labels, spot.x, spot.y - h / 2 + top.h / 2, name, "special", `sdr-special-label sdr-${cls}-label`);
      write(labels, spot.x, spot.y + h / 2 - bottom.h / 2, t(subKey), "sub", "sdr-special-sub");
    }
    // The title in the middle of the infield; it gives way to the notes when they find no
    // other room there (the race is named above the riders' table too).
    const raceNo = Math.min(v.race + 1, v.races);
    const titleText = v.phase === "over" ? t("sdr.seriesOver") : t("sdr.raceOf", { race: raceNo, races: v.races });
    const subText = t("sdr.oneLap", { spaces: v.line });
    const titleBox = textBox(titleText, type.title, WEIGHT.title);
    const subBox = textBox(subText, type.titleSub, WEIGHT.titleSub);
    const titleW = Math.max(titleBox.w, subBox.w);
    const titleH = titleBox.h + subBox.h;
    let titleAt = put(titleW, titleH, near(oval.mid).slice(0, 60), "in", 6);
    const titleTaken = room.taken.at(-1);
    const dropTitle = () => {
      if (!titleAt) return false;
      room.taken.splice(room.taken.indexOf(titleTaken), 1);
      titleAt = null;
      return true;
    };
    // The selected card: the space it brings the rider to first (before any slipstream).
    if (selected !== null && v.current >= 0 && legalValues().includes(selected)) {
      const first = v.positions[v.current] + selected;
      const pt = first < v.line ? oval.centre(first) : oval.at(0, 0);
      const ghost = svg("g", { class: "sdr-ghost", transform: `translate(${pt.x.toFixed(1)},${pt.y.toFixed(1)})` });
      ghost.append(svg("circle", { r: 17 }));
      ghost.append(svg("text", { y: 5, text: `+${selected}` }));
      g.append(ghost);
    }
    // Notes from the latest events: in the infield near where they happened (a line leads
    // there when the note had to stand further off), never on a rider or another label.
    const notes = svg("g", { class: "sdr-callouts" });
    callouts.forEach((c, i) => {
      const s = c.s * oval.cell;
      let fontSize = type.callout;
      let w = textWidth(c.text, fontSize, WEIGHT.callout) + 2 * Math.round(fontSize * 0.75);
      const fit = oval.infieldWidth - 16;
      if (w > fit) {
        // A long note (a long name, another language) is set smaller to fit in the infield.
        fontSize = Math.max(11, (fontSize * fit) / w);
        w = textWidth(c.text, fontSize, WEIGHT.callout) + 2 * Math.round(fontSize * 0.75);
      }
      const h = Math.round(fontSize * 1.3) + 10;
      const from = oval.hug(s, -1, w, h, 6);
      const inside = () =>
        put(w, h, beside(s, -1, w, h, { gaps: [6, 14, 24, 36, 50, 66], reach: 72, step: 12 }), "in") ||
        put(w, h, near(from), "in");
      const spot = inside() || (dropTitle() && inside()) || put(w, h, near(from)) || from;
      const box = boxAt(spot.x, spot.y, w, h);
      const side = oval.offTrack(box) === "out" ? 1 : -1;
      const anchor = oval.at(s, (side * oval.track) / 2);
      const end = { x: Math.min(Math.max(anchor.x, box.x0), box.x1), y: Math.min(Math.max(anchor.y, box.y0), box.y1) };
      // The line is left out where it would cross another label or a rider.
      const others = room.taken.filter((b) => b.x0 !== box.x0 || b.y0 !== box.y0);
      if (Math.hypot(end.x - anchor.x, end.y - anchor.y) > 10 && !others.some((b) => crosses(anchor, end, b))) {
        leaders.append(svg("line", { x1: anchor.x.toFixed(1), y1: anchor.y.toFixed(1), x2: end.x.toFixed(1), y2: end.y.toFixed(1), class: `sdr-leader sdr-callout-${c.kind}` }));
      }
      const gNote = svg("g", {
        class: `sdr-callout sdr-callout-${c.kind}${freshNotes ? " sdr-callout-new" : ""}`,
        transform: `translate(${spot.x.toFixed(1)},${spot.y.toFixed(1)})`,
        "data-testid": "callout",
        "data-kind": c.kind,
      });
      gNote.append(svg("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: h / 2 }));
      write(gNote, 0, 0, c.text, "callout", null, fontSize.toFixed(1));
      gNote.style.animationDelay = `${i * 80}ms`;
      notes.append(gNote);
    });
    g.append(notes);
    freshNotes = false; // redrawn later (a card selected): the notes stay still
    if (titleAt) {
      write(labels, titleAt.x, titleAt.y - titleH / 2 + titleBox.h / 2, titleText, "title", "sdr-infield-title");
      write(labels, titleAt.x, titleAt.y + titleH / 2 - subBox.h / 2, subText, "titleSub", "sdr-infield-sub");
    }
    boardBox.replaceChildren(g);
    return { oval, spots };
  }

  function riderToken(r, pt, size, type, badge) {
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
    g.append(svg("text", { y: size * 0.36, class: "sdr-token-text", "font-size": size * 1.05, "text-anchor": "middle", text: riderMark(r) }));
    // A finisher's place, below it (the finishers' rows leave room for it).
    if (badge) g.append(svg("text", { x: 0, y: size + type.badge * 0.65 + 2, class: "sdr-token-badge", ...typeface("badge", type.badge), text: badge }));
    // A crashed rider: a red cross on the rim of its disc, clear of its neighbours.
    if (v.crashed && v.crashed[r]) {
      const m = svg("g", { class: "sdr-crash-mark", transform: `translate(${(size * 0.68).toFixed(1)},${(-size * 0.68).toFixed(1)})` });
      m.append(svg("circle", { r: (size * 0.38).toFixed(1) }));
      const k = (size * 0.2).toFixed(1);
      m.append(svg("path", { d: `M-${k},0H${k}M0,-${k}V${k}` }));
      g.append(m);
    }
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
  // The board's own width decides (the page around it may still be settling at the first
  // draw): redraw when it crosses the phone's width.
  const resizer = window.ResizeObserver ? new ResizeObserver(onResize) : null;
  if (resizer) resizer.observe(root);
  else window.addEventListener("resize", onResize);
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
      if (resizer) resizer.disconnect();
      else window.removeEventListener("resize", onResize);
      root.replaceChildren();
      root.classList.remove("sdr");
    },
  };
}

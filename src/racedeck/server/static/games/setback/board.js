// Setback in the browser: the grid from START to FINISH, the tokens, your hand, and menus that
// offer only the legal (card, target, lane) choices of the view.
//
// Renderer interface (see docs/protocol.md): createRenderer(root, ctx) -> {update, destroy},
// plus refresh() (the stand-in bot came or went), sealed(move, action) (the welcome gave back
// this seat's answer to the open window) and refused() (the server refused the last action).
// The view is the engine's JSON view (docs/json.md, "Setback view") with its "header". Nothing
// here re-derives a rule: where a card lands or whether a token is protected is shown only when
// the view says so (optional helper fields), never computed here.
//
// BLOCK windows (SB-9 amended): every seat the window asks sees the same prompt; a seat without
// a BLOCK simply has no BLOCK button (its legal actions hold "pass" only). Seats that are not
// asked see that a window is open and what was declared, never who is asked. An answer is
// sealed until the window closes: no frame comes back for it, so the page itself remembers it
// (and a reconnect gets it back in the welcome) and shows it instead of the buttons.
//
// Test hooks (data-testid), so a test can play a whole game by clicking legal choices:
//   data-testid="sb-board"     the SVG grid; data-testid="token" + data-seat, data-row, data-lane
//   data-testid="card"         a card you may play now (hand or board); data-card="FOE-1*"
//   data-testid="choice"       one complete legal action of the chosen card; data-action='<JSON>'
//   data-testid="action"       a one-click legal action (end, discard, block, pass, steps);
//                              data-action='<action JSON>'
//   data-testid="window"       the BLOCK window panel (the declared action and BLOCKs so far)
//   data-testid="prompt"       the question being asked of you
//   data-testid="sb-status"    whose turn and which part of it; the winner at the end; while the
//                              stand-in bot plays your seat, the shell's "stand-in" line first

import { el, partName, svg } from "../../dom.js";
import { t, tn } from "../../i18n.js";

const COLOURS = ["#d62828", "#1f5fd1", "#168a3a", "#c77800", "#7b2cbf", "#0f7c8c"];
const MOVEMENT = ["MOVE", "FOE", "ALL"];
// What an action card does, by kind (the message keys sbr.note.<kind>).
const ACTION_NOTES = new Set(["SHIFT", "TRADE", "CUT", "DRAW", "REVAMP", "SKIP", "BLOCK"]);
const ICONS = { SHIFT: "⇆", TRADE: "⇄", CUT: "✂", DRAW: "+2", REVAMP: "▥", SKIP: "»", BLOCK: "⊘" };

/** A card face name ("FOE-1*", "CUT") as {kind, amount, free}. */
export function parseCard(face) {
  const free = face.endsWith("*") || face === "DRAW";
  const t = face.replace("*", "");
  for (const kind of MOVEMENT) {
    if (t.startsWith(kind) && /^[+-][12]$/.test(t.slice(kind.length))) return { kind, amount: Number(t.slice(kind.length)), free };
  }
  return { kind: t, amount: 0, free };
}

function cardClass(face) {
  const c = parseCard(face);
  if (MOVEMENT.includes(c.kind)) return `sb-${c.amount > 0 ? "plus" : "minus"} sb-kind-${c.kind.toLowerCase()}`;
  return `sb-act sb-kind-${c.kind.toLowerCase()}`;
}

export function createRenderer(root, ctx) {
  // Read at each move: a change of the setting applies at once.
  const motionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const reduced = () => Boolean(motionQuery && motionQuery.matches);
  root.classList.add("sb");
  const status = el("div", { class: "sb-status", "data-testid": "sb-status", role: "status", "aria-live": "polite" });
  const boardBox = el("div", { class: "sb-board" });
  const side = el("div", { class: "sb-side" });
  const prompt = el("section", { class: "sb-prompt", "data-testid": "prompt", "aria-label": partName(ctx, t("sbr.yourChoice")) });
  const handBox = el("section", { class: "sb-hand", "aria-label": partName(ctx, t("sbr.yourHand")) });
  const players = el("section", { class: "sb-players", "aria-label": partName(ctx, t("sbr.players")) });
  // What you act on, kept on screen on a phone while it is your turn (the shell's "dock").
  side.append(el("div", { class: "sb-dock dock" }, prompt, handBox), players);
  root.replaceChildren(status, el("div", { class: "sb-main" }, boardBox, side));

  let view = null;
  let chosen = null; // the card face chosen in the menu (hand or board)
  let highlight = null; // {tokens: [...], lanes: [...]} while an option is hovered/focused
  let lastDeclared = null; // the latest declared action, with what became of it
  let sent = false; // an action is on its way: no second one until the next update
  let sentTimer = null;
  let answer = null; // {move, action}: this seat's sealed answer to the open window (SB-9)
  let queue = [];
  let busy = false;
  let destroyed = false;
  let previousSpots = new Map();

  // This seat has answered the window open now; nobody is sent anything about it until it
  // closes (SB-9).
  const answered = () => Boolean(answer && view && view.window_open && answer.move === view.header.move);
  const names = () => (view && view.header && view.header.seat_names) || ctx.names || [];
  const nameOf = (seat) => names()[seat] || `P${seat + 1}`;
  const colour = (seat) => COLOURS[seat % COLOURS.length];
  const isMe = (seat) => ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat;
  const you = (seat) => (isMe(seat) ? t("sbr.you") : nameOf(seat));
  // A message about a seat: its second-person form (key.you) for your own seat.
  const who = (seat, key, vars = {}) => (isMe(seat) ? t(`${key}.you`, vars) : t(`${key}.other`, { ...vars, name: nameOf(seat) }));
  const rows = () => view.grid.length;
  const lanes = () => (view.grid.length ? view.grid[0].length : 0);
  const config = () => (view.header && view.header.config) || ctx.options || {};
  // The stand-in bot's name while it plays your seat (you are offered nothing then), else null.
  const standIn = () => (ctx.standIn ? ctx.standIn() : null);
  const legalActions = () => (standIn() ? [] : view.legal_actions || []);

  function where(seat) {
    const [row, lane] = view.tokens[seat];
    if (row < 0) return "START";
    if (row >= rows()) return "FINISH";
    if (lane < 0) return t("sbr.where.noLane", { row: row + 1 });
    return t("sbr.where.at", { row: row + 1, lane: lane + 1 });
  }

  // Optional helper fields of the view: never computed here.
  function onBlock(seat) {
    const f = view.on_block || view.protected;
    return Array.isArray(f) ? !!f[seat] : null;
  }

  function landingOf(action) {
    const src = view.landings || view.previews;
    if (!src) return action.landing || action.to || null;
    const key = JSON.stringify(action);
    if (Array.isArray(src)) {
      const hit = src.find((p) => p.action && JSON.stringify(p.action) === key);
      return hit ? hit.landing ?? hit.to ?? hit.text : null;
    }
    return src[key] || null;
  }

  function landingText(l) {
    if (l === null || l === undefined) return "";
    if (typeof l === "string") return l;
    if (Array.isArray(l)) return l[0] < 0 ? "START" : l[0] >= rows() ? "FINISH" : t("sbr.row", { row: l[0] + 1 });
    if (l.text) return l.text;
    return "";
  }

  // -- words for actions ------------------------------------------------------------------------

  /** What a play does, in words, as its option button says it (whose view: ctx.seat). */
  function describePlay(play, by) {
    const c = parseCard(play.card);
    const tg = play.target;
    const hasTarget = tg !== undefined && tg >= 0;
    const lane = play.lane !== undefined && play.lane >= 0 ? play.lane : null;
    const amt = `${c.amount > 0 ? "+" : "−"}${Math.abs(c.amount)}`;
    switch (c.kind) {
      case "MOVE":
        if (lane !== null) return t(by === undefined ? "sbr.do.moveEnter.you" : "sbr.do.moveEnter.other", { amt, lane: lane + 1 });
        return t(by === undefined ? "sbr.do.move.you" : "sbr.do.move.other", { amt });
      case "FOE":
        if (!hasTarget) return t("sbr.do.foeNone");
        return lane !== null ? who(tg, "sbr.do.foeEnter", { amt, lane: lane + 1 }) : who(tg, "sbr.do.foe", { amt });
      case "ALL":
        return t("sbr.do.all", { amt });
      case "DRAW":
        return tn("sbr.do.draw", config().draw_count ?? 2);
      case "SKIP":
        return hasTarget ? who(tg, "sbr.do.skip") : t("sbr.do.skipSelf");
      case "SHIFT":
        return hasTarget ? who(tg, "sbr.do.shift", { lane: lane + 1 }) : t("sbr.do.shiftNone");
      case "TRADE":
        return hasTarget ? t("sbr.do.trade", { a: you(tg), b: you(play.other) }) : t("sbr.do.tradeNone");
      case "CUT":
        return hasTarget ? who(tg, "sbr.do.cut", { other: you(play.other) }) : t("sbr.do.cutNone");
      case "REVAMP":
        if (play.mode === "remove") return t("sbr.do.removeLane", { lane: lane + 1 });
        if (play.mode === "add-left") return t("sbr.do.addLeft");
        if (play.mode === "add-right") return t("sbr.do.addRight");
        return t("sbr.do.revampNone");
      default:
        return play.card;
    }
  }

  function declaredLine(decl) {
    const by = decl.player;
    const line = el("div", { class: "sb-declared" });
    const key = decl.source === "board" ? "sbr.declared.board" : "sbr.declared.plays";
    // What the stand-in bot declared for you is not yours to read as "You play".
    const bot = isMe(by) ? (decl.bot !== undefined ? decl.bot : standIn()) : null;
    line.append(tokenChip(by), " ");
    line.append(el("strong", { text: bot ? t(`${key}.bot`, { bot }) : who(by, key) }), " ");
    line.append(cardMini(decl.play.card), ": ");
    line.append(el("span", { text: describePlay(decl.play, by) }));
    return line;
  }

  // -- the board ------------------------------------------------------------------------------

  const CW = 118; // card width
  const CH = 78; // card height
  const GAP = 10;
  const LABEL = 54; // the row labels' column
  const BAR = 46; // START and FINISH bars

  function cardSvg(face, x, y, opts = {}) {
    const c = parseCard(face);
    const g = svg("g", { class: `sb-card ${cardClass(face)}${opts.lit ? " sb-lit" : ""}`, transform: `translate(${x},${y})` });
    g.append(svg("rect", { width: CW, height: CH, rx: 9, class: "sb-card-bg" }));
    if (MOVEMENT.includes(c.kind)) {
      g.append(svg("text", { x: 10, y: 24, class: "sb-card-kind", text: c.kind }));
      g.append(svg("text", { x: 10, y: 56, class: "sb-card-amount", text: `${c.amount > 0 ? "+" : "−"}${Math.abs(c.amount)}` }));
      // Arrows: green ones point at FINISH, red ones at START (SB-2).
      const n = Math.abs(c.amount);
      for (let i = 0; i < n; i++) {
        const ax = CW - 26 - i * 18; // top right, clear of the amount and of a token
        const d = c.amount > 0 ? `M${ax},24 l8,-14 l8,14 z` : `M${ax},10 l8,14 l8,-14 z`;
        g.append(svg("path", { d, class: "sb-arrow" }));
      }
    } else {
      g.append(svg("text", { x: 10, y: 24, class: "sb-card-kind", text: c.kind }));
      g.append(svg("text", { x: 12, y: 60, class: "sb-card-icon", text: ICONS[c.kind] || "" }));
    }
    if (c.free) {
      // Movement cards carry their arrows top right: their FREE mark goes under the amount.
      const [fx, fy] = MOVEMENT.includes(c.kind) ? [10, 62] : [CW - 44, 6];
      g.append(svg("rect", { x: fx, y: fy, width: 38, height: 14, rx: 7, class: "sb-free-bg" }));
      g.append(svg("text", { x: fx + 19, y: fy + 11, class: "sb-free", text: "FREE" }));
    }
    g.append(svg("title", { text: `${face}${c.free ? " (FREE)" : ""}: ${cardRule(c)}` }));
    return g;
  }

  /** What a card does, in a few words (every card's tooltip, in the hand and on the board). */
  function cardRule(c) {
    return MOVEMENT.includes(c.kind) ? describeMovementCard(c) : ACTION_NOTES.has(c.kind) ? t(`sbr.note.${c.kind}`) : "";
  }

  function describeMovementCard(c) {
    return t(`sbr.card.${c.kind}`, { amt: `${c.amount > 0 ? "+" : ""}${c.amount}` });
  }

  function drawBoard() {
    const v = view;
    const R = rows();
    const L = lanes();
    const width = LABEL + L * (CW + GAP);
    const height = BAR + GAP + R * (CH + GAP) + BAR;
    const g = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "sb-svg", role: "img", "aria-label": t("sbr.boardLabel", { rows: R, lanes: L }), "data-testid": "sb-board" });
    const laneX = (lane) => LABEL + lane * (CW + GAP);
    const rowY = (row) => BAR + GAP + (R - 1 - row) * (CH + GAP);
    const lit = highlight || { tokens: [], lanes: [] };
    // Lane highlights (a lane being chosen).
    for (const lane of lit.lanes || []) {
      if (lane < 0 || lane >= L) continue;
      g.append(svg("rect", { x: laneX(lane) - 4, y: BAR + 2, width: CW + 8, height: R * (CH + GAP) + GAP - 4, rx: 12, class: "sb-lane-lit" }));
    }
    // FINISH and START bars.
    g.append(svg("rect", { x: LABEL, y: 0, width: width - LABEL - GAP, height: BAR, rx: 10, class: "sb-finish" }));
    g.append(svg("text", { x: LABEL + 12, y: BAR / 2 + 6, class: "sb-bar-label", text: "FINISH" }));
    const startY = height - BAR;
    g.append(svg("rect", { x: LABEL, y: startY, width: width - LABEL - GAP, height: BAR, rx: 10, class: "sb-start" }));
    g.append(svg("text", { x: LABEL + 12, y: startY + BAR / 2 + 6, class: "sb-bar-label", text: "START" }));
    // Lane numbers and row labels.
    for (let lane = 0; lane < L; lane++) g.append(svg("text", { x: laneX(lane) + CW / 2, y: startY - 2, class: "sb-lane-no", text: "" }));
    for (let row = 0; row < R; row++) {
      g.append(svg("text", { x: LABEL - 10, y: rowY(row) + CH / 2 + 5, class: "sb-row-label", text: `${row + 1}` }));
    }
    // Cards.
    for (let row = 0; row < R; row++) {
      for (let lane = 0; lane < L; lane++) g.append(cardSvg(v.grid[row][lane], laneX(lane), rowY(row)));
    }
    // Tokens.
    const spots = new Map();
    const atStart = [];
    const atFinish = [];
    v.tokens.forEach(([row, lane], seat) => {
      if (row < 0) atStart.push(seat);
      else if (row >= R) atFinish.push(seat);
      else if (lane < 0) atStart.push(seat); // displaced by a REVAMP, waiting for a lane
      else spots.set(seat, { x: laneX(lane) + CW - 18, y: rowY(row) + CH - 20 });
    });
    const spread = (list, y) =>
      list.forEach((seat, i) => spots.set(seat, { x: LABEL + 124 + i * 40, y }));
    spread(atFinish, BAR / 2);
    spread(atStart, startY + BAR / 2);
    const tokensG = svg("g", { class: "sb-tokens" });
    for (const [seat, pt] of spots) {
      const cls = ["sb-token"];
      if (seat === v.current && v.phase !== "over") cls.push("sb-current");
      if (isMe(seat)) cls.push("sb-mine");
      if ((lit.tokens || []).includes(seat)) cls.push("sb-token-lit");
      const tok = svg("g", { class: cls.join(" "), transform: `translate(${pt.x},${pt.y})`, "data-testid": "token", "data-seat": seat, "data-row": v.tokens[seat][0], "data-lane": v.tokens[seat][1] });
      tok.append(svg("title", { text: `${nameOf(seat)}: ${where(seat)}` }));
      if ((lit.tokens || []).includes(seat)) tok.append(svg("circle", { r: 24, class: "sb-token-ring" }));
      if (seat === v.current && v.phase !== "over") tok.append(svg("circle", { r: 21, class: "sb-halo" }));
      tok.append(svg("circle", { r: 15, fill: colour(seat), class: "sb-disc" }));
      tok.append(svg("text", { y: 6, class: "sb-token-text", text: String(seat + 1) }));
      if (v.winner === seat) tok.append(svg("text", { x: 30, y: 8, class: "sb-crown", text: "★" }));
      tokensG.append(tok);
    }
    g.append(tokensG);
    if (v.rows_removed) {
      g.append(svg("text", { x: width - GAP - 10, y: startY + BAR / 2 + 5, class: "sb-removed", text: tn("sbr.rowsRemoved", v.rows_removed) }));
    }
    boardBox.replaceChildren(g);
    return spots;
  }

  function animateTokens(spots) {
    if (reduced()) return 0;
    let any = 0;
    for (const [seat, pt] of spots) {
      const old = previousSpots.get(seat);
      if (!old || (old.x === pt.x && old.y === pt.y)) continue;
      const node = boardBox.querySelector(`[data-testid="token"][data-seat="${seat}"]`);
      if (!node || !node.animate) continue;
      node.animate(
        [{ transform: `translate(${old.x}px,${old.y}px)` }, { transform: `translate(${pt.x}px,${pt.y}px)` }],
        { duration: 420, easing: "ease-in-out" },
      );
      any = 420;
    }
    return any;
  }

  // -- small HTML pieces ----------------------------------------------------------------------

  function tokenChip(seat) {
    return el("span", { class: "sb-chip", style: `--c:${colour(seat)}`, "aria-hidden": "true", text: String(seat + 1) });
  }

  function cardMini(face) {
    const c = parseCard(face);
    const amt = MOVEMENT.includes(c.kind) ? `${c.amount > 0 ? "+" : "−"}${Math.abs(c.amount)}` : "";
    return el(
      "span",
      { class: `sb-mini ${cardClass(face)}` },
      el("span", { class: "sb-mini-kind", text: c.kind }),
      amt ? el("span", { class: "sb-mini-amt", text: amt }) : null,
      c.free ? el("span", { class: "sb-mini-free", text: "FREE" }) : null,
    );
  }

  function handCard(face, playable, selected, count = 1) {
    const c = parseCard(face);
    const amt = MOVEMENT.includes(c.kind) ? `${c.amount > 0 ? "+" : "−"}${Math.abs(c.amount)}` : ICONS[c.kind] || "";
    const inner = [
      el("span", { class: "sb-hc-kind", text: c.kind }),
      // An action card's symbol (not DRAW's +2) and a movement card's arrows are pictures of what
      // the name says.
      el("span", { class: "sb-hc-amt", text: amt, "aria-hidden": /[0-9]/.test(amt) ? null : "true" }),
      MOVEMENT.includes(c.kind) ? el("span", { class: "sb-hc-arrows", "aria-hidden": "true", text: (c.amount > 0 ? "▲" : "▼").repeat(Math.abs(c.amount)) }) : null,
      c.free ? el("span", { class: "sb-hc-free", text: "FREE" }) : null,
      count > 1 ? el("span", { class: "sb-hc-count", text: `×${count}` }) : null,
    ];
    const cls = `sb-hc ${cardClass(face)}${selected ? " sb-selected" : ""}`;
    const tip = `${face}: ${cardRule(c)}`;
    if (!playable) return el("span", { class: cls, title: tip }, ...inner);
    return el(
      "button",
      {
        type: "button",
        class: cls,
        "data-testid": "card",
        "data-card": face,
        title: tip,
        "aria-pressed": selected ? "true" : "false",
        // Named by the words printed on it (no aria-label: what a screen reader says is what a
        // sighted player reads, "FOE −1 FREE"); its rule is the title.
        onclick: () => {
          chosen = chosen === face ? null : face;
          highlight = null;
          renderSide();
          const first = prompt.querySelector('[data-testid="choice"]');
          if (first && chosen) first.focus();
        },
      },
      ...inner,
    );
  }

  function send(action) {
    // While earlier frames are still being drawn, this menu is not the latest one.
    if (sent || queue.length) return;
    sent = true;
    // An answer that brings no update (an error the page shows) must not leave the menu dead.
    clearTimeout(sentTimer);
    sentTimer = setTimeout(() => {
      sent = false;
      if (view) renderSide();
    }, 4000);
    chosen = null;
    highlight = null;
    const move = view && view.window_open ? view.header.move : null;
    if (ctx.send(action) !== false && move !== null) {
      answer = { move, action };
      renderSide(); // the answer as given, in place of the buttons (sealed: no frame comes)
      return;
    }
    prompt.classList.add("sb-sent");
    prompt.querySelectorAll("button").forEach((b) => (b.disabled = true));
  }

  function actionButton(action, label, cls = "", testid = "action") {
    return el("button", {
      type: "button",
      class: `sb-btn ${cls}`,
      "data-testid": testid,
      "data-action": JSON.stringify(action),
      text: label,
      onclick: () => send(action),
      onmouseenter: () => lightFor(action),
      onfocus: () => lightFor(action),
      onmouseleave: () => lightFor(null),
      onblur: () => lightFor(null),
    });
  }

  function lightFor(action) {
    let next = null;
    if (action) {
      const tokens = [];
      const ls = [];
      if (action.type === "play") {
        if (action.target !== undefined && action.target >= 0) tokens.push(action.target);
        if (action.other !== undefined && action.other >= 0) tokens.push(action.other);
        if (action.lane !== undefined && action.lane >= 0) ls.push(action.lane);
      } else if (action.type === "step") {
        tokens.push(action.token);
        if (action.lane >= 0) ls.push(action.lane);
      }
      next = { tokens, lanes: ls };
    }
    if (JSON.stringify(next) === JSON.stringify(highlight)) return;
    highlight = next;
    previousSpots = drawBoard();
  }

  // -- the menus ------------------------------------------------------------------------------

  /** Options of one card, grouped by a sub-heading (a target) when a card has many. */
  function optionGroups(face, plays) {
    const c = parseCard(face);
    const groups = new Map();
    const add = (heading, action, label) => {
      if (!groups.has(heading)) groups.set(heading, []);
      groups.get(heading).push([action, label]);
    };
    for (const a of plays) {
      const tg = a.target !== undefined && a.target >= 0 ? a.target : null;
      const lane = a.lane !== undefined && a.lane >= 0 ? a.lane : null;
      const land = landingText(landingOf(a));
      const tail = land ? ` → ${land}` : "";
      if ((c.kind === "MOVE" || c.kind === "FOE") && lane !== null) {
        const heading = c.kind === "FOE" ? t("sbr.opt.foeEnters", { name: nameOf(tg) }) : t("sbr.opt.enterFromStart");
        add(heading, a, t("sbr.opt.lane", { lane: lane + 1 }) + tail);
      } else if (c.kind === "FOE" && tg !== null) {
        add(t("sbr.opt.whichOpponent"), a, `${nameOf(tg)}${onBlock(tg) ? " " + t("sbr.opt.onBlock") : tail}`);
      } else if (c.kind === "SHIFT" && tg !== null) {
        add(t("sbr.opt.shift", { name: you(tg) }), a, t("sbr.opt.lane", { lane: lane + 1 }));
      } else if (c.kind === "CUT" && tg !== null) {
        add(who(tg, "sbr.opt.cut"), a, nameOf(a.other));
      } else if (c.kind === "TRADE" && tg !== null) {
        add(who(tg, "sbr.opt.trade"), a, nameOf(a.other));
      } else if (c.kind === "SKIP" && tg !== null) {
        add(t("sbr.opt.whoSkips"), a, `${nameOf(tg)}${onBlock(tg) ? " " + t("sbr.opt.onBlock") : ""}`);
      } else if (c.kind === "REVAMP" && a.mode === "remove") {
        add(t("sbr.opt.removeLane"), a, t("sbr.opt.lane", { lane: lane + 1 }));
      } else if (c.kind === "REVAMP" && a.mode) {
        add(t("sbr.opt.addLane"), a, a.mode === "add-left" ? t("sbr.opt.left") : t("sbr.opt.right"));
      } else {
        add("", a, `${describePlay(a)}${tail}`);
      }
    }
    return groups;
  }

  function renderOptions(face, plays, intro) {
    const box = el("div", { class: "sb-options" });
    box.append(el("div", { class: "sb-options-head" }, cardMini(face), " ", el("span", { text: intro })));
    for (const [heading, options] of optionGroups(face, plays)) {
      const row = el("div", { class: "sb-option-row" });
      if (heading) row.append(el("div", { class: "sb-option-heading", text: heading }));
      const btns = el("div", { class: "sb-option-btns" });
      for (const [action, label] of options) btns.append(actionButton(action, label, "sb-option", "choice"));
      row.append(btns);
      box.append(row);
    }
    return box;
  }

  function renderPrompt() {
    const v = view;
    const legal = legalActions();
    prompt.replaceChildren();
    prompt.classList.remove("sb-sent", "sb-asking", "sb-window-open");
    // The BLOCK window: the same prompt for everyone asked (SB-9).
    if (v.window_open) {
      prompt.classList.add("sb-window-open");
      const w = el("div", { class: "sb-window", "data-testid": "window" });
      w.append(el("div", { class: "sb-window-title", text: t("sbr.window") }));
      if (v.declared) w.append(declaredLine(v.declared));
      if (v.blocks && v.blocks.length) {
        const b = el("div", { class: "sb-blocks" }, el("span", { text: t("sbr.blockedBy") + " " }));
        v.blocks.forEach((seat, i) => b.append(i ? `, ${t("sbr.then")} ` : "", tokenChip(seat), ` ${nameOf(seat)}`));
        w.append(b);
      }
      if (answered()) {
        const blocked = answer.action.type === "block";
        w.append(el("p", {
          class: "sb-answered",
          "data-testid": "answered",
          text: t(blocked ? "sbr.answeredBlock" : "sbr.answeredPass"),
        }));
      } else if (legal.length) {
        prompt.classList.add("sb-asking");
        const cancels = (v.blocks || []).length % 2 === 0;
        w.append(
          el("p", {
            class: "sb-question",
            text: (v.blocks || []).length ? t("sbr.ask.blockBlock") : t("sbr.ask.block"),
          }),
          el("p", {
            class: "sb-dim",
            text: cancels ? t("sbr.ask.cancels") : t("sbr.ask.restores"),
          }),
        );
        const btns = el("div", { class: "sb-option-btns" });
        for (const a of legal) {
          if (a.type === "block") btns.append(actionButton(a, t("sbr.blockButton"), "sb-block-btn"));
        }
        for (const a of legal) {
          if (a.type === "pass") btns.append(actionButton(a, t("sbr.pass"), "sb-pass-btn"));
        }
        w.append(btns);
      } else {
        w.append(el("p", { class: "sb-dim", text: t("sbr.waitingAnswers") }));
      }
      prompt.append(w);
      return;
    }
    if (!legal.length) {
      if (v.phase !== "over" && lastDeclared) {
        prompt.append(lastDeclaredBox());
      }
      return;
    }
    prompt.classList.add("sb-asking");
    if (v.phase === "step") return renderStep(legal);
    const plays = legal.filter((a) => a.type === "play");
    const faces = [...new Set(plays.map((a) => a.card))];
    if (v.phase === "board") {
      const face = faces[0];
      prompt.append(el("p", { class: "sb-question", text: t("sbr.boardAction") }));
      if (faces.length === 1) prompt.append(renderOptions(face, plays, t("sbr.how")));
      return;
    }
    // The Hand Action.
    const nonfree = v.nonfree_played;
    prompt.append(
      el("p", {
        class: "sb-question",
        text: v.hand_played ? t("sbr.another") : t("sbr.handAction"),
      }),
    );
    if (!v.hand_played) prompt.append(el("p", { class: "sb-dim", text: t("sbr.handHint") }));
    if (chosen && faces.includes(chosen)) {
      prompt.append(renderOptions(chosen, plays.filter((a) => a.card === chosen), t("sbr.whatDo")));
    } else if (faces.length) {
      prompt.append(el("p", { class: "sb-hint", text: t("sbr.pick") }));
    }
    const extra = el("div", { class: "sb-option-btns" });
    for (const a of legal) {
      if (a.type === "end") extra.append(actionButton(a, t("sbr.endTurn"), "sb-end-btn"));
      if (a.type === "discard") extra.append(actionButton(a, t("sbr.discard"), "sb-end-btn"));
    }
    if (extra.childElementCount) prompt.append(extra);
    void nonfree;
  }

  function renderStep(legal) {
    const v = view;
    const kind = v.context && v.context.kind;
    let q = t("sbr.step.choose");
    if (kind === "all") {
      const amount = v.context.amount;
      q = t("sbr.step.all", { amt: `${amount > 0 ? "+" : ""}${amount}` });
    } else if (kind === "place") q = t("sbr.step.place");
    else if (kind === "join") q = t("sbr.step.join", { lane: Number(v.context.lane) + 1 });
    prompt.append(el("p", { class: "sb-question", text: q }));
    const groups = new Map();
    for (const a of legal) {
      let heading = `${nameOf(a.token)} (${where(a.token)})`;
      let label;
      if (kind === "join") {
        heading = "";
        label = a.lane >= 0 ? t("sbr.step.moveInto", { lane: a.lane + 1 }) : t("sbr.step.stay");
      } else if (kind === "place") label = t("sbr.opt.lane", { lane: a.lane + 1 });
      else label = a.lane >= 0 ? t("sbr.step.enter", { lane: a.lane + 1 }) : t("sbr.step.move", { name: nameOf(a.token) });
      if (!groups.has(heading)) groups.set(heading, []);
      groups.get(heading).push([a, label]);
    }
    for (const [heading, options] of groups) {
      const row = el("div", { class: "sb-option-row" });
      if (heading) {
        const seat = options[0][0].token;
        row.append(el("div", { class: "sb-option-heading" }, tokenChip(seat), ` ${heading}`));
      }
      const btns = el("div", { class: "sb-option-btns" });
      for (const [a, label] of options) btns.append(actionButton(a, label, "sb-option"));
      row.append(btns);
      prompt.append(row);
    }
  }

  function lastDeclaredBox() {
    const box = el("div", { class: `sb-last${lastDeclared.cancelled ? " sb-cancelled" : ""}` });
    box.append(el("div", { class: "sb-dim", text: t("sbr.last") }), declaredLine(lastDeclared));
    if (lastDeclared.cancelled) box.append(el("div", { class: "sb-cancel-note", text: t("sbr.cancelled") }));
    return box;
  }

  function renderHand() {
    const v = view;
    handBox.replaceChildren();
    if (ctx.seat === null || ctx.seat === undefined || v.phase === "over") return;
    const legal = legalActions();
    const playable = new Set(v.phase === "hand" && !v.window_open ? legal.filter((a) => a.type === "play").map((a) => a.card) : []);
    handBox.append(el("h2", { text: t("sbr.handCount", { n: v.hand.length }) }));
    const row = el("div", { class: "sb-hand-cards" });
    if (!v.hand.length) row.append(el("span", { class: "sb-dim", text: t("sbr.noCards") }));
    // Equal cards are one card with a count: playing either is the same choice.
    const counts = new Map();
    for (const face of v.hand) counts.set(face, (counts.get(face) || 0) + 1);
    for (const [face, n] of counts) {
      row.append(handCard(face, playable.has(face), chosen === face, n));
    }
    handBox.append(row);
  }

  function renderPlayers() {
    const v = view;
    players.replaceChildren();
    const tbl = el("table", { class: "sb-table" });
    tbl.append(el("thead", {}, el("tr", {}, ...[t("sbr.col.player"), t("sbr.col.where"), t("sbr.col.cards")].map((h) => el("th", { scope: "col", text: h })), el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: t("sbr.col.notes") })))));
    const body = el("tbody");
    for (let seat = 0; seat < v.players; seat++) {
      const notes = [];
      if (v.skips && v.skips[seat]) notes.push(tn("sbr.skips", v.skips[seat]));
      if (onBlock(seat)) notes.push(t("sbr.protected"));
      if (seat === v.current && v.phase !== "over") notes.push(t("sbr.onTurn"));
      if (v.winner === seat) notes.push(t("sbr.winner"));
      body.append(
        el(
          "tr",
          { class: `${isMe(seat) ? "sb-mine-row" : ""}${seat === v.current && v.phase !== "over" ? " sb-current-row" : ""}` },
          el("td", {}, tokenChip(seat), ` ${isMe(seat) ? t("sbr.youName", { name: nameOf(seat) }) : nameOf(seat)}`),
          el("td", { text: where(seat) }),
          el("td", { class: "num", text: String(v.hand_sizes[seat]) }),
          el("td", { class: "sb-note", text: notes.join(" · ") }),
        ),
      );
    }
    tbl.append(body);
    players.append(tbl);
    const top = v.discard && v.discard.length ? v.discard[v.discard.length - 1] : null;
    players.append(
      el("p", { class: "sb-dim sb-piles" }, t("sbr.piles", { draw: v.draw_size, discards: v.discard.length }), top ? ` · ${t("sbr.top")} ` : "", top ? cardMini(top) : null),
    );
  }

  function renderStatus() {
    const v = view;
    status.replaceChildren();
    status.classList.toggle("sb-your-turn", legalActions().length > 0 && !answered());
    const bot = v.phase !== "over" && standIn();
    status.classList.toggle("sb-bot", Boolean(bot));
    if (v.phase === "over") {
      status.append(el("strong", { text: v.winner >= 0 ? who(v.winner, "sbr.status.wins") : t("sbr.status.over") }));
      return;
    }
    const phase = ["board", "hand", "window", "step"].includes(v.phase) ? t(`sbr.phase.${v.phase}`) : v.phase;
    if (bot) {
      // The bot plays your turns; someone else's turn is still worth a line below.
      status.append(ctx.standInLine());
      if (!isMe(v.current)) {
        status.append(el("div", { class: "sb-status-sub" }, tokenChip(v.current), " ", el("strong", { text: who(v.current, "sbr.status.turn") }), ` · ${phase}`));
      }
      return;
    }
    status.append(tokenChip(v.current), " ", el("strong", { text: who(v.current, "sbr.status.turn") }), ` · ${phase}`);
    if (legalActions().length && !isMe(v.current)) {
      status.append(el("strong", { text: ` · ${t(answered() ? "sbr.status.answered" : "sbr.status.asked")}` }));
    }
  }

  function renderSide() {
    renderStatus();
    renderPrompt();
    renderHand();
    renderPlayers();
  }

  // -- events ---------------------------------------------------------------------------------

  function readEvents(events) {
    for (const e of events || []) {
      if (e.kind === "declared") lastDeclared = { player: e.player, source: e.source, play: e.play, cancelled: false, bot: isMe(e.player) ? standIn() : null };
      else if (e.kind === "cancelled" && lastDeclared) lastDeclared.cancelled = true;
      else if (e.kind === "turn_started") chosen = null;
    }
  }

  function show(item) {
    sent = false;
    clearTimeout(sentTimer);
    const before = previousSpots;
    view = item.view;
    readEvents(item.events);
    const legal = legalActions();
    if (chosen && !legal.some((a) => a.type === "play" && a.card === chosen)) chosen = null;
    highlight = null;
    const spots = drawBoard();
    renderSide();
    previousSpots = before;
    const wait = item.initial || item.skipAnimation ? 0 : animateTokens(spots);
    previousSpots = spots;
    return wait;
  }

  function pump() {
    if (busy || destroyed || !queue.length) return;
    const item = queue.shift();
    if (queue.length > 2) item.skipAnimation = true;
    const wait = show(item);
    if (wait > 0) {
      busy = true;
      setTimeout(() => {
        busy = false;
        pump();
      }, wait + 80);
    } else pump();
  }

  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && chosen) {
      chosen = null;
      renderSide();
    }
  });

  return {
    update(v, events, opts = {}) {
      queue.push({ view: v, events: events || [], initial: !!opts.initial });
      pump();
    },
    /** The welcome gave back this seat's sealed answer to the window open at `move`. */
    sealed(move, action) {
      answer = { move, action };
      if (!destroyed && view && view.header.move === move) renderSide();
    },
    /** The server refused the last action (an error frame): its menu is live again. */
    refused() {
      if (destroyed) return;
      answer = null;
      sent = false;
      clearTimeout(sentTimer);
      if (view) renderSide();
    },
    /** Draw the status line, the menus and your hand again (the stand-in bot came or went). */
    refresh() {
      if (destroyed || !view) return;
      if (chosen && !legalActions().some((a) => a.type === "play" && a.card === chosen)) chosen = null;
      if (standIn() && highlight) {
        highlight = null;
        previousSpots = drawBoard();
      }
      renderSide();
    },
    destroy() {
      destroyed = true;
      clearTimeout(sentTimer);
      root.replaceChildren();
      root.classList.remove("sb");
    },
  };
}

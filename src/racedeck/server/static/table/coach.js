// The coach of a guided game ("Learn to play" in the lobby, app.js): above the board, one or two
// plain sentences on the decision this page's person is asked right now and what its choices do,
// and a line on what the latest events did (the reveal and why a figure scored, a slipstream, a
// sprint, a rider change, laps lost, a BLOCK …). Everything it says comes from the view it is
// given (its phase, its legal actions, the previews it may carry), the latest events, and which
// card the board shows picked; it computes no rule. Not this person's turn: it says whom the table
// waits for. A table is guided in this browser only (localStorage, keyed by table id); "Skip the
// guide" hides the coach for the rest of that game, across reloads too.
//
// Test hooks (data-testid): "coach" (the panel, a live region), "coach-tip" (the decision now),
// "coach-recap" (what just happened), "coach-skip".

import { el } from "../dom.js";
import { gameWord } from "../game-words.js";
import { listOf, t, tn } from "../i18n.js";

const GUIDED_KEY = "racedeck.guided";

function guidedStore() {
  try {
    return JSON.parse(localStorage.getItem(GUIDED_KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function saveGuided(all) {
  try {
    localStorage.setItem(GUIDED_KEY, JSON.stringify(all));
  } catch {
    // storage may be off (private windows): the guide then lasts for this page only
  }
}

/** Mark table `tableId` as a guided game in this browser (the lobby's "Learn to play"). */
export function markGuided(tableId) {
  const all = guidedStore();
  all[tableId] = { skipped: null };
  saveGuided(all);
}

/** Whether table `tableId` is a guided game in this browser. */
export function isGuided(tableId) {
  return Boolean(guidedStore()[tableId]);
}

function skippedIn(tableId) {
  const g = guidedStore()[tableId];
  return g ? g.skipped : null;
}

function skipGame(tableId, gameNo) {
  const all = guidedStore();
  all[tableId] = { ...(all[tableId] || {}), skipped: gameNo };
  saveGuided(all);
}

// -- small words -----------------------------------------------------------------------------------

/** A card value as printed: +3, −2 (a real minus sign). */
function signed(value) {
  return value > 0 ? `+${value}` : value < 0 ? `\u2212${-value}` : "0";
}

function unique(values) {
  return [...new Set(values)];
}

/** "1st", "2e", "1er", "1." … in the current language (the narration's words). */
function ordinal(n) {
  const key = `sd.ord.${n}`;
  const special = t(key);
  return special !== key ? special : t("sd.ord.n", { n });
}

/** The names of the seats the view's header says the table waits for. */
function actingNames(view) {
  const h = view.header;
  return (h.acting || []).filter((s) => s !== view.seat).map((s) => h.seat_names[s]);
}

function waitFor(view) {
  const names = actingNames(view);
  return names.length ? t("coach.wait", { names: listOf(names) }) : "";
}

// -- Why First? ------------------------------------------------------------------------------------

const whyFirst = {
  tip(view, board) {
    const legal = view.legal_actions || [];
    const figures = view.header.score_names || [];
    const places = legal.filter((a) => a.type === "place");
    if (places.length) {
      const picked = board.querySelector('[data-testid="card"][aria-pressed="true"]');
      const value = picked ? Number(picked.dataset.value) : null;
      const targets = places.filter((a) => a.value === value).map((a) => figures[a.target]);
      if (targets.length) return t("coach.wf.figure", { value: signed(value), figures: listOf(unique(targets)) });
      return t("coach.wf.card", { cards: unique(places.map((a) => a.value)).map(signed).join(" ") });
    }
    if (legal.some((a) => a.type === "commit")) return t("coach.wf.tacCommit");
    const moves = legal.filter((a) => a.type === "move");
    if (moves.length) return t("coach.wf.tacMove", { figures: listOf(moves.map((a) => figures[a.target])) });
    const mine = view.my_commit;
    if (view.phase === "commit" && Array.isArray(mine)) {
      const names = actingNames(view);
      return names.length
        ? t("coach.wf.placed", { value: signed(mine[0]), figure: figures[mine[1]], names: listOf(names) })
        : "";
    }
    return waitFor(view);
  },

  recap(events, view) {
    const figures = view.header.score_names || [];
    const scored = events.findLast((e) => e.kind === "stage_scored");
    if (scored) {
      if (scored.space === null || !scored.scorers.length) return t("coach.wf.scoredNone", { stage: scored.stage });
      const pts = scored.points[scored.scorers[0]];
      return tn("coach.wf.scored", Math.abs(pts), {
        stage: scored.stage, names: listOf(scored.scorers.map((f) => figures[f])),
        space: signed(scored.space).replace("+", ""), points: signed(pts).replace("+", ""),
      });
    }
    const at = events.findLastIndex((e) => e.kind === "cards_revealed");
    if (at >= 0) {
      const moved = events.slice(at).filter((e) => e.kind === "figure_moved");
      if (!moved.length) return t("coach.wf.revealNone");
      return t("coach.wf.reveal", { moves: listOf(moved.map((e) => t("coach.wf.moved", {
        name: figures[e.figure], from: signed(e.from).replace("+", ""), to: signed(e.to).replace("+", "") }))) });
    }
    const auto = events.findLast((e) => e.kind === "last_round_automatic");
    return auto ? t("coach.wf.auto", { round: auto.round }) : null;
  },
};

// -- Six Day Race ----------------------------------------------------------------------------------

/** A rider's name: the player's, with -1 and -2 when each has two (as the narration's). */
function riderName(view, r) {
  const seats = view.header.seat_names || [];
  const per = view.riders_per_player || 1;
  return per <= 1 ? seats[r] : `${seats[r % seats.length]}-${Math.floor(r / seats.length) + 1}`;
}

/** The landing preview of a card value, if the view carries one (never computed here). */
function landing(view, value) {
  const src = view.previews || view.landings || null;
  if (!src) return undefined;
  if (Array.isArray(src)) return src.find((p) => p.value === value) || null;
  return src[value] || src[String(value)] || null;
}

const sixDayRace = {
  tip(view, board) {
    const values = unique((view.legal_actions || []).filter((a) => a.type === "play").map((a) => a.value));
    if (!values.length) return waitFor(view);
    const picked = board.querySelector('[data-testid="card"][aria-pressed="true"]');
    const value = picked ? Number(picked.dataset.value) : null;
    if (values.includes(value)) return t("coach.sdr.picked", { value, play: t("sdr.play", { value }) });
    const rider = view.current;
    const text = t("coach.sdr.play", { rider: riderName(view, rider), space: view.positions[rider], cards: values.join(" ") });
    const previews = values.map((v) => [v, landing(view, v)]);
    if (previews.every(([, p]) => p === undefined)) return `${text} ${t("coach.sdr.slipHint")}`;
    const slip = previews.find(([, p]) => p && p.multiplier > 1);
    if (!slip) return text;
    const [v, p] = slip;
    return `${text} ${t("coach.sdr.previewSlip", { value: v, to: p.to ?? p.landing, times: p.multiplier })}`;
  },

  recap(events, view) {
    const name = (r) => riderName(view, r);
    const last = (kind, test = () => true) => events.findLast((e) => e.kind === kind && test(e));
    let e = last("race_scored");
    if (e) {
      const lost = e.riders.filter((r) => r.laps > 0)
        .map((r) => tn("coach.sdr.laps", r.laps, { rider: name(r.rider ?? e.riders.indexOf(r)) }));
      return lost.length ? t("coach.sdr.ev.race", { race: e.race, laps: listOf(lost) }) : t("coach.sdr.ev.raceNoLaps", { race: e.race });
    }
    if ((e = last("crossed_line"))) return t("coach.sdr.ev.crossed", { rider: name(e.rider), place: ordinal(e.place) });
    if ((e = last("rider_change"))) {
      const drawn = (e.drawn || []).reduce((s, n) => s + n, 0);
      return tn("coach.sdr.ev.change", drawn, { rider: name(e.rider) });
    }
    if ((e = last("crash"))) return t("coach.sdr.ev.crash", { rider: name(e.rider) });
    if ((e = last("turn_lost"))) return t("coach.sdr.ev.turnLost", { rider: name(e.rider) });
    if ((e = last("sprint"))) {
      return tn("coach.sdr.ev.sprint", e.points, { rider: name(e.rider), sprint: e.sprint, place: ordinal(e.place) });
    }
    if ((e = last("card_played", (x) => x.multiplier > 1))) {
      return tn("coach.sdr.ev.slip", e.riders_there, { rider: name(e.rider), value: e.value, first: e.first, to: e.to });
    }
    if ((e = last("passed"))) return t("coach.sdr.ev.passed", { rider: name(e.rider) });
    return null;
  },
};

// -- Setback ---------------------------------------------------------------------------------------

const KIND = /^(MOVE|FOE|ALL)[+-]\d/;
const ACTION_CARDS = ["SHIFT", "TRADE", "CUT", "DRAW", "REVAMP", "SKIP", "BLOCK"];

/** A card name's kind: MOVE, FOE, ALL, or the action card's name (FREE's * left out). */
function cardKind(card) {
  const m = KIND.exec(card);
  return m ? m[1] : String(card).replace("*", "");
}

function where(view, pos) {
  if (typeof pos === "string") return pos;
  const [row, lane] = pos;
  return row < 0 ? "START" : t("sbr.where.at", { row: row + 1, lane: lane + 1 });
}

/** What the card `card` does (the picked card, or an action card in hand). */
function cardTip(card) {
  const kind = cardKind(card);
  if (["MOVE", "FOE", "ALL"].includes(kind)) return t(`coach.sb.picked.${kind}`, { card });
  return ACTION_CARDS.includes(kind) ? t("coach.sb.picked.action", { card, note: t(`sbr.note.${kind}`) }) : "";
}

const setback = {
  tip(view, board) {
    const legal = view.legal_actions || [];
    const names = view.header.seat_names || [];
    const me = view.seat;
    if (view.window_open) {
      const d = view.declared || { player: view.current, play: {} };
      const card = d.play.card || "";
      if (view.answer) {
        return t("coach.sb.answered", { answer: view.answer === "block" ? t("sbr.blockButton") : t("sbr.pass") });
      }
      if (!legal.length) return t("coach.sb.windowWait", { name: names[d.player], card });
      const blocks = view.blocks || [];
      const canBlock = legal.some((a) => a.type === "block");
      if (blocks.length) {
        const by = names[blocks[blocks.length - 1]];
        return t(canBlock ? "coach.sb.windowOnBlock" : "coach.sb.windowOnBlockPass", { name: by, card });
      }
      if (!canBlock) return t("coach.sb.windowPass", { name: names[d.player], card });
      return d.player === me ? t("coach.sb.windowOwn", { card }) : t("coach.sb.window", { name: names[d.player], card });
    }
    if (!legal.length) {
      const turn = view.current ?? -1;
      return turn >= 0 && turn !== me ? t("coach.sb.wait", { name: names[turn] }) : waitFor(view);
    }
    if (view.phase === "step") {
      const ctx = view.context || {};
      if (ctx.kind === "all") return t("coach.sb.stepAll", { amt: `${ctx.amount > 0 ? "+" : ""}${ctx.amount}` });
      if (ctx.kind === "place") return t("coach.sb.stepPlace");
      if (ctx.kind === "join") return t("coach.sb.stepJoin");
      return t("coach.sb.step");
    }
    const picked = board.querySelector('[data-testid="card"][aria-pressed="true"]');
    if (picked && picked.dataset.card) {
      const tip = cardTip(picked.dataset.card);
      if (tip) return `${tip} ${t("coach.sb.options")}`;
    }
    const plays = unique(legal.filter((a) => a.type === "play" && a.card).map((a) => a.card));
    if (view.phase === "board") {
      const card = plays[0] || "";
      return `${t("coach.sb.board", { card })} ${cardTip(card)}`.trim();
    }
    if (legal.some((a) => a.type === "discard")) return t("coach.sb.discard");
    if (legal.some((a) => a.type === "end")) return t("coach.sb.more");
    const action = plays.find((c) => ACTION_CARDS.includes(cardKind(c)));
    const hand = t("coach.sb.hand", { cards: plays.join(", ") });
    return action ? `${hand} ${cardTip(action)}` : hand;
  },

  recap(events, view) {
    const names = view.header.seat_names || [];
    const last = (kind, test = () => true) => events.findLast((e) => e.kind === kind && test(e));
    let e = last("cancelled");
    if (e) return t("coach.sb.ev.cancelled", { name: names[e.player], card: (e.play && e.play.card) || "" });
    if ((e = last("row_removed"))) return t("coach.sb.ev.rowRemoved");
    if ((e = last("token_moved", (x) => x.why === "bumped"))) {
      return t("coach.sb.ev.bumped", { name: names[e.player], to: where(view, e.to) });
    }
    if ((e = last("turn_skipped"))) return t("coach.sb.ev.skipped", { name: names[e.player] });
    if ((e = last("no_effect"))) {
      return t(e.why === "on START" ? "coach.sb.ev.noEffectStart" : "coach.sb.ev.noEffectBlock", { name: names[e.player] });
    }
    return null;
  },
};

const GAMES = { "why-first": whyFirst, "six-day-race": sixDayRace, setback };

// -- the panel -------------------------------------------------------------------------------------

/**
 * The coach of a table page, for the board element `board`; `gameNo()` is the number of the
 * game the page shows. Returns {element, drawLabels(), update(view, events, initial), draw()}.
 */
export function createCoach(st, { board, gameNo }) {
  const title = el("h2", { class: "coach-title", id: "coach-title" });
  const skip = el("button", { type: "button", class: "coach-skip", "data-testid": "coach-skip" });
  const recap = el("p", { class: "coach-recap", "data-testid": "coach-recap", hidden: true });
  const tip = el("p", { class: "coach-tip", "data-testid": "coach-tip" });
  const element = el("section", { class: "coach", "data-testid": "coach", "aria-live": "polite",
    "aria-labelledby": "coach-title", hidden: true },
  el("div", { class: "coach-head" }, title, skip), recap, tip);
  let recent = []; // the latest events that told something worth a word
  let pending = false;

  skip.addEventListener("click", () => {
    skipGame(st.table.id, gameNo());
    element.hidden = true;
  });
  // A card picked on the board (a click or a key) changes the question: ask it again once the
  // board has drawn the pick.
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw();
    });
  };
  board.addEventListener("click", later);
  board.addEventListener("keyup", later);

  /** Labels a language change redraws. */
  function drawLabels() {
    title.textContent = t("coach.title");
    skip.textContent = t("coach.skip");
  }

  function shown() {
    return Boolean(st.view) && st.seat !== null && isGuided(st.table.id) && skippedIn(st.table.id) !== gameNo();
  }

  function overText(view) {
    const o = view.header.outcome || {};
    const winners = (o.winners || []).map((w) => (o.names || view.header.score_names || [])[w]);
    return tn("coach.over", winners.length, {
      names: listOf(winners),
      rule: gameWord(view.header.game, "winRule", st.table.win_rule || ""),
      again: t("table.again"),
    });
  }

  function set(node, text) {
    if (node.textContent !== text) node.textContent = text;
    node.hidden = !text;
  }

  /** Say again what the view asks now (after a new view, a pick on the board, a language). */
  function draw() {
    const visible = shown();
    element.hidden = !visible;
    if (!visible) return;
    const view = st.view;
    const game = GAMES[view.header.game];
    let now = "";
    let before = "";
    try {
      if (view.header.terminal) now = overText(view);
      else if (game) now = game.tip(view, board) || "";
      if (!now && !view.header.terminal) now = (view.legal_actions || []).length ? t("coach.yourTurn") : t("coach.waiting");
      before = game && recent.length ? game.recap(recent, view) || "" : "";
    } catch (e) {
      console.warn("the coach has no words for this view", e);
    }
    set(recap, before);
    set(tip, now);
  }

  /** A new view with its new events (`initial`: a new game or page: the events so far). */
  function update(view, events, initial) {
    const game = GAMES[view.header.game];
    const fresh = initial ? (events || []).slice(-8) : events || [];
    if (initial) recent = [];
    if (game && fresh.length) {
      try {
        if (game.recap(fresh, view)) recent = fresh;
      } catch (e) {
        console.warn("the coach cannot word these events", e);
      }
    }
    draw();
  }

  drawLabels();
  return { element, drawLabels, update, draw };
}

// Why First? in words: the narration of its events and the "waiting for" line, worded in the
// reader's language from the events' fields (the server's `text` is English; see app.js).
// describeEvent returns null for an event it does not know, so the server's text is shown.

import { listOf, t, tn } from "../../i18n.js";

const signed = (v) => (v > 0 ? `+${v}` : String(v));

function nameOf(ctx, i) {
  return (ctx.names && ctx.names[i]) || t("wf.figure", { n: i });
}

/** One line for the event `e` ({kind, ...fields}); ctx = {names, seats, config, view}. */
export function describeEvent(e, ctx) {
  const name = (i) => nameOf(ctx, i);
  switch (e.kind) {
    case "stage_started":
      return t("wf.ev.stageStarted", { stage: e.stage });
    case "hand_dealt": {
      const shown = e.cards
        ? e.cards.map((c, i) => `${signed(e.values[i])}(#${c})`).join(" ")
        : e.values.map(signed).join(" ");
      return t("wf.ev.handDealt", { name: name(e.seat), stage: e.stage, cards: shown });
    }
    case "card_committed":
      return t("wf.ev.cardCommitted", { name: name(e.seat) });
    case "card_chosen":
      if ("card" in e) return t("wf.ev.cardChosenTactical", { name: name(e.seat), card: e.card, value: signed(e.value) });
      return t("wf.ev.cardChosen", { name: name(e.seat), value: signed(e.value), target: name(e.target) });
    case "last_round_automatic":
      return t("wf.ev.lastRoundAutomatic", { round: e.round });
    case "cards_revealed": {
      const parts = e.cards.map((c) => {
        const card = "card" in c ? ` (#${c.card})` : ""; // tactical only (WF-10)
        const where = c.target >= 0 ? " " + t("wf.ev.inFrontOf", { name: name(c.target) }) : "";
        return `${name(c.by)} ${signed(c.value)}${card}${where}`;
      });
      return t("wf.ev.cardsRevealed", { round: e.round, cards: parts.join("; ") });
    }
    case "figure_moved": {
      const vars = { figure: name(e.figure), values: e.values.map(signed).join(" "), net: signed(e.net), from: e.from, to: e.to };
      const key = "by" in e ? "wf.ev.figureMovedBy" : "wf.ev.figureMoved";
      const line = t(key, { ...vars, by: "by" in e ? name(e.by) : "" });
      // The note goes before the sentence's full stop, wherever the language puts it.
      return e.clamped ? `${line.replace(/[.。]$/, "")} ${t("wf.ev.clamped")}.` : line;
    }
    case "stage_scored":
      if (e.space === null) return t("wf.ev.stageScoredNobody", { stage: e.stage });
      return tn("wf.ev.stageScored", e.scorers.length, {
        stage: e.stage, space: e.space, points: signed(e.space), names: e.scorers.map(name).join(", ") });
    case "game_over": {
      const totals = e.scores.map((s, i) => `${name(i)} ${s}`).join(", ");
      return t("wf.ev.gameOver", { totals, winners: e.winners.map(name).join(", ") });
    }
    default:
      return null;
  }
}

/** Whom the game waits for, and to do what (public: WF-4). */
export function describeWaiting(view, ctx) {
  const h = view.header;
  if (h.terminal) return t("table.over");
  const who = listOf(h.acting.map((i) => nameOf(ctx, i)));
  if (!who) return "";
  if (view.phase === "move") {
    const next = view.move_queue && view.move_queue[0];
    if (next) return t("wf.wait.move", { who, card: next[0], value: signed(view.card_values[next[0] - 1]) });
  }
  return tn(view.variant === "tactical" ? "wf.wait.commit" : "wf.wait.place", h.acting.length, { who });
}

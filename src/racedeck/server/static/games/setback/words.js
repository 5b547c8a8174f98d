// Setback in words: the narration of its events and the "waiting for" line, worded in the
// reader's language from the events' fields (the server's `text` is English; see app.js).
// Card names (MOVE+1, BLOCK, FINISH …) are printed on the cards and stay as they are.
// describeEvent returns null for an event it does not know, so the server's text is shown.

import { listOf, t, tn } from "../../i18n.js";

function where(pos) {
  if (typeof pos === "string") return pos;
  const [row, lane] = pos;
  return row < 0 ? "START" : t("sb.where", { row: row + 1, lane: lane + 1 });
}

/** A declared play ({card: {name, kind}, target, other, lane, mode} as JSON) in words. */
export function describePlay(play, name) {
  const card = play.card;
  const kind = String(card).replace(/[-+].*$/, "").replace(/\*$/, "");
  const target = play.target ?? -1;
  const lane = play.lane ?? -1;
  if (kind === "CUT" && target >= 0) return t("sb.play.cut", { card, a: name(target), b: name(play.other) });
  if (kind === "TRADE" && target >= 0) return t("sb.play.trade", { card, a: name(target), b: name(play.other) });
  if (kind === "REVAMP" && play.mode) {
    if (play.mode === "remove") return t("sb.play.removeLane", { card, lane: lane + 1 });
    return t(play.mode === "add-left" ? "sb.play.addLeft" : "sb.play.addRight", { card });
  }
  let text = String(card);
  if (target >= 0) text += " " + t("sb.play.on", { name: name(target) });
  if (lane >= 0) text += " " + t(kind === "SHIFT" ? "sb.play.toLane" : "sb.play.enterLane", { lane: lane + 1 });
  if (target < 0 && lane < 0 && ["SHIFT", "TRADE", "CUT", "REVAMP"].includes(kind)) text += " " + t("sb.play.noEffect");
  return text;
}

/** One line for the event `e` ({kind, ...fields}); ctx = {names, seats, config, view}. */
export function describeEvent(e, ctx) {
  const name = (i) => (ctx.names && ctx.names[i]) || `P${i + 1}`;
  switch (e.kind) {
    case "game_started":
      return t("sb.ev.gameStarted", { name: name(e.first), lanes: e.lanes });
    case "hand_dealt":
      return t("sb.ev.handDealt", { name: name(e.player), cards: e.cards.join(", ") });
    case "cards_received":
      return t("sb.ev.cardsReceived", { name: name(e.player), cards: e.cards.join(", ") });
    case "window_asked":
      return e.holders ? tn("sb.ev.windowAskedSome", e.holders) : t("sb.ev.windowAskedNone");
    case "move_limit":
      return t("sb.ev.moveLimit", { moves: e.moves });
    case "turn_started":
      return t("sb.ev.turnStarted", { name: name(e.player) });
    case "turn_skipped":
      return t(e.why === "skip card" ? "sb.ev.skippedCard" : "sb.ev.skippedSpace", { name: name(e.player) });
    case "declared": {
      const play = e.play && e.play.type === "play" ? describePlay(e.play, name) : null;
      if (play === null) return null;
      return t(e.source === "board" ? "sb.ev.declaredBoard" : "sb.ev.declaredHand", { name: name(e.player), play });
    }
    case "window_opened":
      return t(e.blocks ? "sb.ev.windowOpenedAgain" : "sb.ev.windowOpened");
    case "block_played":
      return t("sb.ev.blockPlayed", { name: name(e.player) });
    case "window_closed":
      if (!e.blocks) return t("sb.ev.noBlock");
      return t(e.cancelled ? "sb.ev.actionCancelled" : "sb.ev.blockBlocked");
    case "cancelled":
      return t("sb.ev.cancelled", { name: name(e.player) });
    case "token_moved": {
      const why = e.why === "bumped" ? " " + t("sb.ev.bumped") : e.why ? ` (${e.why})` : "";
      return t("sb.ev.tokenMoved", { name: name(e.player), from: where(e.from), to: where(e.to), why });
    }
    case "finished":
      return t(e.wins === false ? "sb.ev.finishedLate" : "sb.ev.finished", { name: name(e.player) });
    case "no_effect":
      if (e.why === "on START") return t("sb.ev.noEffectStart", { name: name(e.player) });
      if (e.why === "on BLOCK") return t("sb.ev.noEffectBlock", { name: name(e.player) });
      return null;
    case "traded":
      return t("sb.ev.traded", { a: name(e.a), b: name(e.b) });
    case "skip_placed":
      return t("sb.ev.skipPlaced", { name: name(e.player) });
    case "cards_drawn":
      return t("sb.ev.cardsDrawn", { name: name(e.player), n: e.count });
    case "discards_reshuffled":
      return t("sb.ev.reshuffled", { n: e.cards });
    case "row_removed":
      return t("sb.ev.rowRemoved");
    case "lane_added":
      return t("sb.ev.laneAdded", { name: name(e.player), lane: e.lane + 1 });
    case "lane_removed":
      return t("sb.ev.laneRemoved", { name: name(e.player), lane: e.lane + 1 });
    case "token_placed":
      return t("sb.ev.tokenPlaced", { name: name(e.player), to: where(e.to) });
    case "block_discarded":
      return t("sb.ev.blockDiscarded", { name: name(e.player) });
    case "game_over":
      return t(e.winners.length === 1 ? "sb.ev.gameOver.one" : "sb.ev.gameOver.other", { names: listOf(e.winners.map(name)) });
    default:
      return null;
  }
}

/** Who or what the game waits for: nobody by name during a BLOCK window (SB-9). */
export function describeWaiting(view, ctx) {
  if (view.header.terminal) return t("table.over");
  const name = (i) => (ctx.names && ctx.names[i]) || `P${i + 1}`;
  if (view.phase === "window") return t("sb.wait.window", { name: name(view.current) });
  const who = listOf(view.header.acting.map(name));
  if (!who) return "";
  const what = { board: "sb.wait.board", hand: "sb.wait.hand", step: "sb.wait.step" }[view.phase];
  return what ? t(what, { who }) : "";
}

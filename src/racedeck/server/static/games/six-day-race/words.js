// Six Day Race in words: the narration of its events and the "waiting for" line, worded in the
// reader's language from the events' fields (the server's `text` is English; see app.js).
// describeEvent returns null for an event it does not know, so the server's text is shown.

import { t, tn } from "../../i18n.js";

/** "1st", "2e", "1er", "1." … in the current language. */
export function ordinal(n) {
  const key = `sd.ord.${n}`;
  const special = t(key);
  return special !== key ? special : t("sd.ord.n", { n });
}

// The riders' names: the player's name, with -1 and -2 when each has two (as the server's).
function riders(ctx) {
  const seats = ctx.seats || [];
  const n = seats.length;
  const per = ctx.view ? ctx.view.riders_per_player : 1;
  if (per <= 1) return seats;
  return Array.from({ length: n * per }, (_, r) => `${seats[r % n]}-${Math.floor(r / n) + 1}`);
}

/** One line for the event `e` ({kind, ...fields}); ctx = {names, seats, config, view}. */
export function describeEvent(e, ctx) {
  const rs = riders(ctx);
  const rider = (i) => rs[i] || t("sd.rider", { n: i });
  const seat = (i) => (ctx.seats && ctx.seats[i]) || t("sd.rider", { n: i });
  const cfg = ctx.config || {};
  const races = ctx.view ? ctx.view.races : cfg.races;
  const place = (first) => (ctx.view && first === ctx.view.rider_change ? "FAHRERWECHSEL" : "STURZ");
  switch (e.kind) {
    case "race_started":
      return t("sd.ev.raceStarted", { race: e.race, races, order: e.order.map(rider).join(", ") });
    case "hands_dealt": {
      const hands = e.hands.map(([r, cards]) => `${rider(r)}: ${cards.map((c) => c % 10).join(" ")}`).join("; ");
      return tn("sd.ev.handsDealt", e.hands.length, { race: e.race, hands });
    }
    case "cards_drawn":
      return t("sd.ev.cardsDrawn", { rider: rider(e.rider), cards: e.cards.map((c) => c % 10).join(" ") });
    case "card_played": {
      let text = t("sd.ev.cardPlayed", { rider: rider(e.rider), value: e.value, space: e.first });
      if (e.riders_there) {
        text += " " + tn("sd.ev.withRiders", e.riders_there);
        text += " " + (e.special
          ? t("sd.ev.noSlipstream", { place: place(e.first) })
          : t("sd.ev.slipstream", { times: e.multiplier, to: e.to }));
      }
      return text;
    }
    case "sprint":
      return t("sd.ev.sprint", { rider: rider(e.rider), sprint: e.sprint, place: ordinal(e.place), points: e.points });
    case "crossed_line":
      if (e.place === 1) return t("sd.ev.wonRace", { rider: rider(e.rider) });
      return t("sd.ev.crossedLine", { rider: rider(e.rider), place: ordinal(e.place) });
    case "final_turns":
      return t("sd.ev.finalTurns");
    case "rider_change":
      return t("sd.ev.riderChange", { rider: rider(e.rider), discarded: e.discarded, low: e.drawn[0], high: e.drawn[1] });
    case "crash":
      return t("sd.ev.crash", { rider: rider(e.rider) });
    case "turn_lost":
      return t("sd.ev.turnLost", { rider: rider(e.rider) });
    case "passed":
      return t("sd.ev.passed", { rider: rider(e.rider) });
    case "deck_refilled":
      return t("sd.ev.deckRefilled", { deck: e.deck });
    case "race_scored": {
      const parts = e.riders.slice().sort((a, b) => a.place - b.place).map((r) => {
        const sprints = r.sprints.reduce((a, b) => a + b, 0);
        const laps = r.laps ? ", " + tn("sd.ev.lapsLost", r.laps) : "";
        return `${r.place}. ${rider(r.rider)} (${t("sd.ev.finishSprints", { finish: r.finish, sprints })}${laps})`;
      });
      // Why it ended first (SD-9): the last turns after the line, or every hand empty.
      const why = raceEnded(e);
      return (why ? t(why) + " " : "") + t("sd.ev.raceScored", { race: e.race, results: parts.join("; ") });
    }
    case "game_over": {
      const standing = e.laps.map((lap, i) => `${seat(i)} ${tn("sd.ev.lapsLost", lap)}/${tn("sd.ev.points", e.scores[i])}`).join(", ");
      return t("sd.ev.seriesOver", { standing, winners: e.winners.map(seat).join(", ") });
    }
    default:
      return null;
  }
}

/** Why the race of a `race_scored` event ended (its `reason`, SD-9): the message key that
 * says so, or null for a reason without words. */
export function raceEnded(e) {
  switch (e.reason) {
    case "final turns played":
      return "sd.ev.why.line";
    case "no rider has cards left":
      return "sd.ev.why.empty";
    default:
      return null;
  }
}

/** Whose rider is to play, in which race. */
export function describeWaiting(view, ctx) {
  if (view.header.terminal) return t("sd.wait.over");
  if (view.current < 0) return "";
  const rs = riders(ctx);
  const owner = ctx.seats[view.current % ctx.seats.length];
  const who = view.riders_per_player > 1 ? t("sd.wait.withRider", { name: owner, rider: rs[view.current] }) : owner;
  return t("sd.wait.turn", { race: view.race + 1, races: view.races, who });
}

// The table page's clocks: each seat's time in the scoreboard (counting down from the clock the
// server last sent, on the page's own timer), the open window's clock in the header, and the
// clock notice: who ran out of time or went away and which bot plays for them (the stand-in),
// with "I'm back" for this page's person, and what they are told of their time when back.
//
// Test hooks (data-testid): "clock" (data-seat, data-state: idle|running|bot; its slot is the
// scoreboard's, scores.js), "window-clock", "clock-notice", "im-back", "clock-back",
// "stand-in" (standInLine()).

import { LOW_SECONDS, clockText as fmt } from "../alerts.js";
import { el } from "../dom.js";
import { botName, t } from "../i18n.js";

/** A running clock seat `s`, `gone` seconds after it was sent: the move time left (negative
 * once the bank is being spent), the bank, and all the time left. */
export function timeLeft(s, gone) {
  const moveLeft = s.move_left - gone;
  const bank = moveLeft >= 0 ? s.bank : s.bank + moveLeft;
  return { moveLeft, bank, left: Math.max(0, moveLeft) + Math.max(0, bank) };
}

// What a person back from a takeover has: the per-move time, and the bank if any is left.
function backWords(c, s) {
  if (c.move === null || c.move === undefined) return { key: "clock.youreBack", vars: {} };
  const vars = { move: fmt(c.move), bank: fmt(s.bank) };
  if (s.bank > 0) return { key: "clock.youreBack.bank", vars };
  return { key: c.bank > 0 ? "clock.youreBack.bankUsed" : "clock.youreBack.move", vars };
}

/**
 * The clocks of a table page; they tick every 250 ms until destroy(). `hooks`: {scoreboard
 * (the scoreboard's list, whose clock slots are drawn here), toast, narrate(events, reset),
 * request(frame) (sent with an id; true if sent), tick() (called before every drawing of the
 * clocks), standInChanged() (the stand-in may have come or gone)}. Returns {windowClock,
 * notice, set(clock), draw(), drawNotice(), standIn(), standInLine(), destroy()}.
 */
export function createClocks(st, hooks) {
  const clockNotice = el("div", { class: "clock-notice", "data-testid": "clock-notice", role: "status", hidden: true });
  const windowClock = el("span", { class: "window-clock muted", "data-testid": "window-clock", hidden: true });
  const clockTimer = setInterval(() => drawClocks(), 250);
  // What a returning person is told of their time ({key, vars}), shown in the notice a while.
  let backNote = null;
  let backTimer = null;
  let takeoverToast = null; // "You ran out of time …", taken away when you are back

  /** A new clock from the server: tell of takeovers and returns, then draw it. */
  function setClock(next) {
    if (!next) return;
    const before = st.clock;
    st.clock = next;
    st.clockAt = performance.now();
    if (before && before.seats.length === next.seats.length) {
      const who = st.names();
      next.seats.forEach((s, i) => {
        const was = before.seats[i];
        if (s.bot && !was.bot) {
          const text = takeoverText(s, i, who);
          hooks.narrate([{ text }], false);
          if (i === st.seat) {
            dropBackNote();
            takeoverToast = hooks.toast(takeoverText(s, i, who, true), "info", "", 6000);
          } else {
            hooks.toast(text, "info");
          }
        } else if (!s.bot && was.bot) {
          hooks.narrate([{ text: t("clock.back", { name: who[i] }) }], false);
          if (i === st.seat) {
            backNote = backWords(next, s);
            if (takeoverToast) takeoverToast.remove();
            hooks.toast(t(backNote.key, backNote.vars), "info", "", 6000);
            clearTimeout(backTimer);
            backTimer = setTimeout(dropBackNote, 8000);
          } else {
            hooks.toast(t("clock.back", { name: who[i] }), "info");
          }
        }
      });
    }
    drawNotice();
    drawClocks();
    hooks.standInChanged();
  }

  // "Ann ran out of time: the heuristic bot plays for them." (`you`: "You ran out of time …").
  function takeoverText(s, i, who, you = false) {
    const key = s.reason === "away" ? "clock.away" : "clock.timeout";
    return t(you ? `${key}.you` : key, { name: who[i], bot: botName(st.clock.bot) });
  }

  function dropBackNote() {
    clearTimeout(backTimer);
    if (!backNote) return;
    backNote = null;
    drawNotice();
  }

  /** The stand-in bot's name while it plays this page's seat in a game still going, else null. */
  function standIn() {
    const clock = st.clock;
    if (st.seat === null || !clock || !st.view || st.view.header.terminal) return null;
    const s = clock.seats[st.seat];
    return s && s.bot ? botName(clock.bot) : null;
  }

  /** A renderer's turn line while the stand-in bot plays for this page's person (renderers ask
   * for it only while standIn() names a bot). */
  function standInLine() {
    return el("span", { class: "stand-in", "data-testid": "stand-in",
      text: t("clock.standIn", { bot: standIn() ?? "", back: t("clock.imBack") }) });
  }

  /** The clock notice: the seats the stand-in plays (this page's first, with "I'm back"), and
   * what a returning person is told of their time. */
  function drawNotice() {
    const who = st.names();
    const seat = st.seat;
    const clock = st.clock;
    // Once the game is over there is nothing to come back to: the standings mark it instead.
    const over = st.view && st.view.header.terminal;
    const taken = clock && !over ? clock.seats.map((s, i) => [s, i]).filter(([s]) => s.bot) : [];
    // Your own seat first, spoken to you, with the way back.
    taken.sort(([, a], [, b]) => (b === seat) - (a === seat));
    const rows = taken.map(([s, i]) => i === seat
      ? el("div", { class: "notice-row notice-mine" },
        el("span", { class: "notice-text", text: takeoverText(s, i, who, true) }),
        el("button", { type: "button", class: "primary im-back", "data-testid": "im-back", text: t("clock.imBack"),
          onclick: (ev) => {
            if (hooks.request({ type: "back" })) ev.currentTarget.disabled = true;
          } }))
      : el("div", { class: "notice-row" }, el("span", { class: "notice-text", text: takeoverText(s, i, who) })));
    if (backNote && !over) {
      rows.push(el("div", { class: "notice-row notice-back", "data-testid": "clock-back" },
        el("span", { class: "notice-text", text: t(backNote.key, backNote.vars) })));
    }
    clockNotice.hidden = rows.length === 0;
    clockNotice.classList.toggle("mine", taken.some(([, i]) => i === seat));
    clockNotice.classList.toggle("back", Boolean(backNote) && !taken.length);
    clockNotice.replaceChildren(...rows);
  }

  /** Every seat's clock in the scoreboard and the window's clock, as they stand now. */
  function drawClocks() {
    hooks.tick();
    const clock = st.clock;
    if (!clock) return;
    const gone = (performance.now() - st.clockAt) / 1000;
    for (const node of hooks.scoreboard.querySelectorAll("[data-testid=clock]")) {
      const i = Number(node.dataset.seat);
      const s = clock.seats[i];
      if (!s) continue;
      let state = "idle";
      let text = "";
      const seatRow = st.table.seats[i];
      if (seatRow && seatRow.kind === "bot") {
        state = "idle"; // a bot seat has no clock
      } else if (s.bot) {
        state = "bot";
        text = t("clock.bot");
      } else if (clock.move !== null) {
        if (s.running) {
          state = "running";
          const { moveLeft, bank, left } = timeLeft(s, gone);
          text = moveLeft < 0 ? t("clock.bankOnly", { bank: fmt(bank) })
            : clock.bank > 0 ? t("clock.moveAndBank", { move: fmt(moveLeft), bank: fmt(bank) })
              : t("clock.moveOnly", { move: fmt(moveLeft) });
          node.classList.toggle("low", left < LOW_SECONDS);
        } else {
          text = clock.bank > 0 ? t("clock.bankOnly", { bank: fmt(s.bank) }) : "";
          node.classList.remove("low");
        }
      }
      node.dataset.state = state;
      node.textContent = text;
      node.title = s.bot ? t("clock.botTitle", { bot: botName(clock.bot) }) : t("clock.title");
    }
    const done = st.view && st.view.header.terminal;
    windowClock.hidden = clock.window === null || Boolean(done);
    if (clock.window !== null) windowClock.textContent = t("clock.window", { time: fmt(clock.window - gone) });
  }

  /** Stop the clocks' timers (the page is left). */
  function destroy() {
    clearInterval(clockTimer);
    clearTimeout(backTimer);
  }

  return { windowClock, notice: clockNotice, set: setClock, draw: drawClocks, drawNotice, standIn, standInLine, destroy };
}

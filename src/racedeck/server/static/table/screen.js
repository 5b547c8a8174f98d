// The table page: its parts (static/table/*.js) made and wired together, drawn from the frames
// of the table's WebSocket, and drawn again in place in another language (the socket stays
// open). The parts: header.js (title, waiting line, badges), fairness.js (the fairness badge),
// scores.js (the scoreboard), clocks.js (clocks, the clock notice, the stand-in), turn.js (turn
// alerts, the docked hand), board.js (the game's renderer), log.js (the narration),
// standings.js (the end of a game), finished.js (finished games), connection.js (the socket),
// coach.js (a guided game's coach, above the board);
// state.js holds what they share.

import { el } from "../dom.js";
import { localView, t } from "../i18n.js";
import { createBoard } from "./board.js";
import { createClocks } from "./clocks.js";
import { createCoach } from "./coach.js";
import { createConnection } from "./connection.js";
import { createFairness } from "./fairness.js";
import { createFinished } from "./finished.js";
import { createHeader } from "./header.js";
import { createLog } from "./log.js";
import { createScores } from "./scores.js";
import { createStandings } from "./standings.js";
import { tableState } from "./state.js";
import { createTurn } from "./turn.js";

/**
 * Draw the page of table `info` (GET /api/tables/<id>) in `root`, for this browser's seat
 * `saved` ({seat, token}) or, with null, to watch. `shell`: the shell's helpers (app.js: api,
 * go, toast, showError, setConn, games, forgetSeat, clientSeed). Returns {leave() (the person
 * navigates away), relang() (redraw every word in the language now chosen)}.
 */
export function tableScreen(root, info, saved, shell) {
  const st = tableState(info, saved);
  let gameNo = null;
  let conn = null; // the socket (connection.js), opened once every part is drawn
  const scores = createScores(st);
  const log = createLog(st);
  const clocks = createClocks(st, {
    scoreboard: scores.list,
    toast: shell.toast,
    narrate: (evs, reset) => log.narrate(evs, reset),
    request: (frame) => conn.request(frame),
    tick: () => turn.draw(),
    standInChanged: () => board.syncStandIn(),
  });
  const board = createBoard(st, {
    act: (action) => conn.request({ type: "act", move: st.view.header.move, action }),
    standIn: clocks.standIn,
    standInLine: clocks.standInLine,
    toast: shell.toast,
  });
  const turn = createTurn(st, board.element, clocks.standIn);
  const fairness = createFairness(st, shell);
  const header = createHeader(st, shell, { alerts: turn.alerts, fairBox: fairness.element,
    windowClock: clocks.windowClock, clockNotice: clocks.notice });
  const standings = createStandings(st, shell);
  const finished = createFinished(st, shell);
  const coach = createCoach(st, { board: board.element, gameNo: () => gameNo });
  root.append(el("section", { class: "table-page" },
    header.element,
    el("div", { class: "table-body" },
      el("div", { class: "board-wrap" }, coach.element, standings.element, board.element),
      el("aside", { class: "side" }, scores.panel, log.panel, finished.panel))));
  shell.games().then((s) => { st.specs = s; drawTable(); }).catch(() => {});

  // Labels a language change redraws (the attributes label() does not reach).
  function drawLabels() {
    header.drawLabels();
    scores.drawLabels();
    log.drawLabels();
    finished.drawLabels();
    coach.drawLabels();
  }

  function drawScores() {
    scores.draw();
    clocks.draw();
  }

  // What the table description says: the header, the finished games, the fairness; before the
  // first view, the seats too.
  function drawTable() {
    header.draw();
    finished.load();
    fairness.draw();
    if (!st.view) {
      header.drawSeatsWanted();
      drawScores();
    }
  }

  function show(newView, evs, initial) {
    // Frames are drawn strictly in order, even while a renderer module is still loading.
    st.queue(async () => {
      st.sentView = newView;
      st.view = localView(newView);
      const h = st.view.header;
      turn.draw();
      await header.drawWaiting(h);
      drawScores();
      await board.show(st.view, evs, initial);
      coach.update(st.view, evs, initial);
      standings.draw();
      clocks.drawNotice();
    });
  }

  // Narration waits for the frames before it, so it is worded with the view it belongs to.
  function tell(evs, reset) {
    st.queue(() => log.narrate(evs, reset));
  }

  // Another language: every word on the page again, the board drawn afresh from the last view;
  // the socket stays open.
  function redraw() {
    drawLabels();
    drawTable();
    st.queue(async () => {
      if (!st.view) return;
      st.view = localView(st.sentView); // "heuristic bot" is "Heuristik-Bot" only while in German
      board.drop();
      await header.drawWaiting(st.view.header);
      drawScores();
      await board.showAfresh(st.view);
      coach.draw();
      standings.draw();
      clocks.drawNotice();
    });
    st.queue(() => log.narrate([], true, true));
  }

  function onFrame(frame) {
    switch (frame.type) {
      case "welcome": {
        st.table = frame.table;
        drawTable();
        clocks.set(st.table.clock);
        const fresh = gameNo !== frame.game_no;
        gameNo = frame.game_no;
        if (frame.view) show(frame.view, frame.events, true);
        else if (fresh && board.mounted()) board.drop();
        // This seat's answer to the open window, sealed until it closes (SB-9).
        if (frame.answer && frame.view) board.sealed(frame.view.header.move, frame.answer);
        tell(frame.events, true);
        break;
      }
      case "update": {
        const fresh = gameNo !== frame.game_no;
        if (fresh) {
          gameNo = frame.game_no;
          if (board.mounted()) board.drop();
          standings.hide();
        }
        show(frame.view, frame.events, fresh);
        fairness.update(frame);
        tell(frame.events, fresh);
        clocks.set(frame.clock);
        break;
      }
      case "table":
        st.table = frame.table;
        drawTable();
        if (st.view) drawScores();
        clocks.set(st.table.clock);
        break;
      case "error":
        if (frame.code === "auth/invalid" && st.mine && !conn.greeted()) {
          // The server does not know this seat's key (a new database?): watch instead.
          shell.toast(t("table.keyInvalid"));
          shell.forgetSeat(st.table.id);
          st.mine = null;
          st.seat = null;
        } else if (frame.code !== "action/stale") {
          shell.showError(frame);
          if (frame.id) board.refused();
        }
        break;
      default:
        break;
    }
  }

  drawLabels();
  drawTable();
  conn = createConnection(st, { onFrame, setConn: shell.setConn, toast: shell.toast });
  return {
    leave() {
      conn.close();
      clocks.destroy();
      board.destroy();
      turn.destroy();
    },
    relang: redraw,
  };
}

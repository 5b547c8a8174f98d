// The state a table page's parts share: what the server last said (the table, the view, the
// clock), who this page is (its seat and key, or none while watching), and the one chain every
// drawing waits its turn on, so frames are drawn strictly in order even while a renderer module
// is still loading. The parts read it; the composition (screen.js) and the clocks write it.

import { localName, t } from "../i18n.js";

/**
 * The state of a table page opened on `info` (GET /api/tables/<id>) by this browser's seat
 * `saved` ({seat, token}), or null to watch.
 */
export function tableState(info, saved) {
  const st = {
    table: info, // the table as last sent
    mine: saved, // this page's seat and key; null while watching
    seat: saved ? saved.seat : null,
    view: null, // the view in this language
    sentView: null, // the view as the server sent it: names are worded again in another language
    specs: [], // the games (GET /api/games), for the table's summary
    clock: null, // the table's clock as last sent …
    clockAt: 0, // … and when it came (performance.now()): the countdown runs from there
    drawing: Promise.resolve(),
    /** The seats' names: the view's once there is one, else the table's (or "Seat 2"). */
    names() {
      return (st.view && st.view.header.seat_names)
        || st.table.seats.map((s) => localName(s.name) || t("form.seat", { n: s.seat + 1 }));
    },
    /** Run `fn` once every drawing before it is done; returns the chain's new end. */
    queue(fn) {
      st.drawing = st.drawing.then(fn);
      return st.drawing;
    },
  };
  return st;
}

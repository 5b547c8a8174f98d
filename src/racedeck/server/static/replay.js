// The replay viewer: a finished game of a table (/t/<id>/games/<n>) or a record file the person
// opens or drops (/replay), stepped through event by event and drawn by the game's own renderer
// (games/<game-id>.js). The game is over, so every seat's view may be shown, or all at once.
// From any step, "What if…?" forks a private game against bots from there (POST /api/forks).
// The record is checked here too: the commitment and the seed's derivation in this browser
// (crypto.subtle), the replay to the stated result by the server (POST /api/verify).
//
// The server computes the steps (docs/protocol.md, "Replays, checks and what if"): the list of
// steps with their events at once, the views twenty steps at a time as the viewer needs them.
// Its words are English: the steps and events are worded here by the game's words module
// (static/words/<game-id>.js) from their fields, the seats' default names in this language.
// The shell draws the page again when the language changes; the step and the hands shown are
// kept in the history entry (and which record file was open), so it comes back where it was.
//
// Test hooks (data-testid): "replay" (the page; data-game), "record-file" (the file input),
// "record-drop", "replay-error", "replay-title", "fork-note", "verify" (data-state: checking|
// pass|fail|none), "verify-row" (data-check: commitment|derivation|replay; data-state:
// pass|fail|unknown), "verify-reason", "verify-problems", "replay-first", "replay-prev",
// "replay-next", "replay-last", "replay-slider", "replay-step" (data-step, data-total),
// "replay-seat" (the perspective: "all", "public" or a seat number), "replay-boards",
// "replay-board" (data-seat: a seat or "public"), "replay-narration", "replay-steps",
// "replay-step-item" (data-step; aria-current on the shown one), "replay-standings", "whatif",
// "whatif-seat", "whatif-bot", "whatif-budget", "fork".

import { el } from "./dom.js";
import { lang, listOf, localName, localView, t, tn } from "./i18n.js";

const CHUNK = 20; // steps whose views one request fetches (the server's default)
const STYLE = "/static/replay.css";

// -- the record and its checks -------------------------------------------------------------------

/**
 * Parse a record file's text. JSON numbers are doubles, and a game's seed is a 63-bit integer:
 * the seed is read from its own digits (the reviver's source text) as a BigInt, so a check of
 * its derivation compares every bit. Returns {record, seed} (seed null where unreadable).
 */
export function parseRecord(text) {
  let seed = null;
  const record = JSON.parse(text, function revive(key, value, context) {
    if (key === "seed" && typeof value === "number" && Object.hasOwn(this, "rules_version")) {
      try {
        seed = BigInt(context && context.source !== undefined ? context.source : value);
      } catch {
        seed = null;
      }
    }
    return value;
  });
  if (!record || typeof record !== "object" || Array.isArray(record) || typeof record.game !== "string") {
    throw new Error(t("replay.not-a-record"));
  }
  return { record, seed };
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  if (!crypto.subtle) return null; // plain http away from localhost
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** The game's seed from the server seed and the client seeds: as core/fairness.py game_seed. */
export async function gameSeed(serverSeed, clientSeeds) {
  const digest = await sha256([serverSeed, ...clientSeeds].map((s) => s + "\n").join(""));
  if (digest === null) return null;
  let n = 0n;
  for (const b of digest.slice(0, 8)) n = (n << 8n) | BigInt(b);
  return n >> 1n;
}

function resultWords(result, names) {
  if (!result || typeof result !== "object") return "—";
  const who = (result.winners || []).map((i) => names[i] ?? `#${i + 1}`).join(", ");
  return t("verify.result", { scores: (result.scores || []).join(" – "), winners: who });
}

/**
 * Check a record (its text): the commitment and the seed here, the replay on the server.
 * Returns {state: "pass"|"fail"|"none", note, rows: [{check, state, reason}], problems}.
 */
export async function checkRecord(text, names) {
  const { record, seed } = parseRecord(text);
  const meta = record.meta && typeof record.meta === "object" ? record.meta : {};
  const fair = meta.fair;
  if (!fair || typeof fair !== "object") {
    const note = meta.fork ? t("verify.fork") : t("verify.unfair");
    return { state: "none", note, rows: [], problems: [] };
  }
  const rows = [];
  const serverSeed = typeof fair.server_seed === "string" ? fair.server_seed : null;
  const clientSeeds = Array.isArray(fair.client_seeds) && fair.client_seeds.every((s) => typeof s === "string")
    ? fair.client_seeds : null;

  // 1. The revealed server seed hashes to the commitment published before the deal.
  if (!serverSeed || typeof fair.commitment !== "string") {
    rows.push({ check: "commitment", state: "fail", reason: t("verify.commitment.missing") });
  } else {
    const digest = await sha256(serverSeed);
    if (digest === null) rows.push({ check: "commitment", state: "unknown", reason: t("verify.no-crypto") });
    else if (hex(digest) === fair.commitment) rows.push({ check: "commitment", state: "pass", reason: "" });
    else {
      rows.push({ check: "commitment", state: "fail",
        reason: t("verify.commitment.fail", { hash: hex(digest), commitment: fair.commitment }) });
    }
  }

  // 2. The record's seed is the one derived from the server seed and the client seeds.
  if (!serverSeed || !clientSeeds || seed === null) {
    rows.push({ check: "derivation", state: "fail", reason: t("verify.derivation.missing") });
  } else {
    const derived = await gameSeed(serverSeed, clientSeeds);
    if (derived === null) rows.push({ check: "derivation", state: "unknown", reason: t("verify.no-crypto") });
    else if (derived === seed) rows.push({ check: "derivation", state: "pass", reason: "" });
    else {
      rows.push({ check: "derivation", state: "fail",
        reason: t("verify.derivation.fail", { seed: String(seed), derived: String(derived) }) });
    }
  }

  // 3. The actions replay to the result the record states (the server replays them).
  const res = await fetch("/api/verify", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const server = await res.json().catch(() => ({}));
  let problems = [];
  if (!res.ok) {
    const why = (server.error && server.error.message) || res.statusText;
    rows.push({ check: "replay", state: "fail", reason: t("verify.replay.broken", { detail: why }) });
  } else {
    problems = server.problems || [];
    if (!server.replays) {
      rows.push({ check: "replay", state: "fail", reason: t("verify.replay.broken", { detail: server.replay_error }) });
    } else if (!server.result_matches) {
      rows.push({ check: "replay", state: "fail", reason: t("verify.replay.differs",
        { stated: resultWords(server.stated, names), result: resultWords(server.result, names) }) });
    } else {
      rows.push({ check: "replay", state: "pass", reason: "" });
    }
  }
  const failed = rows.some((r) => r.state === "fail") || problems.length > 0;
  return { state: failed ? "fail" : "pass", note: "", rows, problems };
}

// The three checks in words (each key written out, so a search for a message finds its use).
const CHECKS = {
  commitment: () => t("verify.commitment"),
  derivation: () => t("verify.derivation"),
  replay: () => t("verify.replay"),
};

function drawCheck(box, check) {
  box.dataset.state = check.state;
  if (check.state === "none") {
    box.replaceChildren(el("p", { class: "verify-note", text: check.note }));
    return;
  }
  const verdict = check.state === "pass" ? t("verify.pass") : t("verify.fail");
  box.replaceChildren(
    el("p", { class: "verify-verdict", text: verdict }),
    el("ul", { class: "verify-rows" }, ...check.rows.map((r) => el("li",
      { class: `verify-row ${r.state}`, "data-testid": "verify-row", "data-check": r.check, "data-state": r.state },
      el("span", { class: "mark", "aria-hidden": "true", text: r.state === "pass" ? "✓" : r.state === "fail" ? "✗" : "?" }),
      el("span", { class: "what", text: CHECKS[r.check]() }),
      r.reason ? el("div", { class: "reason", "data-testid": "verify-reason", text: r.reason }) : ""))),
    check.problems.length
      ? el("details", { class: "verify-problems", "data-testid": "verify-problems" },
        el("summary", { text: tn("verify.server", check.problems.length) }),
        el("ul", {}, ...check.problems.map((p) => el("li", { text: p }))))
      : "");
}

// -- words in this language ----------------------------------------------------------------------

// The game's words module (null without one: the server's English words are shown then).
function wordsFor(gameId) {
  return import(`/static/words/${gameId}.js`).catch((e) => {
    console.warn("no words for", gameId, e);
    return null;
  });
}

// -- where the reader was: kept in the history entry ----------------------------------------------

// The shell draws the page again when the language changes (and when going back): the step and
// the hands shown come back from here, and the record file opened, by its number in `opened`
// (a reload starts afresh with the form to open one).
const opened = new Map(); // number -> {name, text}, the record files opened since the page loaded

function savedPlace() {
  const state = history.state && history.state.replay;
  return state && typeof state === "object" ? state : {};
}

function savePlace(changes) {
  try {
    history.replaceState({ ...(history.state || {}), replay: { ...savedPlace(), ...changes } }, "");
  } catch (e) {
    console.warn("the replay's place is not kept", e); // the browser may refuse a change
  }
}

// -- the page -------------------------------------------------------------------------------------

function loadStyle(href, key) {
  if (!document.querySelector(`link[data-style="${key}"]`)) {
    document.head.append(el("link", { rel: "stylesheet", href, "data-style": key }));
  }
}

/**
 * The replay page in `root`. `source` is {tableId, gameNo} for a table's finished game, or null
 * to open a record file. `env` holds the shell's helpers: api, go, toast, rememberSeat, games,
 * savedName. Returns what to do when the person leaves the page.
 */
export function replayPage(root, env, source) {
  loadStyle(STYLE, "replay");
  const page = el("section", { class: "replay-page", "data-testid": "replay" });
  root.append(page);
  let viewer = null;
  let gone = false;
  const leave = () => { gone = true; if (viewer) viewer.destroy(); viewer = null; };
  // A viewer that is ready after the person left is let go at once (its keys are global).
  const keep = (v) => { if (gone) v.destroy(); else viewer = v; };

  if (source) {
    document.title = t("replay.doc-title.plain");
    (async () => {
      const base = `/api/tables/${source.tableId}/games/${source.gameNo}`;
      try {
        const recordRes = await fetch(`${base}/record`);
        const text = await recordRes.text();
        if (!recordRes.ok) throw new Error(errorText(text, recordRes));
        keep(await openViewer(page, env, { text, tableId: source.tableId, gameNo: source.gameNo,
          fetchReplay: (query) => env.api("GET", `${base}/replay?${query}`) }));
      } catch (e) {
        page.replaceChildren(failure(e.message));
      }
    })();
    return leave;
  }

  document.title = t("replay.doc-title.plain");
  const input = el("input", { type: "file", accept: ".json,application/json", id: "record-file",
    class: "visually-hidden", "data-testid": "record-file" });
  const drop = el("div", { class: "panel replay-open", "data-testid": "record-drop" },
    el("h1", { text: t("replay.open.title") }),
    el("p", { class: "muted", text: t("replay.open.help") }),
    el("label", { class: "file-button", for: "record-file", text: t("replay.open.choose") }), input);
  page.append(drop);
  const show = async (name, text) => {
    if (viewer) viewer.destroy();
    page.replaceChildren();
    try {
      keep(await openViewer(page, env, { text, file: name,
        fetchReplay: (query) => postRecord(`/api/replay?${query}`, text) }));
    } catch (e) {
      page.replaceChildren(failure(e.message));
    }
  };
  const open = async (file) => {
    if (!file) return;
    let text;
    try {
      text = await file.text();
      parseRecord(text);
    } catch (e) {
      env.toast(t("replay.open.bad", { name: file.name, why: e.message }));
      return;
    }
    const number = opened.size + 1;
    opened.set(number, { name: file.name, text });
    savePlace({ file: number, step: 0, perspective: "all" });
    await show(file.name, text);
  };
  // The file this page had open before it was drawn again (in another language, say).
  const before = opened.get(savedPlace().file);
  if (before) show(before.name, before.text);
  input.addEventListener("change", () => open(input.files[0]));
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    open(e.dataTransfer.files[0]);
  });
  return leave;
}

function errorCode(text) {
  try {
    return JSON.parse(text).error.code;
  } catch {
    return null;
  }
}

function errorText(text, res) {
  try {
    return JSON.parse(text).error.message;
  } catch {
    return res.statusText;
  }
}

async function postRecord(path, text) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const body = await res.text();
  if (!res.ok) throw Object.assign(new Error(errorText(body, res)), { code: errorCode(body) });
  return JSON.parse(body);
}

function failure(message) {
  return el("div", { class: "panel" }, el("h1", { text: t("replay.unavailable") }),
    el("p", { "data-testid": "replay-error", text: message }),
    el("a", { href: "/", text: t("replay.back") }));
}

// The viewer once the record is at hand. `src`: {text, tableId?, gameNo?, file?, fetchReplay}.
async function openViewer(page, env, src) {
  const { record } = parseRecord(src.text);
  const verifyBox = el("div", { class: "verify", "data-testid": "verify", "data-state": "checking" },
    el("p", { class: "muted", text: t("verify.checking") }));
  const head = el("div", { class: "panel replay-head" });
  page.append(head);
  // The check does not wait for the replay: a record that does not replay is still judged.
  const names0 = (Array.isArray(record.meta && record.meta.names) ? record.meta.names : []).map(localName);
  const checking = checkRecord(src.text, names0)
    .then((c) => drawCheck(verifyBox, c))
    .catch((e) => drawCheck(verifyBox, { state: "fail", rows: [{ check: "replay", state: "fail", reason: e.message }], problems: [] }));

  const where = src.tableId
    ? t("replay.from-table", { table: src.tableId, n: src.gameNo })
    : t("replay.from-file", { name: src.file });
  const title = el("h1", { "data-testid": "replay-title", text: t("replay.title", { game: record.game }) });
  const another = src.file ? el("a", { href: "/replay", "data-testid": "replay-another", text: t("replay.open.another"),
    onclick: (e) => { e.preventDefault(); env.go("/replay"); } }) : "";
  head.append(title, el("p", { class: "muted" }, where, another ? " · " : "", another), verifyBox);
  env.games().then((list) => {
    const g = list.find((x) => x.id === record.game);
    if (g) title.textContent = t("replay.title", { game: g.title });
  }).catch(() => {});

  let data;
  try {
    data = await src.fetchReplay(`count=${CHUNK}`);
  } catch (e) {
    // A record that does not replay: the check above already says why.
    const why = e.code === "record/invalid" ? t("replay.does-not-replay") : t("replay.cannot", { why: e.message });
    head.append(el("p", { class: "replay-error", "data-testid": "replay-error", text: why }));
    await checking;
    return { destroy() {} };
  }
  page.dataset.game = data.game;
  document.title = t("replay.doc-title", { game: data.title });
  title.textContent = t("replay.title", { game: data.title });
  if (data.fork) {
    const f = data.fork;
    head.insertBefore(el("p", { class: "fork-note", "data-testid": "fork-note",
      text: t("replay.fork-note", { step: f.step, n: f.game_no ?? "?", table: f.table ?? "?" }) }), verifyBox);
  }
  return viewer(page, env, src, data, await wordsFor(data.game));
}

function viewer(page, env, src, data, words) {
  const names = data.names.map(localName);
  const total = data.total;
  const last = total - 1;
  const views = new Map(); // step -> [public view, seat 0's, …]
  const loading = new Map(); // chunk start -> promise
  const keep = (start, items) => items.forEach((v, k) => views.set(start + k, v));
  keep(data.views.start, data.views.items);

  // Where the reader was before the page was drawn again, else the deal with every hand.
  const place = savedPlace();
  const validSeat = (p) => p === "all" || p === "public" || (/^\d+$/.test(p) && Number(p) < names.length);
  let index = Number.isInteger(place.step) ? Math.max(0, Math.min(total - 1, place.step)) : 0;
  let perspective = typeof place.perspective === "string" && validSeat(place.perspective) ? place.perspective : "all";
  let renderers = []; // [{seat, renderer, box}]
  let mountedFor = null;
  let drawn = -1; // the step the boards show
  let destroyed = false;
  let drawing = Promise.resolve();

  // -- controls --
  const button = (id, label, text, onclick) => el("button", { type: "button", "data-testid": id,
    "aria-label": label, title: label, text, onclick });
  const first = button("replay-first", t("replay.first"), "«", () => go(0));
  const prev = button("replay-prev", t("replay.prev"), "‹", () => go(index - 1));
  const next = button("replay-next", t("replay.next"), "›", () => go(index + 1, true));
  const lastBtn = button("replay-last", t("replay.last"), "»", () => go(last));
  const slider = el("input", { type: "range", min: 0, max: last, value: 0, step: 1,
    "data-testid": "replay-slider", "aria-label": t("replay.slider") });
  slider.addEventListener("input", () => go(Number(slider.value)));
  const counter = el("span", { class: "replay-counter", "data-testid": "replay-step", "aria-live": "polite" });
  const seatSel = el("select", { "data-testid": "replay-seat", "aria-label": t("replay.seat") },
    el("option", { value: "all", text: t("replay.seat.all") }),
    el("option", { value: "public", text: t("replay.seat.public") }),
    ...names.map((n, i) => el("option", { value: String(i), text: t("replay.seat.one", { name: n }) })));
  seatSel.value = perspective;
  seatSel.addEventListener("change", () => {
    perspective = seatSel.value;
    savePlace({ perspective });
    draw(false);
  });
  const controls = el("div", { class: "panel replay-controls" },
    el("div", { class: "replay-buttons" }, first, prev, next, lastBtn),
    slider, counter,
    el("label", { class: "replay-seat" }, el("span", { text: t("replay.seat") }), seatSel));

  // -- board, narration, steps, what if --
  const boards = el("div", { class: "replay-boards", "data-testid": "replay-boards" });
  const standings = el("div", { class: "panel replay-standings", "data-testid": "replay-standings", hidden: true });
  const narration = el("div", { class: "replay-narration", "data-testid": "replay-narration", "aria-live": "polite" });
  const stepList = el("ol", { class: "replay-steps", "data-testid": "replay-steps", "aria-label": t("replay.steps") });
  const whatif = whatIfPanel(env, src, data, () => index);
  page.append(controls, el("div", { class: "replay-body" },
    el("div", { class: "replay-main" }, standings, boards),
    el("aside", { class: "replay-side" },
      el("div", { class: "panel replay-now" }, el("h2", { text: t("replay.this-step") }), narration),
      whatif.panel,
      el("div", { class: "panel replay-list" }, el("h2", { text: t("replay.steps") }), stepList))));

  const actor = (s) => (s.seat === null ? "" : names[s.seat] ?? `#${s.seat + 1}`);
  // An event in this language (the words module's; null for one it does not know).
  const word = (e, view) => {
    try {
      return (words && words.describeEvent(e, { view: localView(view), names, seats: names, config: data.config })) ?? null;
    } catch (err) {
      console.warn("cannot word event", e, err);
      return null;
    }
  };
  // … else the server's English words.
  const say = (e, view) => word(e, view) ?? e.text;
  // A step in words: what its actor did, as the event the step made for the actor's eyes (the
  // card placed face down, say), else its first public one. A step with no such event (a pass
  // no one has seen yet) keeps the server's words, which are English: in another language it
  // only says who moved. The first view serves all: what the words need of it does not change.
  const firstView = data.views.items[0] && data.views.items[0][0];
  const stepWords = (s) => {
    if (s.index === 0) return t("replay.deal");
    const own = s.events.find((e) => e.audience === s.seat) || s.events.find((e) => e.audience === undefined);
    const worded = own ? word(own, firstView) : null;
    if (worded) return worded;
    if (s.text && (lang() === "en" || !words)) return t("replay.by", { name: actor(s), text: s.text });
    return t("replay.moved", { name: actor(s) });
  };
  stepList.append(...data.steps.map((s) => el("li", { "data-testid": "replay-step-item", "data-step": s.index },
    el("button", { type: "button", class: "step-link", onclick: () => go(s.index) },
      el("span", { class: "n", text: String(s.index) }), el("span", { text: stepWords(s) })))));

  // -- keys: ← → step, Home / End jump (not while typing, nor on the slider, which steps itself) --
  const onKey = (e) => {
    const tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) return;
    const to = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to, e.key === "ArrowRight");
  };
  document.addEventListener("keydown", onKey);

  const visible = (e, seat) => e.audience === undefined || (seat !== null && e.audience === seat);
  const feedTo = (seat, upTo, only) => {
    const out = [];
    for (let i = only ? upTo : 0; i <= upTo; i += 1) {
      for (const e of data.steps[i].events) if (visible(e, seat)) out.push(e);
    }
    return out;
  };

  function viewsAt(i) {
    if (views.has(i)) return Promise.resolve(views.get(i));
    const start = i - (i % CHUNK);
    if (!loading.has(start)) {
      loading.set(start, src.fetchReplay(`start=${start}&count=${CHUNK}&steps=false`)
        .then((d) => keep(d.views.start, d.views.items))
        .finally(() => loading.delete(start)));
    }
    return loading.get(start).then(() => views.get(i));
  }

  function go(to, stepping = false) {
    const i = Math.max(0, Math.min(last, to));
    if (i === index && mountedFor !== null) return;
    const animate = stepping && i === index + 1;
    index = i;
    remember();
    draw(animate);
    // The next stretch of views is fetched before it is needed.
    if (i + 5 < total && !views.has(i + 5)) viewsAt(i + 5).catch(() => {});
  }

  async function mount() {
    const key = perspective;
    if (mountedFor === key) return;
    for (const r of renderers) r.renderer.destroy();
    renderers = [];
    boards.replaceChildren();
    let mod = null;
    try {
      loadStyle(`/static/games/${data.game}.css`, `game-${data.game}`);
      mod = await import(`/static/games/${data.game}.js`);
    } catch (e) {
      console.warn("no renderer for", data.game, e);
    }
    const seats = key === "all" ? names.map((_, i) => i) : key === "public" ? [null] : [Number(key)];
    for (const seat of seats) {
      const root = el("div", { class: "board" });
      const label = seat === null ? t("replay.seat.public") : t("replay.hand-of", { name: names[seat] });
      const box = el("div", { class: "replay-board panel", "data-testid": "replay-board", "data-seat": seat === null ? "public" : seat },
        seats.length > 1 ? el("h2", { class: "replay-board-title", text: label }) : "", root);
      boards.append(box);
      const ctx = { send: () => {}, seat, names, options: data.config, owner: seats.length > 1 ? label : null };
      const renderer = mod ? mod.createRenderer(root, ctx) : jsonRenderer(root);
      renderers.push({ seat, renderer, box });
    }
    boards.classList.toggle("many", seats.length > 1);
    mountedFor = key;
  }

  function draw(animate) {
    const i = index;
    drawing = drawing.then(async () => {
      if (destroyed || i !== index) return; // a later step was asked for meanwhile
      let vs;
      try {
        vs = await viewsAt(i);
      } catch (e) {
        env.toast(t("replay.cannot", { why: e.message }));
        return;
      }
      if (destroyed || i !== index) return;
      const fresh = mountedFor !== perspective;
      await mount();
      // A step animates only from the step before it (keys pressed fast skip some draws).
      const initial = fresh || !animate || drawn !== i - 1;
      drawn = i;
      for (const r of renderers) {
        const view = vs[r.seat === null ? 0 : r.seat + 1];
        try {
          r.renderer.update(localView(view), feedTo(r.seat, i, !initial), { initial });
        } catch (e) {
          console.error(e);
        }
      }
      drawChrome(vs);
    });
  }

  function drawChrome(vs) {
    const s = data.steps[index];
    counter.textContent = t("replay.step", { n: index, total: last });
    counter.dataset.step = index;
    counter.dataset.total = last;
    slider.value = index;
    first.disabled = prev.disabled = index === 0;
    next.disabled = lastBtn.disabled = index === last;
    const seat = perspective === "all" ? "all" : perspective === "public" ? null : Number(perspective);
    const shown = s.events.filter((e) => seat === "all" || visible(e, seat));
    narration.replaceChildren(
      el("p", { class: "replay-action", text: index === 0 ? t("replay.deal") : t("replay.action", { n: index, text: stepWords(s) }) }),
      shown.length
        ? el("ul", { class: "log", tabindex: "0", "aria-label": t("table.log") }, ...shown.map((e) => el("li", { class: e.audience !== undefined ? "private" : "",
          text: e.audience !== undefined && seat === "all" ? t("replay.private", { name: names[e.audience], text: say(e, vs[0]) }) : say(e, vs[0]) })))
        : el("p", { class: "muted", text: t("replay.no-events") }));
    for (const li of stepList.children) {
      if (Number(li.dataset.step) === index) {
        li.setAttribute("aria-current", "step");
        // Scroll the list alone (scrollIntoView would move the whole page under the reader).
        const top = li.offsetTop;
        if (top < stepList.scrollTop || top + li.offsetHeight > stepList.scrollTop + stepList.clientHeight) {
          stepList.scrollTop = top - stepList.clientHeight / 2;
        }
      } else li.removeAttribute("aria-current");
    }
    drawStandings(vs[0]);
    whatif.update(index, last);
  }

  function drawStandings(view) {
    const h = view && view.header;
    if (!h || !h.terminal || !h.outcome) {
      standings.hidden = true;
      return;
    }
    const o = h.outcome;
    const who = o.names && o.names.length ? o.names.map(localName) : names;
    const order = who.map((_, i) => i).sort((a, b) => o.ranks[a] - o.ranks[b]);
    const winners = listOf(o.winners.map((i) => who[i]));
    standings.replaceChildren(
      el("h2", { text: tn("replay.win", o.winners.length, { names: winners }) }),
      el("ol", { class: "ranks" }, ...order.map((i) => el("li", { class: o.winners.includes(i) ? "winner" : "" },
        el("span", { class: "rank", text: `${o.ranks[i]}.` }),
        el("span", { class: "name", text: who[i] }),
        el("span", { class: "pts", text: String(o.scores[i]) })))));
    standings.hidden = false;
  }

  // The step is kept once the stepping pauses (the browser limits how often history changes).
  let keepTimer = null;
  function remember() {
    clearTimeout(keepTimer);
    keepTimer = setTimeout(() => { if (!destroyed) savePlace({ step: index }); }, 200);
  }

  draw(false);
  return {
    destroy() {
      clearTimeout(keepTimer);
      destroyed = true;
      document.removeEventListener("keydown", onKey);
      for (const r of renderers) r.renderer.destroy();
    },
  };
}

// A board for a game without a renderer: its view as JSON (a replay stays readable).
function jsonRenderer(root) {
  const pre = el("pre", { class: "replay-json" });
  root.append(pre);
  return { update(view) { pre.textContent = JSON.stringify(view, null, 1); }, destroy() { pre.remove(); } };
}

// A bot's name in words (a bot without its own message keeps its name).
const BOTS = {
  random: () => t("whatif.bot.random"),
  heuristic: () => t("whatif.bot.heuristic"),
  search: () => t("whatif.bot.search"),
};

function botLabel(name) {
  return BOTS[name] ? BOTS[name]() : name;
}

// "What if…?": fork a private game against bots from the shown step.
function whatIfPanel(env, src, data, currentStep) {
  const seat = el("select", { id: "whatif-seat", "data-testid": "whatif-seat" },
    ...data.names.map((n, i) => el("option", { value: i, text: localName(n) })));
  const bot = el("select", { id: "whatif-bot", "data-testid": "whatif-bot" });
  const budget = el("input", { type: "number", min: 1, max: 2000, value: 200, class: "budget", hidden: true,
    "data-testid": "whatif-budget", "aria-label": t("whatif.budget") });
  const fork = el("button", { type: "button", class: "primary", "data-testid": "fork", text: t("whatif.play") });
  const hint = el("p", { class: "muted small" });
  const panel = el("div", { class: "panel whatif", "data-testid": "whatif" },
    el("h2", { text: t("whatif.title") }), hint,
    el("div", { class: "field" }, el("label", { for: "whatif-seat", text: t("whatif.seat") }), seat),
    el("div", { class: "field" }, el("label", { for: "whatif-bot", text: t("whatif.bots") }),
      el("div", { class: "whatif-bot" }, bot, budget)),
    fork, el("p", { class: "muted small", text: t("whatif.unfair") }));
  bot.addEventListener("change", () => { budget.hidden = bot.value !== "search"; });
  env.games().then((list) => {
    const g = list.find((x) => x.id === data.game);
    const bots = g ? g.bots : [{ name: "random" }];
    bot.replaceChildren(...bots.map((b) => el("option", { value: b.name, selected: b.name === "heuristic",
      text: botLabel(b.name) })));
    const search = bots.find((b) => b.name === "search");
    if (search) Object.assign(budget, { min: search.budget.min, max: search.budget.max, value: search.budget.default });
  }).catch(() => bot.replaceChildren(el("option", { value: "random", text: botLabel("random") })));

  fork.addEventListener("click", async () => {
    const step = currentStep();
    const botName = bot.value === "search" ? `search@${budget.value}` : bot.value;
    const ask = { step, seat: Number(seat.value), bot: botName, name: env.savedName() || null };
    fork.disabled = true;
    try {
      // A file's record goes as it was read: its 63-bit seed must not pass through a double.
      const res = src.tableId
        ? await env.api("POST", "/api/forks", { table_id: src.tableId, game_no: src.gameNo, ...ask })
        : await postRecord("/api/forks", `{"record":${src.text},${JSON.stringify(ask).slice(1)}`);
      env.rememberSeat(res.table_id, res.seat, res.token);
      env.go(`/t/${res.table_id}`);
    } catch (e) {
      env.toast(e.message);
      fork.disabled = false;
    }
  });
  return {
    panel,
    update(index, last) {
      const over = index >= last;
      fork.disabled = over;
      hint.textContent = over ? t("whatif.over") : t("whatif.help", { n: index });
    },
  };
}

// The lobby's new-table form: the game, your name, the players and who sits where, the
// game's options and the clock. `shell` brings what the form needs of the page around it
// ({api, go, toast, showError, rememberSeat, savedName, clientSeed, nameKey}).

import { el } from "./dom.js";
import { gameWord, optionLabel, optionValue, rulesLink } from "./game-words.js";
import { has, t } from "./i18n.js";

// The server's "allowed" line ("integer, 2 to 6", "one of base, tactical" …) in words.
function allowedText(allowed) {
  if (!allowed) return "";
  let m = /^integer, (-?\d+) to (-?\d+)$/.exec(allowed);
  if (m) return t("form.allowed.range", { min: m[1], max: m[2] });
  if (allowed === "integer") return t("form.allowed.integer");
  if (allowed === "true/false") return "";
  if (/^one of /.test(allowed)) return "";
  m = /(-?\d+) to (-?\d+)$/.exec(allowed);
  if (/^a list/.test(allowed)) return m ? t("form.allowed.listRange", { min: m[1], max: m[2] }) : t("form.allowed.list");
  return allowed;
}

function optionInput(gameId, opt) {
  const id = "opt-" + opt.name;
  const d = opt.default;
  const common = { id, name: opt.name, "data-testid": "option", "data-option": opt.name };
  const choices = /^one of (.+)$/.exec(opt.allowed || "");
  let input;
  if (typeof d === "boolean") {
    input = el("input", { ...common, type: "checkbox", checked: d });
  } else if (choices) {
    input = el("select", common, ...choices[1].split(", ").map((c) =>
      el("option", { value: c, selected: String(d) === c, text: optionValue(gameId, opt.name, c) })));
  } else if (typeof d === "number") {
    const range = /(-?\d+) to (-?\d+)/.exec(opt.allowed || "");
    input = el("input", { ...common, type: "number", step: 1, value: d,
      min: range ? range[1] : null, max: range ? range[2] : null });
  } else if (typeof d === "string") {
    input = el("input", { ...common, type: "text", value: d, spellcheck: "false" });
  } else {
    input = el("input", { ...common, type: "text", value: JSON.stringify(d), spellcheck: "false" });
  }
  const allowed = allowedText(opt.allowed);
  return el("div", { class: "field" },
    el("label", { for: id, text: optionLabel(gameId, opt.name) }), input,
    el("small", { class: "muted", text: gameWord(gameId, `option.${opt.name}.help`, opt.help) + (allowed ? ` (${allowed})` : "") }));
}

function readOption(opt, input) {
  if (input.type === "checkbox") return input.checked;
  if (typeof opt.default === "number") return Number(input.value);
  if (typeof opt.default === "string") return input.value;
  try {
    return JSON.parse(input.value);
  } catch {
    throw new Error(t("form.badJson", { option: opt.name, example: JSON.stringify(opt.default) }));
  }
}

export function newTableForm(form, list, shell) {
  const { api, go, toast, showError, rememberSeat, savedName, clientSeed, nameKey } = shell;
  const gameSel = el("select", { id: "game", "data-testid": "game-select" },
    ...list.map((g) => el("option", { value: g.id, text: gameWord(g.id, "title", g.title) })));
  const players = el("select", { id: "players", "data-testid": "players" });
  const seatsBox = el("div", { class: "seats" });
  const optsBox = el("details", { class: "options" }, el("summary", { text: t("form.options") }));
  const name = el("input", { id: "your-name", "data-testid": "your-name", maxlength: 24,
    value: savedName(), placeholder: t("form.namePlaceholder"), autocomplete: "nickname" });
  const summary = el("p", { class: "muted small" });
  const clockProfile = el("select", { id: "clock-profile", "data-testid": "clock-profile" },
    ...["unlimited", "slow", "normal", "fast", "blitz"].map((p) => el("option", { value: p,
      text: t(`clock.profile.${p}`), selected: p === "normal" })));
  const clockGrace = el("input", { id: "clock-grace", "data-testid": "clock-grace", type: "number",
    min: 0, max: 3600, step: 1, value: 60, class: "budget" });
  const clockBot = el("select", { id: "clock-bot", "data-testid": "clock-bot" });
  const clockSummary = el("summary", { text: t("clock.form.summary", { profile: t(`clock.profile.${clockProfile.value}`) }) });
  clockProfile.addEventListener("change", () => {
    clockSummary.textContent = t("clock.form.summary", { profile: t(`clock.profile.${clockProfile.value}`) });
  });
  const clockBox = el("details", { class: "clock-box" },
    clockSummary,
    el("div", { class: "field" }, el("label", { for: "clock-profile", text: t("clock.form.profile") }), clockProfile),
    el("div", { class: "field" }, el("label", { for: "clock-grace", text: t("clock.form.grace") }), clockGrace,
      el("small", { class: "muted", text: t("clock.form.graceHelp") })),
    el("div", { class: "field" }, el("label", { for: "clock-bot", text: t("clock.form.bot") }), clockBot,
      el("small", { class: "muted", text: t("clock.form.botHelp") })));
  const create = el("button", { type: "submit", class: "primary", "data-testid": "create-table",
    text: t("form.create") });
  form.replaceChildren(
    el("h2", { text: t("form.title") }),
    el("div", { class: "field" }, el("label", { for: "game", text: t("form.game") }), gameSel),
    summary,
    el("div", { class: "field" }, el("label", { for: "your-name", text: t("form.yourName") }), name),
    el("div", { class: "field" }, el("label", { for: "players", text: t("form.players") }), players),
    seatsBox, optsBox, clockBox, create);

  const spec = () => list.find((g) => g.id === gameSel.value);
  const seatRow = (i, g) => {
    const kind = el("select", { "data-testid": "seat-kind", "data-seat": i, "aria-label": t("form.seat", { n: i + 1 }) },
      el("option", { value: "human", text: i === 0 ? t("form.you") : t("form.person") }),
      ...g.bots.map((b) => el("option", { value: b.name,
        text: has(`form.bot.${b.name}`) ? t(`form.bot.${b.name}`) : t("form.bot", { name: b.name }),
        selected: i > 0 && b.name === "heuristic" })));
    const searchBot = g.bots.find((b) => b.name === "search");
    const budget = el("input", { type: "number", min: searchBot.budget.min, max: searchBot.budget.max,
      value: searchBot.budget.default, "data-testid": "seat-budget", "data-seat": i,
      "aria-label": t("form.budget", { n: i + 1 }), title: t("form.budget", { n: i + 1 }), class: "budget", hidden: true });
    kind.addEventListener("change", () => { budget.hidden = kind.value !== "search"; });
    return el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: t("form.seat", { n: i + 1 }) }), kind, budget);
  };
  const drawSeats = () => {
    const g = spec();
    const n = Number(players.value);
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, g)));
  };
  const drawGame = () => {
    const g = spec();
    const winRule = gameWord(g.id, "winRule", g.win_rule);
    summary.replaceChildren(gameWord(g.id, "summary", g.summary) + (winRule ? " " + t("form.whoWins", { rule: winRule }) : "") + " ",
      rulesLink(g.id, t("form.rulesOf", { game: gameWord(g.id, "title", g.title) })));
    const def = g.options.find((o) => o.name === "players");
    players.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, k) => {
      const n = g.min_players + k;
      return el("option", { value: n, text: n, selected: def && def.default === n });
    }));
    clockBot.replaceChildren(...g.bots.map((b) => el("option", { value: b.name,
      text: has(`form.bot.${b.name}`) ? t(`form.bot.${b.name}`) : t("form.bot", { name: b.name }),
      selected: b.name === "heuristic" })));
    optsBox.replaceChildren(el("summary", { text: t("form.options") }),
      ...g.options.filter((o) => o.name !== "players").map((o) => optionInput(g.id, o)));
    drawSeats();
  };
  gameSel.addEventListener("change", drawGame);
  players.addEventListener("change", drawSeats);
  drawGame();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = spec();
    let config;
    try {
      config = { players: Number(players.value) };
      for (const opt of g.options) {
        if (opt.name === "players") continue;
        const value = readOption(opt, form.querySelector(`[data-option="${opt.name}"]`));
        if (JSON.stringify(value) !== JSON.stringify(opt.default)) config[opt.name] = value;
      }
    } catch (e) {
      toast(e.message);
      return;
    }
    const seats = [...seatsBox.querySelectorAll("[data-testid=seat-kind]")].map((sel, i) => {
      if (sel.value === "human") return { kind: "human" };
      if (sel.value === "search") {
        const b = seatsBox.querySelector(`[data-testid=seat-budget][data-seat="${i}"]`);
        return { kind: "bot", bot: `search@${b.value}` };
      }
      return { kind: "bot", bot: sel.value };
    });
    const who = name.value.trim();
    if (who) localStorage.setItem(nameKey, who);
    create.disabled = true;
    try {
      const clock = { profile: clockProfile.value, grace: Number(clockGrace.value), bot: clockBot.value };
      const res = await api("POST", "/api/tables", { game: g.id, config, seats, clock, name: who || null, client_seed: clientSeed() });
      if (res.token) rememberSeat(res.table_id, res.seat, res.token);
      go(`/t/${res.table_id}`);
    } catch (e) {
      showError(e);
    } finally {
      create.disabled = false;
    }
  });
}


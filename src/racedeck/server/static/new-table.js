// The lobby's new-table form, for people: first what matters (the game, your name, the
// players and who sits where, how long to play, the clock), then every other rule of the game
// under "Custom rules", each in words with its own fields (a list option as one small field
// per item, labelled by what the item stands for) and a link to the ruling it sets instead of
// the ruling's id. `shell` brings what the form needs of the page around it
// ({api, go, toast, showError, rememberSeat, savedName, clientSeed, nameKey}).
//
// Test hooks (data-testid): "game-select", "your-name", "players", "seat-kind" (data-seat: a
// person, a level or "custom") with "seat-bot" (the custom bot's name) and "seat-budget", "preset" (data-preset: quick|standard|long, a radio), "option" (data-option: the
// field of an option — an input or select, or for a list option the fieldset holding its
// "option-item" fields, data-item = 0, 1 …, with "option-add"/"option-remove" where the list's
// length may change), "option-rule" (a link to the ruling an option sets), "deck-total",
// "clock-profile", "clock-grace", "clock-bot" (with "clock-bot-custom", "clock-bot-budget"),
// "create-table".

import { el } from "./dom.js";
import { gameWord, optionLabel, optionValue, rulesLink } from "./game-words.js";
import { botName, has, t, tn } from "./i18n.js";

const PRESETS = ["quick", "standard", "long"];

// A help text without the rulings it cites ("(SD-1, SD-6)", ", WF-10)"): the form links to
// the ruling instead (the server's English help still cites them; our catalogues do not).
function withoutRulings(text) {
  return String(text || "")
    .replace(/\s*\((?:[A-Z]{2}-\d+(?:,\s*)?)+\)/g, "")
    .replace(/,\s*[A-Z]{2}-\d+(?=\))/g, "")
    .trim();
}

function help(gameId, opt) {
  return withoutRulings(gameWord(gameId, `option.${opt.name}.help`, opt.help));
}

// A link to the ruling an option sets (the first it cites: the others are background), on the
// full rules page (the other languages' pages are summaries without the rulings).
function ruleLinks(gameId, opt) {
  return (opt.rulings || []).slice(0, 1).map((id) => el("a", {
    class: "rule-link", href: `/rules/${gameId}#${id}`, target: "_blank", rel: "noopener",
    "data-testid": "option-rule", "data-ruling": id,
    "aria-label": t("form.ruleOf", { option: optionLabel(gameId, opt.name), id }),
    text: t("form.rule"),
  }));
}

function numberInput(opt, attrs) {
  return el("input", { type: "number", step: 1, inputmode: "numeric",
    min: opt.min ?? null, max: opt.max ?? null, required: true, ...attrs });
}

// The field of a scalar option: a checkbox, a select of its choices in words, a number or a
// text box. read() gives the value as the server takes it.
function scalarField(gameId, opt, id) {
  const common = { id, name: opt.name, "data-testid": "option", "data-option": opt.name };
  const d = opt.default;
  let input;
  if (typeof d === "boolean") {
    input = el("input", { ...common, type: "checkbox", checked: d });
    return { input, root: input, read: () => input.checked, set: (v) => { input.checked = v; } };
  }
  if (opt.choices) {
    input = el("select", common, ...opt.choices.map((c) =>
      el("option", { value: String(c), selected: c === d, text: optionValue(gameId, opt.name, c) })));
    const read = () => opt.choices.find((c) => String(c) === input.value);
    return { input, root: input, read, set: (v) => { input.value = String(v); } };
  }
  if (typeof d === "number") {
    input = numberInput(opt, { ...common, value: d });
    return { input, root: input, read: () => Number(input.value), set: (v) => { input.value = v; } };
  }
  input = el("input", { ...common, type: "text", value: d, spellcheck: "false" });
  return { input, root: input, read: () => input.value, set: (v) => { input.value = v; } };
}

// A list of numbers: one small field per item, each labelled by what it stands for (the
// option's labels, else its place in the list); where the length may change, buttons add
// and remove the last item.
function listField(gameId, opt) {
  const name = optionLabel(gameId, opt.name);
  const itemWord = gameWord(gameId, `option.${opt.name}.item`, "");
  const items = el("div", { class: "list-items" });
  const fixed = opt.length !== null && opt.length !== undefined;
  const itemName = (i) => (opt.labels ? opt.labels[i] : String(i + 1));
  const item = (i, value) => el("label", { class: "list-item" },
    el("span", { class: "item-label", "aria-hidden": "true", text: itemName(i) }),
    numberInput(opt, { value, "data-testid": "option-item", "data-item": i,
      "aria-label": t("form.item", { option: name, item: itemWord ? `${itemWord} ${itemName(i)}` : itemName(i) }) }));
  const inputs = () => [...items.querySelectorAll("input")];
  const draw = (values) => items.replaceChildren(...values.map((v, i) => item(i, v)));
  const root = el("fieldset", { class: "list-option", "data-testid": "option", "data-option": opt.name },
    el("legend", { class: "visually-hidden", text: name }), items);
  if (!fixed) {
    const add = el("button", { type: "button", class: "small-button", "data-testid": "option-add",
      "aria-label": t("form.addItem", { option: name }), text: "+" });
    const remove = el("button", { type: "button", class: "small-button", "data-testid": "option-remove",
      "aria-label": t("form.removeItem", { option: name }), text: "−" });
    const buttons = () => {
      add.disabled = inputs().length >= (opt.max_items ?? 64);
      remove.disabled = inputs().length === 0;
    };
    add.addEventListener("click", () => {
      const last = inputs().at(-1);
      items.append(item(inputs().length, last ? last.value : (opt.min ?? 0)));
      buttons();
      inputs().at(-1).focus();
      root.dispatchEvent(new Event("input", { bubbles: true }));
    });
    remove.addEventListener("click", () => {
      const last = inputs().at(-1);
      if (last) last.closest(".list-item").remove();
      buttons();
      root.dispatchEvent(new Event("input", { bubbles: true }));
    });
    root.append(el("span", { class: "list-buttons" }, remove, add));
    const set = (values) => { draw(values); buttons(); };
    set(opt.default);
    return { root, read: () => inputs().map((i) => Number(i.value)), set };
  }
  draw(opt.default);
  return { root, read: () => inputs().map((i) => Number(i.value)), set: draw };
}

// A list of [name, count] pairs (Setback's deck): a count for every name it may hold, the
// total shown as it changes; names counted 0 are left out, the rest kept in the labels' order.
function countsField(gameId, opt) {
  const name = optionLabel(gameId, opt.name);
  const total = el("p", { class: "muted small", "data-testid": "deck-total", "aria-live": "polite" });
  const grid = el("div", { class: "counts" });
  const inputs = new Map(opt.labels.map((label) => [label, numberInput(opt, {
    value: 0, "data-testid": "option-item", "data-item": label,
    "aria-label": t("form.item", { option: name, item: label }) })]));
  grid.append(...opt.labels.map((label) => el("label", { class: "count" },
    el("span", { class: "card-name", "aria-hidden": "true", text: label }), inputs.get(label))));
  const read = () => opt.labels.filter((l) => Number(inputs.get(l).value) > 0)
    .map((l) => [l, Number(inputs.get(l).value)]);
  const count = () => {
    total.textContent = tn("form.deckTotal", read().reduce((s, [, n]) => s + n, 0));
  };
  const set = (pairs) => {
    for (const input of inputs.values()) input.value = 0;
    for (const [l, n] of pairs) if (inputs.has(l)) inputs.get(l).value = n;
    count();
  };
  grid.addEventListener("input", count);
  set(opt.default);
  const root = el("fieldset", { class: "list-option counts-option", "data-testid": "option", "data-option": opt.name },
    el("legend", { class: "visually-hidden", text: name }), total, grid);
  return { root, read, set };
}

// One option of the game: its label, its field(s), its help and the ruling it sets.
function optionField(gameId, opt) {
  const id = "opt-" + opt.name;
  const isPairs = Array.isArray(opt.default) && opt.labels && Array.isArray(opt.default[0]);
  const field = Array.isArray(opt.default) ? (isPairs ? countsField(gameId, opt) : listField(gameId, opt))
    : scalarField(gameId, opt, id);
  const helpId = id + "-help";
  if (field.input) field.input.setAttribute("aria-describedby", helpId);
  else field.root.setAttribute("aria-describedby", helpId);
  const check = field.input && field.input.type === "checkbox";
  // A checkbox sits inside its label, so the whole line is the target a finger presses.
  const labelEl = check ? el("label", { for: id, class: "check-label" }, field.input, optionLabel(gameId, opt.name))
    : field.input ? el("label", { for: id, text: optionLabel(gameId, opt.name) })
      : el("span", { class: "field-label", "aria-hidden": "true", text: optionLabel(gameId, opt.name) });
  const box = el("div", { class: "field" },
    labelEl, check ? "" : field.root,
    el("small", { class: "muted", id: helpId }, help(gameId, opt), " ", ...ruleLinks(gameId, opt)));
  return { ...field, box };
}

// How long a preset plays, in words: "2 stages", "1 race" (the option its presets set).
function presetLength(g, name) {
  const lengthOption = Object.keys(Object.assign({}, ...Object.values(g.presets || {})))[0];
  if (!lengthOption) return "";
  const opt = g.options.find((o) => o.name === lengthOption);
  const n = (g.presets[name] || {})[lengthOption] ?? opt.default;
  const key = `games.${g.id}.length`;
  return has(`${key}.other`) ? tn(key, n) : `${optionLabel(g.id, lengthOption)}: ${n}`;
}

// Who plays a seat (or stands in): the game's levels, and under "Custom bot…" a second list
// with every bot by its name (the search with its budget in iterations a move), for those who
// know them. `human`:
// the words of a person's choice, if a person may take it; `chosen`: the level chosen at first.
// read() gives what the server takes: "human", a level id or a bot name ("search@200").
// `ids`: the test hooks of the three fields ({kind, custom, budget}), with data-seat = `seat`.
function botPicker(g, { human, chosen, label, labelCustom, labelBudget, ids, seat }) {
  const mark = (name) => (seat === undefined ? { "data-testid": name } : { "data-testid": name, "data-seat": seat });
  const kind = el("select", { ...mark(ids.kind), "aria-label": label },
    ...(human ? [el("option", { value: "human", text: human })] : []),
    ...g.levels.map((l) => el("option", { value: l.id, text: t("form.bot", { name: t(`levels.${l.id}`) }),
      selected: l.id === chosen })),
    el("option", { value: "custom", text: t("form.customBot") }));
  const custom = el("select", { ...mark(ids.custom), "aria-label": labelCustom },
    ...g.bots.map((b) => el("option", { value: b.name, text: botName(b.name) })));
  const searchBot = g.bots.find((b) => b.name === "search");
  const budget = el("input", { type: "number", min: searchBot.budget.min, max: searchBot.budget.max,
    value: searchBot.budget.default, ...mark(ids.budget), "aria-label": labelBudget,
    title: labelBudget, class: "budget" });
  const budgetBox = el("span", { class: "budget-box", hidden: true }, budget,
    el("span", { class: "muted small", "aria-hidden": "true", text: t("form.iterations") }));
  const customBox = el("span", { class: "custom-bot", hidden: true }, custom, budgetBox);
  const show = () => {
    customBox.hidden = kind.value !== "custom";
    budgetBox.hidden = custom.value !== "search";
  };
  kind.addEventListener("change", show);
  custom.addEventListener("change", show);
  const read = () => {
    if (kind.value !== "custom") return kind.value;
    return custom.value === "search" ? `search@${budget.value}` : custom.value;
  };
  return { root: el("span", { class: "bot-choice" }, kind, customBox), kind, read };
}

/** Draw the new-table form in `form` for the games `list` (GET /api/games); on submit it
 * creates the table and opens it. `shell`: see the top of this file. */
export function newTableForm(form, list, shell) {
  const { api, go, toast, showError, rememberSeat, savedName, clientSeed, nameKey } = shell;
  const gameSel = el("select", { id: "game", "data-testid": "game-select" },
    ...list.map((g) => el("option", { value: g.id, text: gameWord(g.id, "title", g.title) })));
  const players = el("select", { id: "players", "data-testid": "players" });
  const seatsBox = el("div", { class: "seats" });
  const presetBox = el("fieldset", { class: "presets" });
  const optsBox = el("details", { class: "options" });
  const name = el("input", { id: "your-name", "data-testid": "your-name", maxlength: 24,
    value: savedName(), placeholder: t("form.namePlaceholder"), autocomplete: "nickname" });
  const summary = el("p", { class: "muted small" });
  const clockProfile = el("select", { id: "clock-profile", "data-testid": "clock-profile", "aria-describedby": "clock-help" },
    ...["unlimited", "slow", "normal", "fast", "blitz"].map((p) => el("option", { value: p,
      text: t(`clock.profile.${p}`), selected: p === "normal" })));
  const clockGrace = el("input", { id: "clock-grace", "data-testid": "clock-grace", type: "number",
    min: 0, max: 3600, step: 1, value: 60, class: "budget" });
  const clockBot = el("span", { class: "bot-picker" });
  let standIn = null; // the stand-in's picker, drawn with the game
  const clockBox = el("details", { class: "clock-box" },
    el("summary", { text: t("clock.form.away") }),
    el("div", { class: "field" }, el("label", { for: "clock-grace", text: t("clock.form.grace") }), clockGrace,
      el("small", { class: "muted", text: t("clock.form.graceHelp") })),
    el("div", { class: "field" }, el("span", { class: "field-label", id: "clock-bot-label", text: t("clock.form.bot") }),
      clockBot, el("small", { class: "muted", id: "clock-bot-help", text: t("clock.form.botHelp") })));
  const create = el("button", { type: "submit", class: "primary", "data-testid": "create-table",
    text: t("form.create") });
  form.replaceChildren(
    el("h2", { text: t("form.title") }),
    el("div", { class: "field" }, el("label", { for: "game", text: t("form.game") }), gameSel),
    summary,
    el("div", { class: "field" }, el("label", { for: "your-name", text: t("form.yourName") }), name),
    el("div", { class: "field" }, el("label", { for: "players", text: t("form.players") }), players),
    seatsBox, presetBox,
    el("div", { class: "field" }, el("label", { for: "clock-profile", text: t("clock.form.profile") }), clockProfile,
      el("small", { class: "muted", id: "clock-help", text: t("clock.form.help") })),
    clockBox, optsBox, create);

  const spec = () => list.find((g) => g.id === gameSel.value);
  let fields = new Map(); // option name -> {read, set, box}
  let pickers = []; // each seat's picker, drawn with the seats
  const seatRow = (i, g) => {
    const picker = botPicker(g, { human: i === 0 ? t("form.you") : t("form.person"), chosen: i > 0 ? "casual" : null,
      label: t("form.seat", { n: i + 1 }), labelCustom: t("form.customBotOf", { n: i + 1 }),
      labelBudget: t("form.budget", { n: i + 1 }), ids: { kind: "seat-kind", custom: "seat-bot", budget: "seat-budget" }, seat: i });
    pickers.push(picker);
    return el("div", { class: "seat-row" }, el("span", { class: "seat-no", text: t("form.seat", { n: i + 1 }) }),
      picker.root);
  };
  const drawSeats = () => {
    const g = spec();
    const n = Number(players.value);
    pickers = [];
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, i) => seatRow(i, g)),
      el("small", { class: "muted", text: t("levels.help") }));
  };
  // The options the presets set, and which preset the form's values are (none: custom).
  const presetOptions = (g) => [...new Set(Object.values(g.presets || {}).flatMap((p) => Object.keys(p)))];
  const valueOf = (g, name) => JSON.stringify(fields.get(name).read());
  const matchPreset = () => {
    const g = spec();
    for (const radio of presetBox.querySelectorAll("input")) {
      const p = g.presets[radio.value];
      radio.checked = presetOptions(g).every((n) =>
        valueOf(g, n) === JSON.stringify(n in p ? p[n] : g.options.find((o) => o.name === n).default));
    }
  };
  const applyPreset = (name) => {
    const g = spec();
    const p = g.presets[name];
    for (const n of presetOptions(g)) fields.get(n).set(n in p ? p[n] : g.options.find((o) => o.name === n).default);
  };
  const drawPresets = (g) => {
    const names = PRESETS.filter((p) => g.presets && p in g.presets);
    presetBox.hidden = names.length < 2;
    presetBox.replaceChildren(el("legend", { text: t("form.length") }),
      el("div", { class: "preset-row" }, ...names.map((p) => {
        const radio = el("input", { type: "radio", name: "preset", value: p, "data-testid": "preset", "data-preset": p,
          checked: p === "standard" });
        radio.addEventListener("change", () => { applyPreset(p); matchPreset(); });
        return el("label", { class: "preset" }, radio,
          el("span", {}, el("strong", { text: t(`form.preset.${p}`) }), el("span", { class: "muted small", text: presetLength(g, p) })));
      })));
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
    standIn = botPicker(g, { chosen: g.stand_in, label: t("clock.form.bot"), labelCustom: t("clock.form.customBot"),
      labelBudget: t("clock.form.budget"), ids: { kind: "clock-bot", custom: "clock-bot-custom", budget: "clock-bot-budget" } });
    standIn.kind.setAttribute("aria-describedby", "clock-bot-help");
    clockBot.replaceChildren(standIn.root);
    fields = new Map(g.options.filter((o) => o.name !== "players").map((o) => [o.name, optionField(g.id, o)]));
    optsBox.replaceChildren(el("summary", { text: t("form.options") }),
      el("p", { class: "muted small", text: t("form.optionsHelp") }), ...[...fields.values()].map((f) => f.box));
    drawPresets(g);
    drawSeats();
  };
  gameSel.addEventListener("change", drawGame);
  players.addEventListener("change", drawSeats);
  optsBox.addEventListener("input", matchPreset);
  optsBox.addEventListener("change", matchPreset);
  drawGame();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = spec();
    const config = { players: Number(players.value) };
    for (const opt of g.options) {
      if (opt.name === "players") continue;
      const value = fields.get(opt.name).read();
      if (JSON.stringify(value) !== JSON.stringify(opt.default)) config[opt.name] = value;
    }
    const seats = pickers.map((p) => {
      const chosen = p.read();
      return chosen === "human" ? { kind: "human" } : { kind: "bot", bot: chosen };
    });
    const who = name.value.trim();
    if (who) localStorage.setItem(nameKey, who);
    create.disabled = true;
    for (const f of fields.values()) f.box.classList.remove("invalid");
    try {
      const clock = { profile: clockProfile.value, grace: Number(clockGrace.value), bot: standIn.read() };
      const res = await api("POST", "/api/tables", { game: g.id, config, seats, clock, name: who || null, client_seed: clientSeed() });
      if (res.token) rememberSeat(res.table_id, res.seat, res.token);
      go(`/t/${res.table_id}`);
    } catch (e) {
      if (e.code === "config/invalid") showInvalid(e);
      else showError(e);
    } finally {
      create.disabled = false;
    }
  });

  // Settings the server refused: what it said (it names the option and what is allowed), and
  // the option's field opened and marked.
  function showInvalid(e) {
    const m = /option (\w+)=/.exec(e.message || "");
    const f = m && fields.get(m[1]);
    toast(t("error.config/invalid"), "error", e.message || "");
    if (!f) return;
    optsBox.open = true;
    f.box.classList.add("invalid");
    const target = f.box.querySelector("input, select");
    if (target) target.focus();
  }
}

// "What if…?" beside the replay: fork a private game against bots from the step shown (POST
// /api/forks), playing the seat chosen; the other seats are played by the level or the bot
// chosen (the search bot with its budget). A forked game is dealt from a known seed, so it is not fair.
//
// Test hooks (data-testid): "whatif", "whatif-seat", "whatif-bot", "whatif-budget", "fork".

import { el } from "../dom.js";
import { localName, t } from "../i18n.js";
import { postRecord } from "./requests.js";

// A bot's name in words (a bot without its own message keeps its name).
const BOTS = {
  random: () => t("whatif.bot.random"),
  heuristic: () => t("whatif.bot.heuristic"),
  search: () => t("whatif.bot.search"),
  fastsearch: () => t("whatif.bot.fastsearch"),
};

function botLabel(name) {
  return BOTS[name] ? BOTS[name]() : name;
}

/**
 * The "What if…?" panel of a replay of `data` (the server's replay) read from `src` (see
 * replay.js); `currentStep()` is the step shown. Returns {panel, update(index, last)}.
 */
export function whatIfPanel(env, src, data, currentStep) {
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
    // The levels first, the bots by name after them for those who know them.
    const levels = (g && g.levels) || [];
    bot.replaceChildren(...levels.map((l) => el("option", { value: l.id, selected: l.id === "casual",
      text: t("form.bot", { name: t(`levels.${l.id}`) }) })),
    ...bots.map((b) => el("option", { value: b.name, text: botLabel(b.name) })));
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

// A game's words in this language: its title, summary, win rule and options (labels, values,
// help), and a link to its rules page. Our catalogues' words when they have them, else the
// server's (a game or option added since keeps its English text).

import { el } from "./dom.js";
import { has, lang, t } from "./i18n.js";

// A game's word (title, summary, win rule, option.<name>.label …) in this language, else the
// server's English.
export function gameWord(gameId, what, fallback) {
  const key = `games.${gameId}.${what}`;
  return has(key) ? t(key) : fallback;
}

// A link to a game's rules page (served from docs/rules), opened in a new tab so a table or a
// half-filled form stays where it is.
export function rulesLink(gameId, text) {
  return el("a", { class: "rules-link", href: `/rules/${gameId}${lang() === "en" ? "" : `?lang=${lang()}`}`, target: "_blank", rel: "noopener",
    "data-testid": "rules-link", "data-game": gameId, text });
}

// The options of a table that differ from the game's defaults, in words; nothing while the
// game's options are not known here yet (the server's summary is English and in its terms).
export function tableSummary(info, specs) {
  const g = specs.find((s) => s.id === info.game);
  if (!g || !info.config) return "";
  const parts = [];
  for (const opt of g.options) {
    if (opt.name === "players" || !(opt.name in info.config)) continue;
    const v = info.config[opt.name];
    if (JSON.stringify(v) === JSON.stringify(opt.default)) continue;
    parts.push(`${optionLabel(g.id, opt.name)}: ${optionValue(g.id, opt.name, v)}`);
  }
  return parts.join(", ");
}

// An option's name in words.
export function optionLabel(gameId, name) {
  return gameWord(gameId, `option.${name}.label`, name);
}

// An option's value in words: a choice by its catalogue word, a list of numbers as "27, 54",
// a list of pairs (a deck of cards by name) as "custom" (too long to read in a line).
export function optionValue(gameId, name, value) {
  if (Array.isArray(value)) {
    return value.some((v) => typeof v === "object") ? t("option.custom") : value.join(", ");
  }
  if (value !== null && typeof value === "object") return t("option.custom");
  const key = `games.${gameId}.option.${name}.${value}`;
  return has(key) ? t(key) : String(value);
}

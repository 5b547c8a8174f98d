// The web client's languages: English, Dutch, French and German.
//
// Every text a person reads goes through t(key, vars): the key names the message, vars fill its
// {placeholders}. A message missing from the chosen language falls back to English, and a key
// missing from English is shown as it is (a test checks that none is, and that every language
// has every English key with the same placeholders). The language is the one chosen with the
// switch (kept in localStorage), else the first of the browser's languages that racedeck speaks,
// else English. Choosing another one tells every listener (onLanguage) so the page can draw its
// words again without reloading: a live table keeps its socket.

import en from "./i18n/en.js";
import nl from "./i18n/nl.js";
import fr from "./i18n/fr.js";
import de from "./i18n/de.js";

/** The languages, each named in itself (the switch shows these). */
export const LANGUAGES = { en: "English", nl: "Nederlands", fr: "Français", de: "Deutsch" };
const CATALOGS = { en, nl, fr, de };
const LANG_KEY = "racedeck.lang";
const listeners = new Set();

function stored() {
  try {
    return localStorage.getItem(LANG_KEY);
  } catch {
    return null; // storage may be off (private windows): the browser's languages decide
  }
}

function pick() {
  const chosen = stored();
  if (chosen && chosen in CATALOGS) return chosen;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in CATALOGS) return base;
  }
  return "en";
}

let current = pick();

/** The language in use (a key of LANGUAGES). */
export function lang() {
  return current;
}

/** Choose `code` for this browser from now on and tell every listener. */
export function setLang(code) {
  if (!(code in CATALOGS) || code === current) return;
  try {
    localStorage.setItem(LANG_KEY, code);
  } catch {
    // the choice then lasts for this page only
  }
  useLang(code);
}

/** Use `code` on this page only, leaving the person's choice as it is (a page written in one
 * language, such as a rules page, words its pictures in that language), and tell every
 * listener. */
export function useLang(code) {
  if (!(code in CATALOGS) || code === current) return;
  current = code;
  document.documentElement.lang = code;
  for (const fn of [...listeners]) fn(code);
}

/** Call `fn(code)` whenever the language changes; returns a function that stops it. */
export function onLanguage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Whether English has a message `key` (for texts the server sends that may be new to us). */
export function has(key) {
  return key in en;
}

// What a placeholder may ask of its value in a language, as {name|de}: French elides "de"
// before a vowel ("la main d’Anna", "la main de Bram"). A language without the filter takes the
// value as it is.
const FILTERS = {
  fr: { de: (v) => (/^[aeiouyàâæéèêëîïôœùûüh]/i.test(v) ? `d’${v}` : `de ${v}`) },
};

/** The message `key` in the current language, its {placeholders} filled from `vars`. */
export function t(key, vars = {}) {
  const text = CATALOGS[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)(?:\|(\w+))?\}/g, (m, name, filter) => {
    if (!(name in vars)) return m;
    const value = String(vars[name]);
    const fn = filter && FILTERS[current] && FILTERS[current][filter];
    return fn ? fn(value) : value;
  });
}

const pluralRules = new Map();

/** The plural category of `n` in the current language ("one", "other", …). */
function plural(n) {
  let rules = pluralRules.get(current);
  if (!rules) {
    rules = new Intl.PluralRules(current);
    pluralRules.set(current, rules);
  }
  return rules.select(n);
}

/** The message for `n` of something: `key.<category>` by the language's own plural rules
 * (French counts 0 as one, English does not), else `key.other`; {n} and `vars` filled in. */
export function tn(key, n, vars = {}) {
  const exact = `${key}.${plural(n)}`;
  return t(exact in CATALOGS[current] || exact in en ? exact : `${key}.other`, { ...vars, n });
}

/** Words joined as a list: "A, B and C" in the current language. */
export function listOf(words) {
  const w = words.map(String);
  if (w.length <= 1) return w.join("");
  return t("list.and", { head: w.slice(0, -1).join(", "), last: w[w.length - 1] });
}

/** Mark a node whose text is the message `key`, so a language change can redraw it in place. */
export function label(node, key, vars = {}) {
  node.dataset.i18n = key;
  node.dataset.i18nVars = JSON.stringify(vars);
  node.textContent = t(key, vars);
  return node;
}

/** Redraw every node marked with label() under `root`. */
export function relabel(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n, JSON.parse(node.dataset.i18nVars || "{}"));
  }
}

document.documentElement.lang = current;

// -- seat names --------------------------------------------------------------------------------

// The server names a seat nobody named "Player 2", or "random bot" (with the seat's number when
// several seats share it, as a replay numbers them), a seat given a level "expert bot": those
// names are worded here. (A person who calls themself "random bot" is worded the same way,
// which does no harm.)
const BOT_NAMES = {
  beginner: () => t("names.bot.beginner"),
  casual: () => t("names.bot.casual"),
  strong: () => t("names.bot.strong"),
  expert: () => t("names.bot.expert"),
  random: () => t("names.bot.random"),
  heuristic: () => t("names.bot.heuristic"),
  search: () => t("names.bot.search"),
  fastsearch: () => t("names.bot.fastsearch"),
};

/** A seat's name in this language: the server's default names worded, any other as it is. */
export function localName(name) {
  if (typeof name !== "string") return name;
  let m = /^([a-z]+)(?:@\d+)? bot( \d+)?$/.exec(name);
  if (m && BOT_NAMES[m[1]]) return BOT_NAMES[m[1]]() + (m[2] || "");
  m = /^Player (\d+)$/.exec(name);
  return m ? t("names.player", { n: m[1] }) : name;
}

/** A bot kind as the server names it ("heuristic", "search@200", a level: "casual") in words:
 * "heuristic bot", "Casual bot". */
export function botName(kind) {
  const base = String(kind).split("@")[0];
  return BOT_NAMES[base] ? BOT_NAMES[base]() : t("names.bot.other", { name: base });
}

/** `names` made distinct: a name that several seats share gets each one's seat number
 * ("heuristic bot 2", "heuristic bot 3"), so the scores and the narration tell them apart. */
export function distinctNames(names) {
  const count = new Map();
  for (const n of names) count.set(n, (count.get(n) || 0) + 1);
  return names.map((n, i) => (count.get(n) > 1 ? `${n} ${i + 1}` : n));
}

/** `view` with its seats' default names in this language, each name told apart from the
 * others (the renderers and the narration take their names from the header). */
export function localView(view) {
  const h = view && view.header;
  if (!h) return view;
  const local = (names) => distinctNames((names || []).map(localName));
  const outcome = h.outcome && h.outcome.names ? { ...h.outcome, names: local(h.outcome.names) } : h.outcome;
  return { ...view, header: { ...h, seat_names: local(h.seat_names), score_names: local(h.score_names), outcome } };
}

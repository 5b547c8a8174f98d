// The web client's languages: English, Dutch, French and German.
//
// Every text a person reads goes through t(key, vars): the key names the message, vars fill its
// {placeholders}. A message missing from the chosen language falls back to English, and a key
// missing from English is shown as it is (a test checks that none is). The language is the one
// chosen with the switch (kept in localStorage), else the first of the browser's languages that
// racedeck speaks, else English.

import en from "./i18n/en.js";

export const LANGUAGES = { en: "English" };
const CATALOGS = { en };
const LANG_KEY = "racedeck.lang";

function pick() {
  const chosen = localStorage.getItem(LANG_KEY);
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

/** Choose `code` for this browser from now on. */
export function setLang(code) {
  if (!(code in CATALOGS)) return;
  current = code;
  localStorage.setItem(LANG_KEY, code);
  document.documentElement.lang = code;
}

/** The message `key` in the current language, its {placeholders} filled from `vars`. */
export function t(key, vars = {}) {
  const text = CATALOGS[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

document.documentElement.lang = current;

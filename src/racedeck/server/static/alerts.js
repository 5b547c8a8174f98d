// Turn alerts: what tells a person it is their turn, or that their time runs low, when they
// look elsewhere (another tab, another window, the phone in a pocket).
//
// Always: the tab's title starts with "▶ Your turn" (or "⏰ 0:08" when the time left is under
// LOW_SECONDS) and the favicon gets a dot. On request, remembered per browser (localStorage
// "racedeck.alerts"): a short sound when a turn begins or the time runs low, and a system
// notification (the browser's Notification API, whose permission is asked for only when the
// person turns notifications on) while the page is not in view.
//
// Test hooks (data-testid): "alerts" (the control: data-sounds counts the sounds played,
// data-notices the notifications shown), "alert-sound", "alert-notify" (its two checkboxes).

import { el } from "./dom.js";
import { label, t } from "./i18n.js";

const KEY = "racedeck.alerts";
/** Seconds left under which time runs low: the title counts down, the scoreboard marks it. */
export const LOW_SECONDS = 10;
const ICON = "/static/favicon.svg";
const ICON_ALERT = "/static/favicon-alert.svg";
const SVG = "http://www.w3.org/2000/svg";

// A bell drawn here: an emoji bell is a box where the system has no emoji font.
function bell() {
  const svg = document.createElementNS(SVG, "svg");
  const attrs = { viewBox: "0 0 24 24", width: "22", height: "22", "aria-hidden": "true", fill: "none",
    stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", "stroke-linejoin": "round" };
  for (const [name, value] of Object.entries(attrs)) svg.setAttribute(name, value);
  for (const d of ["M6 16V11a6 6 0 0 1 12 0v5l2 2H4z", "M10 20a2 2 0 0 0 4 0"]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
    return { sound: saved.sound === true, notify: saved.notify === true };
  } catch {
    return { sound: false, notify: false };
  }
}

function save(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // storage off (a private window): the choice lasts for this page
  }
}

function favicon(href) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = el("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** Minutes and seconds, "0:08" (every clock on the page is written so). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * The alerts of one table page. `update({base, turn, left})` is called whenever the view or
 * the clock is drawn: `base` is the page's own title, `turn` whether this page's person is asked
 * to act now, `left` their time left in seconds while their clock runs (else null).
 */
export function createAlerts() {
  const settings = load();
  let audio = null;
  let wasTurn = false;
  let wasLow = false;
  let sounds = 0;
  let notices = 0;

  const sound = el("input", { type: "checkbox", "data-testid": "alert-sound" });
  const notify = el("input", { type: "checkbox", "data-testid": "alert-notify" });
  const summary = el("summary", { class: "alerts-summary" });
  const soundText = el("span");
  const notifyText = el("span");
  const denied = el("div", { class: "muted small", "data-testid": "alert-denied", hidden: true });
  const element = el("details", { class: "alerts", "data-testid": "alerts", "data-sounds": "0", "data-notices": "0" },
    summary,
    el("div", { class: "alerts-menu" },
      el("label", {}, sound, soundText),
      el("label", {}, notify, notifyText),
      denied));
  sound.checked = settings.sound;
  notify.checked = settings.notify && "Notification" in window && Notification.permission === "granted";

  summary.append(bell());
  function drawLabels() {
    summary.title = t("alerts.title");
    summary.setAttribute("aria-label", t("alerts.title"));
    soundText.textContent = t("alerts.sound");
    notifyText.textContent = t("alerts.notify");
    label(denied, "alerts.denied");
  }
  drawLabels();

  sound.addEventListener("change", () => {
    settings.sound = sound.checked;
    save(settings);
    if (sound.checked) beep(); // what it will sound like (and browsers allow sound after a click)
  });
  notify.addEventListener("change", async () => {
    denied.hidden = true;
    if (notify.checked) {
      if (!("Notification" in window)) {
        notify.checked = false;
        denied.hidden = false;
        return;
      }
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      if (answer !== "granted") {
        notify.checked = false;
        denied.hidden = false;
      }
    }
    settings.notify = notify.checked;
    save(settings);
  });

  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.3);
    } catch {
      return; // no audio here: the title and the icon still say it
    }
    sounds += 1;
    element.dataset.sounds = String(sounds);
  }

  function notice(text) {
    if (!settings.notify || !("Notification" in window) || Notification.permission !== "granted") return;
    if (document.visibilityState === "visible" && document.hasFocus()) return; // the page says it
    try {
      const n = new Notification(text, { tag: "racedeck-turn", renotify: true, icon: ICON });
      n.onclick = () => { window.focus(); n.close(); };
    } catch {
      return; // some browsers allow notifications only from a service worker
    }
    notices += 1;
    element.dataset.notices = String(notices);
  }

  function update({ base, turn, left }) {
    const low = turn && left !== null && left !== undefined && left < LOW_SECONDS;
    const title = low ? `⏰ ${clockText(left)} · ${base}` : turn ? `▶ ${t("alerts.yourTurn")} · ${base}` : base;
    if (document.title !== title) document.title = title; // drawn four times a second
    favicon(turn ? ICON_ALERT : ICON);
    if (turn && !wasTurn) {
      if (settings.sound) beep();
      notice(`${t("alerts.yourTurn")} · ${base}`);
    } else if (low && !wasLow) {
      if (settings.sound) beep();
      notice(`${t("alerts.timeLow", { time: clockText(left) })} · ${base}`);
    }
    wasTurn = turn;
    wasLow = low;
  }

  function destroy() {
    favicon(ICON);
    if (audio) audio.close().catch(() => {});
  }

  return { element, update, drawLabels, destroy };
}

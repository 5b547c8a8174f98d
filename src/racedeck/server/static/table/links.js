// Links the shell shows in more than one place: the invite and spectator links with their Copy
// buttons (the join form, the table header, its Share badge) and a finished game's replay link
// (the finished games, the standings, a what-if table's origin).
//
// Test hooks (data-testid): "invite-link", "copy-invite", "watch-link", "copy-watch",
// "replay-link". `shell` is the shell's helpers (app.js): here `toast` and `go`.

import { el } from "../dom.js";
import { t } from "../i18n.js";

/** The page of finished game `gameNo` of table `tableId`, stepped through (replay.js). */
export function replayUrl(tableId, gameNo) {
  return `/t/${tableId}/games/${gameNo}`;
}

/** A link to a finished game's replay, opened in this page (no reload). */
export function replayLink(shell, tableId, gameNo, text) {
  const href = replayUrl(tableId, gameNo);
  return el("a", { href, class: "replay-link", "data-testid": "replay-link", text,
    onclick: (e) => { e.preventDefault(); shell.go(href); } });
}

/** A link to read and copy: `url` in full in a read-only field, and its Copy button. */
export function linkBox(shell, url, name) {
  const full = new URL(url, location.href).href;
  const input = el("input", { readonly: true, value: full, "data-testid": `${name}-link`,
    "aria-label": t(`link.${name}`), onfocus: (e) => e.target.select() });
  const copy = el("button", { type: "button", "data-testid": `copy-${name}`, text: t("link.copy"),
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(full);
        shell.toast(t(`link.${name}.copied`), "info");
      } catch {
        input.select();
        shell.toast(t("link.selectIt"), "info");
      }
    } });
  return el("div", { class: "invite" }, el("span", { class: "link-label", text: t("link.label", { label: t(`link.${name}`) }) }), input, copy);
}

/** The invite link: it opens the table to take a free seat. */
export function inviteBox(shell, url) {
  return linkBox(shell, url, "invite");
}

/** The spectator link: the invite link with /watch, which opens the table to watch. */
export function watchBox(shell, inviteUrl) {
  return linkBox(shell, `${inviteUrl}/watch`, "watch");
}

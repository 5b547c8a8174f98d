// Small DOM builders shared by the shell (app.js) and the game renderers (games/*.js).

const SVG_NS = "http://www.w3.org/2000/svg";

function isChild(c) {
  return c !== null && c !== undefined && c !== false;
}

/**
 * An HTML element: el("button", {class: "x", text: "Go", onclick: f, disabled: true}, ...children).
 * Attributes that are null, undefined or false are left out; true sets an empty attribute;
 * "class", "text" and "style" set className, textContent and the inline style; "on<event>"
 * adds a listener. Children that are null, undefined or false are skipped; an array of
 * children counts as its items.
 */
export function el(name, attrs = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (!isChild(v)) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "style") node.style.cssText = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (isChild(c)) node.append(c);
  return node;
}

/** An SVG element: attributes as strings (null and undefined left out), "text" its content. */
export function svg(name, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, String(v));
  }
  for (const c of children) if (c) node.append(c);
  return node;
}

/**
 * The name of a part of a board (a landmark: its board, hand, players) for screen readers.
 * Where several boards show at once (the replay's every hand), ``ctx.owner`` says whose each
 * is, so every part keeps a name of its own.
 */
export function partName(ctx, name) {
  return ctx && ctx.owner ? `${name} · ${ctx.owner}` : name;
}

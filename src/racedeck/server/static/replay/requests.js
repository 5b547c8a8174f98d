// The replay's requests that carry a record file as it was read (a file's 63-bit seed must not
// pass through a JavaScript number), and the server's errors read from their JSON body.

/** The error code of a server's error body (null if it is none). */
export function errorCode(text) {
  try {
    return JSON.parse(text).error.code;
  } catch {
    return null;
  }
}

/** The message of a server's error body, else the response's status text. */
export function errorText(text, res) {
  try {
    return JSON.parse(text).error.message;
  } catch {
    return res.statusText;
  }
}

/** POST `text` (JSON) to `path`; its answer parsed, or an Error with the server's message and
 * code. */
export async function postRecord(path, text) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
  const body = await res.text();
  if (!res.ok) throw Object.assign(new Error(errorText(body, res)), { code: errorCode(body) });
  return JSON.parse(body);
}

// The views of a replay's steps, as the viewer needs them: the server sends them twenty steps
// at a time (docs/protocol.md, "Replays, checks and what if"); each stretch is fetched once,
// and kept.

/** Steps whose views one request fetches (the server's default). */
export const CHUNK = 20;

/**
 * The views of replay `data` (the server's first answer, with the first stretch of views);
 * `fetchReplay(query)` asks for more. Returns {has(step), at(step)}: at() is a promise of the
 * step's views, [public view, seat 0's, …].
 */
export function createViews(data, fetchReplay) {
  const views = new Map(); // step -> [public view, seat 0's, …]
  const loading = new Map(); // chunk start -> promise
  const keep = (start, items) => items.forEach((v, k) => views.set(start + k, v));
  keep(data.views.start, data.views.items);

  function viewsAt(i) {
    if (views.has(i)) return Promise.resolve(views.get(i));
    const start = i - (i % CHUNK);
    if (!loading.has(start)) {
      loading.set(start, fetchReplay(`start=${start}&count=${CHUNK}&steps=false`)
        .then((d) => keep(d.views.start, d.views.items))
        .finally(() => loading.delete(start)));
    }
    return loading.get(start).then(() => views.get(i));
  }

  return { has: (i) => views.has(i), at: viewsAt };
}

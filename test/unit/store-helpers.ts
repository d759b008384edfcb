/** Test doubles shared by the store unit tests. */
import type { KvNamespaceLike } from 'rearview/kv';

/** An in-memory stand-in for a Workers KV binding (text values, paged list). */
export function fakeKvNamespace(
  data = new Map<string, string>(),
): KvNamespaceLike & { data: Map<string, string> } {
  return {
    data,
    async get(key) {
      await Promise.resolve();
      return data.get(key) ?? null;
    },
    async put(key, value) {
      await Promise.resolve();
      data.set(key, value);
    },
    async delete(key) {
      data.delete(key);
    },
    async list(options = {}) {
      const all = [...data.keys()].filter((k) => k.startsWith(options.prefix ?? '')).sort();
      const start = options.cursor ? Number(options.cursor) : 0;
      const limit = options.limit ?? 2; // tiny pages, so paging is exercised
      const page = all.slice(start, start + limit);
      const done = start + limit >= all.length;
      return {
        keys: page.map((name) => ({ name })),
        list_complete: done,
        ...(done ? {} : { cursor: String(start + limit) }),
      };
    },
  };
}

/**
 * The bounds and keys of the store's row caches (s3tables-repo.ts): rows by id and buckets by
 * name in maps that drop their oldest eighth when full, listed pages' ids by listing and
 * parameters in a map emptied when full. What is cached, and when it is forgotten, is the repo's.
 */

/** Rows (and buckets) kept per store: a few MB at most. */
const ROW_CACHE_ENTRIES = 4096;
/** Listed pages kept per store. */
const PAGE_CACHE_ENTRIES = 256;

/** Adds `value` under `id`, dropping the oldest eighth of the entries once the map is full. */
export function remember<T>(map: Map<string, T>, id: string, value: T): void {
  if (map.size >= ROW_CACHE_ENTRIES) {
    let drop = ROW_CACHE_ENTRIES / 8;
    for (const key of map.keys()) {
      map.delete(key);
      if (--drop === 0) break;
    }
  }
  map.set(id, value);
}

/** Keeps a listed page's ids, starting over once the map is full. */
export function keepPage(pages: Map<string, readonly string[]>, key: string, ids: readonly string[]): void {
  if (pages.size >= PAGE_CACHE_ENTRIES) pages.clear();
  pages.set(key, ids);
}

/** A bucket's cache key (names, accounts and regions have no `/`). */
export function bucketKey(account: string, region: string, name: string): string {
  return `${account}/${region}/${name}`;
}

/**
 * A page's cache key: the listing, then each parameter with its length, so no two lists of
 * parameters share one (a continuation token's key may hold any character).
 */
export function pageKey(query: string, params: unknown[]): string {
  let key = query;
  for (const p of params) {
    const text = String(p);
    key += `\u0000${text.length}:${text}`;
  }
  return key;
}

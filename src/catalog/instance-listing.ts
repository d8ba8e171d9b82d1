// GET /instances as a core service: the current catalogue index answers the query, and a
// response cache (spec 4.2 caching, D20) keeps whole bodies so a hit costs no work.
// The cache belongs to one catalogue version: a new index starts an empty one, so a response is
// never served for a version other than the one it was built from.
//
// A miss builds its body as one string (a join of the records' JSON serialised at build): a
// string lives on the V8 heap and dies young, where every Buffer is an off-heap allocation that
// V8 counts as external memory and answers with a full Mark-Compact once enough piles up (one
// every ~0.3 s under a stream of misses when each miss made three 28 KB Buffers;
// docs/performance.md). The cache keeps a miss as its recipe (the page's rows and the small rest
// of the body, a few hundred bytes) and makes the bytes on the first hit, once: queries asked
// once (a price slider) never hold 28 KB each in the old generation, and repeated ones are sent
// as ready bytes.
import { LRUCache } from 'lru-cache';
import type { CatalogIndex } from './index/catalog-index.js';
import type { CatalogIndexHolder } from './index/catalog-index-holder.js';
import type { ParsedInstanceQuery } from './instance-query.js';
import type { MoneyView } from '../fx/convert.js';
import type { InstanceRow } from '../storage/catalog-store.js';

export const CACHE_TTL_SECONDS = 300;

/** Upper bound of all cached bodies and their keys together, in bytes. */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** A JSON body: UTF-8 bytes, or a string Node encodes as UTF-8 as it writes it. */
export type ResponseBody = Buffer | string;

/** What makes a cached body that was asked for once: `HEAD`, the page's records, then `rest`. */
interface Recipe {
  readonly rows: readonly InstanceRow[];
  readonly money: MoneyView;
  readonly rest: string;
}

/**
 * A raw request (URL and Accept header) that a validated miss or hit named: the cache key its
 * parameters normalise to. Kept in the same bounded cache as the bodies, so it goes with them
 * (a new version, new exchange rates) and counts against the same bound.
 */
interface Alias {
  readonly key: string;
}

type Entry = Buffer | Recipe | Alias;

interface VersionCache {
  readonly version: number;
  readonly bodies: LRUCache<string, Entry>;
}

export class InstanceListing {
  readonly #holder: CatalogIndexHolder;
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #cache: VersionCache | undefined;

  constructor(
    holder: CatalogIndexHolder,
    /** Most cached responses kept; 0 disables the cache. */
    maxEntries: number,
    /** Most bytes of cached bodies and keys together (clients choose the keys). */
    maxBytes: number = CACHE_MAX_BYTES,
  ) {
    this.#holder = holder;
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** Bytes the response cache holds by its own measure (at most maxBytes). */
  get cachedBytes(): number {
    return this.#cache?.bodies.calculatedSize ?? 0;
  }

  /** Told of every cache lookup (metrics); unset costs nothing. */
  onLookup: ((hit: boolean) => void) | undefined;

  /**
   * The cached body for a raw request that an earlier validated request mapped to its key
   * (`alias`, see `list`), without parsing anything; undefined when there is none (no alias,
   * or its body has gone): the caller then takes the validating path, which counts the lookup.
   */
  cachedFor(alias: string): Buffer | undefined {
    const index = this.#holder.current;
    if (index === undefined) return undefined;
    const cache = this.#cacheFor(index);
    const entry = cache?.get(alias);
    if (entry === undefined || !isAlias(entry)) return undefined;
    const body = this.#hit(cache!, index, entry.key);
    if (body === undefined) return undefined;
    this.onLookup?.(true);
    return body;
  }

  /**
   * The response body: cached on a hit, built from the current index on a miss. On a hit,
   * `alias` (the raw request these validated parameters came from) is remembered for
   * `cachedFor`.
   */
  async list(parsed: ParsedInstanceQuery, alias?: string): Promise<ResponseBody> {
    const index = this.#holder.current ?? (await this.#holder.ready());
    const cache = this.#cacheFor(index);
    // The key names the query that ran (issue 15 item 8) and its currency; the cache itself
    // names the version.
    const key = parsed.cacheKey;
    const hit = cache === undefined ? undefined : this.#hit(cache, index, key);
    this.onLookup?.(hit !== undefined);
    if (hit !== undefined) {
      // Only a query asked again earns an alias: a stream of queries asked once (a price
      // slider) must not pay an extra entry per miss (4% fewer misses/s when it did).
      if (alias !== undefined && !cache!.has(alias)) cache!.set(alias, { key });
      return hit;
    }

    const started = performance.now();
    // Prices in the requested currency (D43): USD text comes from the index as serialised at
    // build; other currencies from its bounded per-(version, rates) memo.
    const page = index.page(parsed.query, parsed.money);
    const { limit, offset } = parsed.query;
    const pagination = JSON.stringify({
      total: page.total,
      limit,
      offset,
      has_more: offset + page.rows.length < page.total,
    });
    const lastSync = this.#lastSyncOf(index);
    const note = parsed.money.note;
    const exchange = note === undefined ? '' : `,"exchange_rate":${JSON.stringify(note)}`;
    const tail = `,"filters_applied":${JSON.stringify(parsed.filtersApplied)}${exchange}}}}`;
    const middle = `,"pagination":${pagination},"metadata":{"cached":`;
    const after = `,"last_sync":${lastSync},"query_time_ms":`;
    const elapsed = Math.round(performance.now() - started);
    // A hit answers at once: its query time is 0 by definition.
    cache?.set(key, {
      rows: page.rows,
      money: parsed.money,
      rest: `${middle}true${after}0${tail}`,
    });
    return `${HEAD}${page.json}${middle}false${after}${elapsed}${tail}`;
  }

  /** The body cached under `key` (made into bytes on its first hit), or undefined. */
  #hit(cache: LRUCache<string, Entry>, index: CatalogIndex, key: string): Buffer | undefined {
    const hit = cache.get(key);
    if (hit === undefined || isAlias(hit)) return undefined;
    if (Buffer.isBuffer(hit)) return hit;
    // Asked again: worth its bytes. Same entry, same expiry; the index is the version's.
    const bytes = Buffer.from(`${HEAD}${index.jsonArray(hit.rows, hit.money)}${hit.rest}`);
    cache.set(key, bytes, { noUpdateTTL: true });
    return bytes;
  }

  /**
   * Drops the cached responses of the current version: for inputs of a body other than the
   * catalogue (exchange rates). A catalogue change needs no call: it starts a new cache.
   */
  invalidate(): void {
    this.#cache = undefined;
  }

  /** `last_sync` as JSON, made once per index (a Date to ISO text per request showed). */
  #lastSyncOf(index: CatalogIndex): string {
    if (this.#lastSync?.index !== index) {
      const json = JSON.stringify(index.lastSuccessfulSync?.toISOString() ?? null);
      this.#lastSync = { index, json };
    }
    return this.#lastSync.json;
  }

  #lastSync: { readonly index: CatalogIndex; readonly json: string } | undefined;

  #cacheFor(index: CatalogIndex): LRUCache<string, Entry> | undefined {
    if (this.#maxEntries <= 0) return undefined;
    if (this.#cache?.version !== index.version) {
      this.#cache = {
        version: index.version,
        bodies: new LRUCache<string, Entry>({
          max: this.#maxEntries,
          maxSize: this.#maxBytes,
          // UTF-16 keys and texts: two bytes a character; a recipe's rows are references (8 bytes
          // each) to the index's records; an alias, its key; plus each entry's own bookkeeping.
          sizeCalculation: (body, key) =>
            (Buffer.isBuffer(body)
              ? body.length
              : isAlias(body)
                ? body.key.length * 2 + 32
                : body.rows.length * 8 + body.rest.length * 2 + 96) +
            key.length * 2 +
            64,
          ttl: CACHE_TTL_SECONDS * 1000,
        }),
      };
    }
    return this.#cache.bodies;
  }
}

const HEAD = '{"success":true,"data":{"instances":';

function isAlias(entry: Entry): entry is Alias {
  return !Buffer.isBuffer(entry) && 'key' in entry;
}

// GET /instances as a core service: the current catalogue index answers the query, and a
// response cache (spec 4.2 caching, D20) keeps whole bodies so a hit costs no work.
// The cache belongs to one catalogue version: a new index starts an empty one, so a response is
// never served for a version other than the one it was built from.
//
// A miss writes its body straight into one Buffer: the envelope's head, the records' JSON the
// index keeps (ASCII copied as it is), the envelope's tail. The cache remembers a miss only as
// seen (a shared marker under its key) and keeps the bytes on the first hit, made again from the
// same index and rates: queries asked once (a price slider) leave nothing behind but their key,
// and repeated ones are sent as ready bytes. (A body as one string cost three more passes over
// its bytes: Fastify's Buffer.byteLength flattening the rope, Node joining headers and body, the
// socket write encoding it; ADR 0009 and docs/performance.md have the measurements.)
import { LRUCache } from 'lru-cache';
import type { CatalogIndex } from './index/catalog-index.js';
import type { CatalogIndexHolder } from './index/catalog-index-holder.js';
import type { ParsedInstanceQuery } from './instance-query.js';

export const CACHE_TTL_SECONDS = 300;

/** Upper bound of all cached bodies and their keys together, in bytes. */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A query asked once: its answer is made again, as bytes, when it is asked again. One shared
 * object, so remembering a miss allocates nothing but the cache's own entry.
 */
const SEEN = Object.freeze({ seen: true as const });
type Seen = typeof SEEN;

/**
 * A raw request (URL and Accept header) that a validated miss or hit named: the cache key its
 * parameters normalise to. Kept in the same bounded cache as the bodies, so it goes with them
 * (a new version, new exchange rates) and counts against the same bound.
 */
interface Alias {
  readonly key: string;
}

type Entry = Buffer | Seen | Alias;

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
    const body = cache!.get(entry.key);
    // Only bytes: a key seen once has no body yet, and only `list` has the query to make it.
    if (!Buffer.isBuffer(body)) return undefined;
    this.onLookup?.(true);
    return body;
  }

  /**
   * The response body: cached on a hit, built from the current index on a miss. On a hit,
   * `alias` (the raw request these validated parameters came from) is remembered for
   * `cachedFor`.
   */
  async list(parsed: ParsedInstanceQuery, alias?: string): Promise<Buffer> {
    const index = this.#holder.current ?? (await this.#holder.ready());
    const cache = this.#cacheFor(index);
    // The key names the query that ran (issue 15 item 8) and its currency; the cache itself
    // names the version.
    const key = parsed.cacheKey;
    const entry = cache?.get(key);
    const hit = entry !== undefined && !isAlias(entry);
    this.onLookup?.(hit);
    if (hit) {
      // Asked again: worth its bytes, made from the same index and rates (a new version or new
      // rates start a new cache), so they are the answer the first asking got. Same entry, same
      // expiry. A hit answers at once: its query time is 0 by definition.
      const bytes = Buffer.isBuffer(entry) ? entry : this.#body(index, parsed, true, 0);
      if (bytes !== entry) cache!.set(key, bytes, { noUpdateTTL: true });
      // Only a query asked again earns an alias: a stream of queries asked once (a price
      // slider) must not pay an extra entry per miss (4% fewer misses/s when it did).
      if (alias !== undefined && !cache!.has(alias)) cache!.set(alias, { key });
      return bytes;
    }
    cache?.set(key, SEEN);
    return this.#body(index, parsed, false, undefined);
  }

  /**
   * The JSON body of `parsed` on `index`, as UTF-8 bytes. `queryTimeMs` undefined: the time the
   * query takes now, rounded to whole milliseconds.
   */
  #body(
    index: CatalogIndex,
    parsed: ParsedInstanceQuery,
    cached: boolean,
    queryTimeMs: number | undefined,
  ): Buffer {
    const started = performance.now();
    // Prices in the requested currency (D43): USD text comes from the index as serialised at
    // build; other currencies from its bounded per-(version, rates) memo.
    // D61: the selected option's index prices, filters and sorts every record by that option.
    const page = index.forOption(parsed.purchaseOption).page(parsed.query, parsed.money);
    const { limit, offset } = parsed.query;
    const pagination = JSON.stringify({
      total: page.total,
      limit,
      offset,
      has_more: offset + page.count < page.total,
    });
    const note = parsed.money.note;
    const exchange = note === undefined ? '' : `,"exchange_rate":${JSON.stringify(note)}`;
    const elapsed = queryTimeMs ?? Math.round(performance.now() - started);
    const tail =
      `,"pagination":${pagination},"metadata":{"cached":${cached}` +
      `,"last_sync":${this.#lastSyncOf(index)},"query_time_ms":${elapsed}` +
      `,"filters_applied":${JSON.stringify(parsed.filtersApplied)}${exchange}}}}`;
    const body = Buffer.allocUnsafe(HEAD.length + page.json.byteLength + Buffer.byteLength(tail));
    const at = page.json.writeTo(body, body.write(HEAD, 0, 'latin1'));
    body.write(tail, at);
    return body;
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
          // UTF-16 keys and texts: two bytes a character; an alias, its key; a query seen once,
          // nothing of its own (the marker is shared); plus each entry's own bookkeeping.
          sizeCalculation: (body, key) =>
            (Buffer.isBuffer(body) ? body.length : isAlias(body) ? body.key.length * 2 + 32 : 0) +
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

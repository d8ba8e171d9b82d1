// GET /instances as a core service: the current catalogue index answers the query, and a
// response cache (spec 4.2 caching, D20) keeps whole bodies as bytes so a hit costs no work.
// The cache belongs to one catalogue version: a new index starts an empty one, so a response is
// never served for a version other than the one it was built from.
import { LRUCache } from 'lru-cache';
import type { CatalogIndex } from './index/catalog-index.js';
import type { CatalogIndexHolder } from './index/catalog-index-holder.js';
import type { ParsedInstanceQuery } from './instance-query.js';

export const CACHE_TTL_SECONDS = 300;

/** Upper bound of all cached bodies and their keys together, in bytes. */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

interface VersionCache {
  readonly version: number;
  readonly bodies: LRUCache<string, Buffer>;
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

  /** The response body: cached bytes on a hit, built from the current index on a miss. */
  async list(parsed: ParsedInstanceQuery): Promise<Buffer> {
    const index = this.#holder.current ?? (await this.#holder.ready());
    const cache = this.#cacheFor(index);
    // The key names the query that ran (issue 15 item 8) and its currency; the cache itself
    // names the version.
    const key = parsed.cacheKey;
    const hit = cache?.get(key);
    this.onLookup?.(hit !== undefined);
    if (hit !== undefined) return hit;

    const started = performance.now();
    const page = index.query(parsed.query);
    const { limit, offset } = parsed.query;
    const pagination = JSON.stringify({
      total: page.total,
      limit,
      offset,
      has_more: offset + page.ids.length < page.total,
    });
    const lastSync = JSON.stringify(index.lastSuccessfulSync?.toISOString() ?? null);
    const note = parsed.money.note;
    const exchange = note === undefined ? '' : `,"exchange_rate":${JSON.stringify(note)}`;
    const middle = `,"pagination":${pagination},"metadata":{"cached":`;
    const after = `,"last_sync":${lastSync},"query_time_ms":`;
    const tail = `,"filters_applied":${JSON.stringify(parsed.filtersApplied)}${exchange}}}}`;
    // Prices in the requested currency (D43): USD bytes come from the index as serialised at
    // build; other currencies from its bounded per-(version, rates) memo.
    const instances = index.jsonArray(page.rows, parsed.money);
    const elapsed = Math.round(performance.now() - started);
    if (cache) {
      // A hit answers at once: its query time is 0 by definition.
      cache.set(
        key,
        Buffer.concat([HEAD, instances, Buffer.from(`${middle}true${after}0${tail}`)]),
      );
    }
    return Buffer.concat([HEAD, instances, Buffer.from(`${middle}false${after}${elapsed}${tail}`)]);
  }

  /**
   * Drops the cached responses of the current version: for inputs of a body other than the
   * catalogue (exchange rates). A catalogue change needs no call: it starts a new cache.
   */
  invalidate(): void {
    this.#cache = undefined;
  }

  #cacheFor(index: CatalogIndex): LRUCache<string, Buffer> | undefined {
    if (this.#maxEntries <= 0) return undefined;
    if (this.#cache?.version !== index.version) {
      this.#cache = {
        version: index.version,
        bodies: new LRUCache<string, Buffer>({
          max: this.#maxEntries,
          maxSize: this.#maxBytes,
          // UTF-16 keys: two bytes a character, plus the entry's own bookkeeping.
          sizeCalculation: (body, key) => body.length + key.length * 2 + 64,
          ttl: CACHE_TTL_SECONDS * 1000,
        }),
      };
    }
    return this.#cache.bodies;
  }
}

const HEAD = Buffer.from('{"success":true,"data":{"instances":');

// GET /instances as a core service: the response cache (spec 4.2 caching, D20) in front of the
// store. It produces the response body as bytes so a cache hit costs no serialisation at all.
import { LRUCache } from 'lru-cache';
import type { CatalogStore, InstancePage } from '../storage/catalog-store.js';
import { RecordJsonMemo, toInstanceRecord } from './instance-json.js';
import type { ParsedInstanceQuery } from './instance-query.js';

export const CACHE_TTL_SECONDS = 300;

/** Upper bound of all cached bodies together, in bytes. */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

export class InstanceListing {
  private readonly cache: LRUCache<string, Buffer> | undefined;
  private readonly records = new RecordJsonMemo();
  /** Bumped by every invalidation, so a query that overlapped one does not fill the cache. */
  private generation = 0;
  private lastSync: Promise<string> | undefined;

  constructor(
    private readonly store: CatalogStore,
    /** Most cached responses kept; 0 disables the cache. */
    maxEntries: number,
  ) {
    this.cache =
      maxEntries > 0
        ? new LRUCache<string, Buffer>({
            max: maxEntries,
            maxSize: CACHE_MAX_BYTES,
            sizeCalculation: (body) => body.length,
            ttl: CACHE_TTL_SECONDS * 1000,
          })
        : undefined;
  }

  /** Told of every cache lookup (metrics); unset costs nothing. */
  onLookup: ((hit: boolean) => void) | undefined;

  /** The response body: the cached bytes on a hit, built afresh on a miss. */
  async list(parsed: ParsedInstanceQuery): Promise<Buffer> {
    const hit = this.cache?.get(parsed.cacheKey);
    this.onLookup?.(hit !== undefined);
    if (hit !== undefined) return hit;

    const started = performance.now();
    const generation = this.generation;
    const [page, lastSync] = await Promise.all([
      // Records change only at a sync: rows already serialised since the last one are not read.
      this.store.queryInstances(parsed.query, { known: (id) => this.records.has(id) }),
      this.lastSyncJson(),
    ]);
    if (generation !== this.generation) {
      // The catalogue changed while we read: records we skipped as known may be gone from the
      // memo. Read the whole page again, in one snapshot, and serialise it as read.
      const full = await this.store.queryInstances(parsed.query);
      return this.respond(parsed, full, await this.lastSyncJson(), started, false);
    }
    for (const row of page.rows) this.records.json(row);
    return this.respond(parsed, page, lastSync, started, true);
  }

  private respond(
    parsed: ParsedInstanceQuery,
    page: InstancePage,
    lastSync: string,
    started: number,
    memoised: boolean,
  ): Buffer {
    const instances = memoised
      ? page.ids.map((id) => this.memoisedJson(id)).join(',')
      : page.rows.map((row) => JSON.stringify(toInstanceRecord(row))).join(',');
    const { limit, offset } = parsed.query;
    const pagination = JSON.stringify({
      total: page.total,
      limit,
      offset,
      has_more: offset + page.ids.length < page.total,
    });
    const head = `{"success":true,"data":{"instances":[${instances}],"pagination":${pagination},"metadata":{"cached":`;
    const tail = `,"filters_applied":${JSON.stringify(parsed.filtersApplied)}}}}`;
    const middle = `,"last_sync":${lastSync},"query_time_ms":`;
    const elapsed = Math.round(performance.now() - started);

    // Only a page read without a catalogue change in between may be cached.
    if (this.cache && memoised) {
      // A hit answers at once: its query time is 0 by definition.
      this.cache.set(parsed.cacheKey, Buffer.from(`${head}true${middle}0${tail}`));
    }
    return Buffer.from(`${head}false${middle}${elapsed}${tail}`);
  }

  private memoisedJson(id: number): string {
    const json = this.records.get(id);
    if (json === undefined) throw new Error(`record ${id} is not serialised`);
    return json;
  }

  /** The catalogue changed: drop cached responses, serialised records and last_sync. */
  invalidate(): void {
    this.generation += 1;
    this.cache?.clear();
    this.records.clear();
    this.lastSync = undefined;
  }

  private lastSyncJson(): Promise<string> {
    this.lastSync ??= this.store.lastSuccessfulSync().then(
      (date) => JSON.stringify(date ? date.toISOString() : null),
      (error: unknown) => {
        this.lastSync = undefined;
        throw error;
      },
    );
    return this.lastSync;
  }
}

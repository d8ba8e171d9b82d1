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
  /** Serialised records per currency (prices differ; D43). */
  private readonly memos = new Map<string, RecordJsonMemo>();
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
    const records = this.memoFor(parsed);
    const [page, lastSync] = await Promise.all([
      // Records change only at a sync: rows already serialised since the last one are not read.
      this.store.queryInstances(parsed.query, { known: (id) => records.has(id) }),
      this.lastSyncJson(),
    ]);
    if (generation !== this.generation) {
      // The catalogue changed while we read: records we skipped as known may be gone from the
      // memo. Read the whole page again, in one snapshot, and serialise it as read.
      const full = await this.store.queryInstances(parsed.query);
      return this.respond(parsed, full, await this.lastSyncJson(), started, false);
    }
    for (const row of page.rows) records.json(row);
    return this.respond(parsed, page, lastSync, started, true);
  }

  private memoFor(parsed: ParsedInstanceQuery): RecordJsonMemo {
    // Keyed by the rates too: a request parsed just before new rates arrived must not leave a
    // memo of old prices behind for later requests.
    const note = parsed.money.note;
    const key = note === undefined ? 'USD' : `${note.currency}|${note.as_of}|${note.rate}`;
    let memo = this.memos.get(key);
    if (memo === undefined) {
      memo = new RecordJsonMemo(parsed.money);
      this.memos.set(key, memo);
    }
    return memo;
  }

  private respond(
    parsed: ParsedInstanceQuery,
    page: InstancePage,
    lastSync: string,
    started: number,
    memoised: boolean,
  ): Buffer {
    const instances = memoised
      ? page.ids.map((id) => this.memoisedJson(parsed, id)).join(',')
      : page.rows.map((row) => JSON.stringify(toInstanceRecord(row, parsed.money))).join(',');
    const { limit, offset } = parsed.query;
    const pagination = JSON.stringify({
      total: page.total,
      limit,
      offset,
      has_more: offset + page.ids.length < page.total,
    });
    const head = `{"success":true,"data":{"instances":[${instances}],"pagination":${pagination},"metadata":{"cached":`;
    const note = parsed.money.note;
    const exchange = note === undefined ? '' : `,"exchange_rate":${JSON.stringify(note)}`;
    const tail = `,"filters_applied":${JSON.stringify(parsed.filtersApplied)}${exchange}}}}`;
    const middle = `,"last_sync":${lastSync},"query_time_ms":`;
    const elapsed = Math.round(performance.now() - started);

    // Only a page read without a catalogue change in between may be cached.
    if (this.cache && memoised) {
      // A hit answers at once: its query time is 0 by definition.
      this.cache.set(parsed.cacheKey, Buffer.from(`${head}true${middle}0${tail}`));
    }
    return Buffer.from(`${head}false${middle}${elapsed}${tail}`);
  }

  private memoisedJson(parsed: ParsedInstanceQuery, id: number): string {
    const json = this.memoFor(parsed).get(id);
    if (json === undefined) throw new Error(`record ${id} is not serialised`);
    return json;
  }

  /** The catalogue changed: drop cached responses, serialised records and last_sync. */
  invalidate(): void {
    this.generation += 1;
    this.cache?.clear();
    // Dropped, not cleared: a memo holds the rates it was made with, and those may be new.
    this.memos.clear();
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

// The history endpoints as core functions (D39 to D41): the routes parse, call these, and send
// the bytes or objects they return. Nothing here knows about HTTP.
import { toInstanceRecord, type InstanceRecord } from '../catalog/instance-json.js';
import type { ParsedInstanceQuery } from '../catalog/instance-query.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { ChangeQuery } from '../storage/history-store.js';
import { toChangeItem, toPeriodJson, type ChangeItemJson, type PeriodJson } from './change-json.js';
import { HISTORY_MAX_PERIODS, encodeCursor } from './history-query.js';

export interface RecordHistoryJson {
  instance: InstanceRecord;
  history: PeriodJson[];
}

/** D39: the record and its periods newest first, or undefined for an unknown record. */
export async function recordHistory(
  store: CatalogStore,
  recordId: number,
): Promise<RecordHistoryJson | undefined> {
  const found = await store.history.recordHistory(recordId, HISTORY_MAX_PERIODS);
  if (found === undefined) return undefined;
  return {
    instance: toInstanceRecord(found.record),
    history: found.periods.map(toPeriodJson),
  };
}

export interface ChangeFeedJson {
  changes: ChangeItemJson[];
  next_cursor: string | null;
}

/** D40: one page of the feed and the cursor of the next. */
export async function changeFeed(store: CatalogStore, query: ChangeQuery): Promise<ChangeFeedJson> {
  const page = await store.history.changes(query);
  return {
    changes: page.changes.map(toChangeItem),
    next_cursor: page.next === null ? null : encodeCursor(page.next),
  };
}

/**
 * D41: the /instances body for the catalogue as it was at `at`, read from the store's history
 * (never from a cache or in-memory index of the current catalogue). Same shape as /instances,
 * with `metadata.as_of`; never cached.
 */
export async function listAsOf(
  store: CatalogStore,
  parsed: ParsedInstanceQuery,
  at: Date,
): Promise<Buffer> {
  const started = performance.now();
  const page = await store.history.queryAsOf(parsed.query, at);
  const { limit, offset } = parsed.query;
  const body = {
    success: true,
    data: {
      instances: page.rows.map((row) => toInstanceRecord(row, parsed.money)),
      pagination: {
        total: page.total,
        limit,
        offset,
        has_more: offset + page.ids.length < page.total,
      },
      metadata: {
        cached: false,
        last_sync: page.lastSync === null ? null : page.lastSync.toISOString(),
        query_time_ms: Math.round(performance.now() - started),
        filters_applied: parsed.filtersApplied,
        ...(parsed.money.note !== undefined && { exchange_rate: parsed.money.note }),
        as_of: at.toISOString(),
      },
    },
  };
  return Buffer.from(JSON.stringify(body));
}

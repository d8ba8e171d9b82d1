// The history endpoints as core functions (D39 to D41): the routes parse, call these, and send
// the bytes or objects they return. Nothing here knows about HTTP.
import { toInstanceRecord, type InstanceRecord } from '../catalog/instance-json.js';
import type { ParsedInstanceQuery } from '../catalog/instance-query.js';
import type { ExchangeRateNote, MoneyView } from '../fx/convert.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { ChangeQuery } from '../storage/history-store.js';
import { toChangeItem, toPeriodJson, type ChangeItemJson, type PeriodJson } from './change-json.js';
import { HISTORY_MAX_PERIODS, encodeCursor } from './history-query.js';

/** D43: `metadata.exchange_rate` when prices are not in USD; USD answers carry no metadata. */
export interface MoneyMetadata {
  metadata?: { exchange_rate: ExchangeRateNote };
}

function moneyMetadata(money: MoneyView): MoneyMetadata {
  return money.note === undefined ? {} : { metadata: { exchange_rate: money.note } };
}

export interface RecordHistoryJson extends MoneyMetadata {
  instance: InstanceRecord;
  history: PeriodJson[];
}

/**
 * D39: the record and its periods newest first, or undefined for an unknown record; every price
 * in `money`'s currency (D43), converted at today's rate (periods are not converted at the rate
 * of their time: the answer compares prices, not past exchange rates).
 */
export async function recordHistory(
  store: CatalogStore,
  recordId: number,
  money: MoneyView,
): Promise<RecordHistoryJson | undefined> {
  const found = await store.history.recordHistory(recordId, HISTORY_MAX_PERIODS);
  if (found === undefined) return undefined;
  return {
    instance: toInstanceRecord(found.record, money),
    history: found.periods.map((period) => toPeriodJson(period, money)),
    ...moneyMetadata(money),
  };
}

export interface ChangeFeedJson extends MoneyMetadata {
  changes: ChangeItemJson[];
  next_cursor: string | null;
}

/** D40: one page of the feed and the cursor of the next, prices in `money`'s currency (D43). */
export async function changeFeed(
  store: CatalogStore,
  query: ChangeQuery,
  money: MoneyView,
): Promise<ChangeFeedJson> {
  const page = await store.history.changes(query);
  return {
    changes: page.changes.map((change) => toChangeItem(change, money)),
    next_cursor: page.next === null ? null : encodeCursor(page.next),
    ...moneyMetadata(money),
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

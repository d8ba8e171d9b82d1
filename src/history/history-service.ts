// The history endpoints as core functions (D39 to D41): the routes parse, call these, and send
// the bytes or objects they return. Nothing here knows about HTTP.
import { toInstanceRecord, type InstanceRecord } from '../catalog/instance-json.js';
import type { ParsedInstanceQuery } from '../catalog/instance-query.js';
import type { ExchangeRateNote, MoneyView } from '../catalog/money-view.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { ChangeSummary } from '../storage/history-store.js';
import {
  toChangeItem,
  toPeriodJson,
  type ChangeItemJson,
  type PeriodJson,
} from '../catalog/price-change-json.js';
import type { ChangeKind } from '../catalog/price-change-model.js';
import { DEFAULT_PURCHASE_OPTION, type PurchaseOption } from '../catalog/purchase-options.js';
import { recordAs } from '../catalog/records.js';
import { HISTORY_MAX_PERIODS, encodeCursor, type ParsedChangesQuery } from './history-query.js';

/** Groups a /changes summary lists at most (ADR 0022): the newest syncs'. */
export const CHANGES_SUMMARY_MAX_SYNCS = 500;

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
  option: PurchaseOption = DEFAULT_PURCHASE_OPTION,
): Promise<RecordHistoryJson | undefined> {
  const found = await store.history.recordHistory(recordId, HISTORY_MAX_PERIODS, option);
  if (found === undefined) return undefined;
  return {
    // Priced by the option asked for where the record is sold under it (D61).
    instance: toInstanceRecord(recordAs(found.record, option) ?? found.record, money),
    history: found.periods.map((period) => toPeriodJson(period, money)),
    ...moneyMetadata(money),
  };
}

export interface ChangeSummaryJson {
  total: number;
  kinds: Record<ChangeKind, number>;
  syncs: { sync_id: string; at: string; kind: ChangeKind; provider: string; count: number }[];
  syncs_complete: boolean;
}

export interface ChangeFeedJson extends MoneyMetadata {
  changes: ChangeItemJson[];
  next_cursor: string | null;
  summary?: ChangeSummaryJson;
}

function toSummaryJson(summary: ChangeSummary): ChangeSummaryJson {
  return {
    total: summary.total,
    kinds: { ...summary.kinds },
    syncs: summary.groups.map((group) => ({
      sync_id: group.syncId,
      at: group.at.toISOString(),
      kind: group.kind,
      provider: group.provider,
      count: group.count,
    })),
    syncs_complete: summary.groupsComplete,
  };
}

/**
 * D40: one page of the feed and the cursor of the next, prices in `money`'s currency (D43); with
 * `summary` (ADR 0022), the counts over the whole window and filters, whatever the page.
 */
export async function changeFeed(
  store: CatalogStore,
  { query, summary }: ParsedChangesQuery,
  money: MoneyView,
): Promise<ChangeFeedJson> {
  const [page, counts] = await Promise.all([
    store.history.changes(query),
    summary ? store.history.changeSummary(query, CHANGES_SUMMARY_MAX_SYNCS) : undefined,
  ]);
  return {
    changes: page.changes.map((change) => toChangeItem(change, money)),
    next_cursor: page.next === null ? null : encodeCursor(page.next),
    ...(counts !== undefined && { summary: toSummaryJson(counts) }),
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

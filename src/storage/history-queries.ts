import { sql } from 'kysely';
import type { Kysely, SqlBool, Transaction } from 'kysely';
import { PROVIDER_NAMES, isProviderName } from '../catalog/model.js';
import { isChangeKind } from '../catalog/price-change-model.js';
import type { PriceChange, PricePeriod, Prices } from '../catalog/price-change-model.js';
import { INSTANCE_RECORD_COLUMNS, toInstanceRow } from './catalog-rows.js';
import { withExtras } from './record-extras.js';
import {
  SORT_COLUMNS,
  sortModifiers,
  filterConditions,
  pageBounds,
  type RecordExpressions,
} from './catalog-queries.js';
import type { CatalogDatabase } from './catalog-schema.js';
import type { InstancePage, InstanceQuery } from '../catalog/record-query.js';
import type { InstanceRow } from '../catalog/records.js';
import type {
  ChangeCursor,
  ChangeFilter,
  ChangeQuery,
  ChangePage,
  RecordHistory,
} from './history-store.js';
import { isPurchaseOption, type PurchaseOption } from '../catalog/purchase-options.js';
import { epochMs } from './sync-history.js';

// Reads of the price history and the change feed (D39, D40, D41), shared by both dialects.

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

/** A record (available or not) with its periods, newest first, at most `limit` of them. */
export async function selectRecordHistory(
  db: Executor,
  recordId: number,
  limit: number,
  option: PurchaseOption,
): Promise<RecordHistory | undefined> {
  const record = await db
    .selectFrom('pricing as p')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('p.id', '=', recordId)
    // A record of a provider not served (D65) is unknown, as in every other read.
    .where('pv.name', 'in', [...PROVIDER_NAMES])
    .select(INSTANCE_RECORD_COLUMNS)
    .executeTakeFirst();
  if (record === undefined) return undefined;
  const rows = await db
    .selectFrom('price_history')
    .where('pricing_id', '=', recordId)
    .where('purchase_option', '=', option)
    .select(['valid_from', 'valid_to', 'hourly_micros', 'monthly_micros', 'available'])
    .orderBy('valid_from', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const periods: PricePeriod[] = rows.map((row) => ({
    validFrom: new Date(row.valid_from),
    validTo: row.valid_to === null ? null : new Date(row.valid_to),
    hourlyMicros: row.hourly_micros,
    monthlyMicros: row.monthly_micros,
    available: row.available === 1,
    purchaseOption: option,
  }));
  const [withOptions] = await withExtras(db, [record]);
  return { record: withOptions!, periods };
}

function prices(hourly: number | null, monthly: number | null): Prices | null {
  return hourly === null || monthly === null
    ? null
    : { hourlyMicros: hourly, monthlyMicros: monthly };
}

/**
 * The feed's items matching `filter`, joined to their runs (`s.catalog_version`); only those of
 * the providers served (D65).
 */
export function filteredChanges(db: Executor, filter: ChangeFilter) {
  let select = db
    .selectFrom('price_changes as c')
    .innerJoin('sync_runs as s', 's.id', 'c.run_id')
    .where('c.provider', 'in', [...PROVIDER_NAMES])
    .where('c.at', '>=', epochMs(filter.since, 'since'));
  if (filter.until !== undefined)
    select = select.where('c.at', '<', epochMs(filter.until, 'until'));
  if (filter.provider !== undefined) select = select.where('c.provider', '=', filter.provider);
  if (filter.region !== undefined) select = select.where('c.region_code', '=', filter.region);
  if (filter.regions !== undefined) {
    const regions = filter.regions;
    select = select.where((eb) =>
      regions.length === 0 ? sql<SqlBool>`1 = 0` : eb('c.region_code', 'in', regions),
    );
  }
  if (filter.kinds !== undefined) {
    const kinds = filter.kinds;
    select = select.where((eb) =>
      kinds.length === 0 ? sql<SqlBool>`1 = 0` : eb('c.kind', 'in', kinds),
    );
  }
  if (filter.syncId !== undefined) select = select.where('c.sync_id', '=', filter.syncId);
  if (filter.purchaseOption !== undefined) {
    select = select.where('c.purchase_option', '=', filter.purchaseOption);
  }
  return select;
}

/**
 * One page of the feed in commit order (the catalogue version its run committed, then id; issue
 * 22), or that order reversed for `newest`, after the cursor position when given. A commit
 * always gets a higher version than every commit before it and no reader sees it before it
 * commits, so a client that pages oldest first to the end sees every item once, whichever order
 * concurrent applies took their times in. Newest first, an item committed while a client pages
 * lands above the pages already read: the client sees the rest once, without it.
 */
export async function selectChanges(db: Executor, query: ChangeQuery): Promise<ChangePage> {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
    throw new RangeError('limit must be a positive integer');
  }
  const after = query.after === undefined ? undefined : await cursorPosition(db, query.after);
  const newest = query.order === 'newest';
  const beyond = newest ? '<' : '>';
  let select = filteredChanges(db, query)
    .innerJoin('pricing as p', 'p.id', 'c.pricing_id')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref');
  if (after !== undefined) {
    select = select.where((eb) =>
      eb.or([
        eb('s.catalog_version', beyond, after.version),
        eb.and([eb('s.catalog_version', '=', after.version), eb('c.id', beyond, after.id)]),
      ]),
    );
  }
  const rows = await select
    .select([
      'c.id as id',
      's.catalog_version as version',
      'c.at as at',
      'c.sync_id as sync_id',
      'c.kind as kind',
      'c.purchase_option as purchase_option',
      'c.pricing_id as pricing_id',
      'c.provider as provider',
      'c.region_code as region_code',
      'i.instance_id as instance_id',
      'i.instance_name as instance_name',
      'c.old_hourly_micros as old_hourly',
      'c.old_monthly_micros as old_monthly',
      'c.new_hourly_micros as new_hourly',
      'c.new_monthly_micros as new_monthly',
    ])
    .orderBy('s.catalog_version', newest ? 'desc' : 'asc')
    .orderBy('c.id', newest ? 'desc' : 'asc')
    .limit(query.limit + 1)
    .execute();
  const changes: PriceChange[] = rows.slice(0, query.limit).map((row) => {
    if (
      !isProviderName(row.provider) ||
      !isChangeKind(row.kind) ||
      !isPurchaseOption(row.purchase_option)
    ) {
      throw new Error(`unknown provider, kind or option in the change feed (change ${row.id})`);
    }
    return {
      id: row.id,
      at: new Date(row.at),
      syncId: row.sync_id,
      kind: row.kind,
      purchaseOption: row.purchase_option,
      instance: {
        id: row.pricing_id,
        provider: row.provider,
        regionCode: row.region_code,
        instanceId: row.instance_id,
        instanceName: row.instance_name,
      },
      old: prices(row.old_hourly, row.old_monthly),
      new: prices(row.new_hourly, row.new_monthly),
    };
  });
  const last = rows[query.limit - 1];
  const more = rows.length > query.limit && last !== undefined;
  return { changes, next: more ? { version: Number(last.version ?? 0), id: last.id } : null };
}

/**
 * The cursor's full position. A cursor of the earlier form carries only the item's id: its
 * version is read (items are never deleted; an unknown id reads as version 0).
 */
async function cursorPosition(
  db: Executor,
  cursor: ChangeCursor,
): Promise<{ readonly version: number; readonly id: number }> {
  if (cursor.version !== undefined) return { version: cursor.version, id: cursor.id };
  const row = await db
    .selectFrom('price_changes as c')
    .innerJoin('sync_runs as s', 's.id', 'c.run_id')
    .where('c.id', '=', cursor.id)
    .select('s.catalog_version as version')
    .executeTakeFirst();
  return { version: Number(row?.version ?? 0), id: cursor.id };
}

/**
 * The records offered at `at` with their prices then (D41), filtered, sorted and paged like
 * /instances. The periods open at `at` stand in for `pricing` (same column names), so the
 * listing's own filters and sorts apply unchanged. Instance specs are today's: only prices and
 * availability are historised. Run it in a snapshot transaction.
 */
export async function selectAsOfPage(
  trx: Executor,
  query: InstanceQuery,
  at: Date,
): Promise<InstancePage & { readonly lastSync: Date | null }> {
  pageBounds(query);
  const ms = epochMs(at, 'as_of');
  const periods = trx
    .selectFrom('price_history as h')
    .innerJoin('pricing as pp', 'pp.id', 'h.pricing_id')
    .where('h.valid_from', '<=', ms)
    .where((eb) => eb.or([eb('h.valid_to', 'is', null), eb('h.valid_to', '>', ms)]))
    .where('h.available', '=', sql.lit(1))
    // A past catalogue is priced on-demand, as the catalogue is by default (D41, D61).
    .where('h.purchase_option', '=', sql.lit('on_demand'))
    .select([
      'h.pricing_id as id',
      'pp.instance_ref as instance_ref',
      'pp.region_id as region_id',
      'h.hourly_micros as hourly_micros',
      'h.monthly_micros as monthly_micros',
      'h.available as available',
      'h.observed_at as observed_at',
    ]);
  const matching = trx
    .selectFrom(periods.as('p'))
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where((eb) =>
      eb.and(filterConditions(eb as unknown as RecordExpressions, query.filter) as never),
    );
  const sortColumn = SORT_COLUMNS[query.sort] as never;
  const rows = await matching
    .select(INSTANCE_RECORD_COLUMNS as never)
    .orderBy(sortColumn, sortModifiers(query.sort, query.order))
    .orderBy('p.id' as never, 'asc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const counted = await matching
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const last = await trx
    .selectFrom('sync_runs')
    .where('success', '=', sql.lit(1))
    .where('completed_at', '<=', ms)
    .select((eb) => eb.fn.max('completed_at').as('last'))
    .executeTakeFirst();
  // As of a past moment the history holds on-demand prices only: the records list that option.
  const records = (rows as unknown as Parameters<typeof toInstanceRow>[0][]).map((row) =>
    toInstanceRow(row),
  );
  return {
    ids: records.map((r: InstanceRow) => r.id),
    rows: records,
    total: Number(counted.total),
    lastSync: last?.last === undefined || last.last === null ? null : new Date(last.last),
  };
}

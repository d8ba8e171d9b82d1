import type { Transaction } from 'kysely';
import type { ProviderName } from '../catalog/model.js';
import { changeSides, classifyChange } from '../catalog/price-change-model.js';
import type { PriceChange, PriceState } from '../catalog/price-change-model.js';
import type { CatalogDatabase } from './catalog-schema.js';
import {
  PURCHASE_OPTIONS,
  isPurchaseOption,
  type PurchaseOption,
} from '../catalog/purchase-options.js';
import { epochMs } from './sync-history.js';

// Price history inside the apply transaction (D38): after a provider's catalogue is written,
// every record whose state differs from its open period gets that period closed and a new one
// opened at the sync's completed_at, and one feed item. Records whose state did not move add
// nothing. Being in the apply's transaction, a sync that fails or is killed leaves the history
// exactly as it was.
//
// Per purchase option (D61): each option of a record has its own periods and feed items. An
// option's state is its price and whether it is offered: offered while the record is available
// and lists the option; an option the record no longer lists is `removed` at its last price.

/** Rows per multi-row INSERT: 8 bound values a row stay far below SQLite's 32,766. */
const CHUNK = 1000;

interface CurrentRow {
  readonly id: number;
  readonly purchase_option: PurchaseOption;
  readonly instance_id: string;
  readonly instance_name: string;
  readonly region_code: string;
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  readonly available: number;
  readonly observed_at: number;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

const state = (row: {
  hourly_micros: number;
  monthly_micros: number;
  available: number;
}): PriceState => ({
  hourlyMicros: row.hourly_micros,
  monthlyMicros: row.monthly_micros,
  available: row.available === 1,
});

export interface HistoryRun {
  readonly syncId: string;
  readonly provider: ProviderName;
  readonly completedAt: Date;
  /** The run's sync_runs.id: its catalog_version orders the feed (migration 006). */
  readonly runId: number;
}

/**
 * A provider's records (`pricing as p`) with what names them: record id, instance id and name,
 * region code. Callers join what they read beside each record and select its columns.
 */
function providerRecords(trx: Transaction<CatalogDatabase>, provider: ProviderName) {
  return trx
    .selectFrom('pricing as p')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('pv.name', '=', provider)
    .select([
      'p.id as id',
      'i.instance_id as instance_id',
      'i.instance_name as instance_name',
      'r.region_code as region_code',
    ]);
}

/** A provider's records with their on-demand prices; callers select more columns and an order. */
export function providerPrices(trx: Transaction<CatalogDatabase>, provider: ProviderName) {
  return providerRecords(trx, provider).select([
    'p.hourly_micros as hourly_micros',
    'p.monthly_micros as monthly_micros',
  ]);
}

const stateKey = (recordId: number, option: string) => `${recordId}\n${option}`;

const OPTION_RANK = new Map<PurchaseOption, number>(PURCHASE_OPTIONS.map((name, i) => [name, i]));

/**
 * Every priced state of the provider's records now: each record's on-demand price (from
 * `pricing`) and each other option it lists (from `pricing_options`), offered while the record is.
 */
async function currentStates(
  trx: Transaction<CatalogDatabase>,
  provider: ProviderName,
): Promise<CurrentRow[]> {
  const onDemand = await providerPrices(trx, provider)
    .select(['p.available as available', 'p.observed_at as observed_at'])
    .execute();
  const others = await providerRecords(trx, provider)
    .innerJoin('pricing_options as o', 'o.pricing_id', 'p.id')
    .select([
      'o.purchase_option as purchase_option',
      'o.hourly_micros as hourly_micros',
      'o.monthly_micros as monthly_micros',
      'p.available as available',
      'o.observed_at as observed_at',
    ])
    .execute();
  const rows: CurrentRow[] = onDemand.map((row) => ({ ...row, purchase_option: 'on_demand' }));
  for (const row of others) {
    if (!isPurchaseOption(row.purchase_option)) {
      throw new Error(`unknown purchase option in catalogue: ${row.purchase_option}`);
    }
    rows.push({ ...row, purchase_option: row.purchase_option });
  }
  return rows;
}

/**
 * Records what the just-applied catalogue changed, in `trx`, and returns the feed items it
 * stored (ordered by record id). Call it after the catalogue's rows are written.
 */
export async function recordPriceChanges(
  trx: Transaction<CatalogDatabase>,
  run: HistoryRun,
): Promise<readonly PriceChange[]> {
  const at = epochMs(run.completedAt, 'completedAt');
  const current = await currentStates(trx, run.provider);
  const open = await providerRecords(trx, run.provider)
    .innerJoin('price_history as h', 'h.pricing_id', 'p.id')
    .where('h.valid_to', 'is', null)
    .select([
      'h.id as period_id',
      'h.purchase_option as purchase_option',
      'h.hourly_micros as hourly_micros',
      'h.monthly_micros as monthly_micros',
      'h.available as available',
      'h.observed_at as observed_at',
    ])
    .execute();
  const openByKey = new Map(open.map((row) => [stateKey(row.id, row.purchase_option), row]));
  // An option with an open period that the record no longer lists: not offered now, at its last
  // price (on-demand always has its row in `pricing`).
  const listed = new Set(current.map((row) => stateKey(row.id, row.purchase_option)));
  for (const period of open) {
    if (listed.has(stateKey(period.id, period.purchase_option))) continue;
    if (!isPurchaseOption(period.purchase_option)) {
      throw new Error(`unknown purchase option in the price history: ${period.purchase_option}`);
    }
    current.push({ ...period, purchase_option: period.purchase_option, available: 0 });
  }
  current.sort(
    (a, b) =>
      a.id - b.id || OPTION_RANK.get(a.purchase_option)! - OPTION_RANK.get(b.purchase_option)!,
  );

  const closing: number[] = [];
  const opened: CurrentRow[] = [];
  const changed: { row: CurrentRow; change: Omit<PriceChange, 'id' | 'at' | 'syncId'> }[] = [];
  for (const row of current) {
    const period = openByKey.get(stateKey(row.id, row.purchase_option));
    const before = period === undefined ? undefined : state(period);
    const after = state(row);
    const kind = classifyChange(before, after);
    // A period with different prices but no visible change (a record that stays unavailable)
    // is left alone: history records what was offered.
    if (kind === undefined) continue;
    if (period !== undefined) closing.push(period.period_id);
    opened.push(row);
    changed.push({
      row,
      change: {
        kind,
        purchaseOption: row.purchase_option,
        instance: {
          id: row.id,
          provider: run.provider,
          regionCode: row.region_code,
          instanceId: row.instance_id,
          instanceName: row.instance_name,
        },
        ...changeSides(kind, before, after),
      },
    });
  }

  for (const ids of chunks(closing, CHUNK)) {
    await trx.updateTable('price_history').set({ valid_to: at }).where('id', 'in', ids).execute();
  }
  for (const rows of chunks(opened, CHUNK)) {
    await trx
      .insertInto('price_history')
      .values(
        rows.map((row) => ({
          pricing_id: row.id,
          sync_id: run.syncId,
          valid_from: at,
          valid_to: null,
          hourly_micros: row.hourly_micros,
          monthly_micros: row.monthly_micros,
          available: row.available,
          observed_at: row.observed_at,
          purchase_option: row.purchase_option,
        })),
      )
      .execute();
  }
  const stored: PriceChange[] = [];
  for (const part of chunks(changed, CHUNK)) {
    const ids = await trx
      .insertInto('price_changes')
      .values(
        part.map(({ row, change }) => ({
          sync_id: run.syncId,
          provider: run.provider,
          region_code: row.region_code,
          at,
          pricing_id: row.id,
          kind: change.kind,
          old_hourly_micros: change.old?.hourlyMicros ?? null,
          old_monthly_micros: change.old?.monthlyMicros ?? null,
          new_hourly_micros: change.new?.hourlyMicros ?? null,
          new_monthly_micros: change.new?.monthlyMicros ?? null,
          run_id: run.runId,
          purchase_option: row.purchase_option,
        })),
      )
      .returning(['id', 'pricing_id', 'purchase_option'])
      .execute();
    // Matched by record and option, not by position: RETURNING's order is not promised.
    const idByKey = new Map(ids.map((r) => [stateKey(r.pricing_id, r.purchase_option), r.id]));
    for (const { row, change } of part) {
      const id = idByKey.get(stateKey(row.id, row.purchase_option));
      if (id === undefined) throw new Error(`change of record ${row.id} was not stored`);
      stored.push({ ...change, id, at: run.completedAt, syncId: run.syncId });
    }
  }
  return stored;
}

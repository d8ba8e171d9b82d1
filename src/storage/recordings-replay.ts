import type { Transaction } from 'kysely';
import { recordKey, type DatedRecording } from '../catalog/dated-recordings.js';
import type { ProviderCatalog } from '../catalog/offers.js';
import { changeSides } from '../catalog/price-change-model.js';
import type { PriceChange } from '../catalog/price-change-model.js';
import type { OtherPurchaseOption } from '../catalog/purchase-options.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { providerPrices, type HistoryRun } from './history-apply.js';
import {
  figureKey,
  recordedOptions,
  ReplayLedger,
  type CurrentFigure,
  type ReplayEvent,
} from './recordings-ledger.js';
import { epochMs } from './sync-history.js';

// A first fill's replay of a snapshot's dated recordings (D64), inside the apply transaction,
// after the catalogue's rows are written: the recordings oldest first, then the catalogue itself
// as the newest recording (at its data source's observed_at). Each change opens a price period
// and writes one feed item at its recording's time, so a fresh install's history and /changes
// carry the recorded dates. Computed in memory and written with multi-row INSERTs, so a year of
// weekly recordings costs a few statements, not a sync each. The history apply that follows
// (history-apply.ts) then finds every open period equal to its record and adds nothing.
//
// Purchase options (D61): the options the recordings carry (recordings-ledger.ts) get their own
// periods and feed items, tagged with the option, at their recordings' times, the catalogue's
// pricing_options being their newest recording. Options no recording carries (AWS's Reserved
// prices: its recordings are on-demand only) are left to the history apply, as before.
//
// A recording's entry for a type the catalogue does not describe (an accelerator the adapter
// leaves out, a type gone before the newest recording) is not replayed: its specs are unknown.

const CHUNK = 1000;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    out.push(items.slice(start, start + size));
  }
  return out;
}

/** Whether any record of the provider has a price period: false until its first fill's. */
export async function providerHasHistory(
  trx: Transaction<CatalogDatabase>,
  provider: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('price_history as h')
    .innerJoin('pricing as p', 'p.id', 'h.pricing_id')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('pv.name', '=', provider)
    .select('h.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The sync id a recording's periods and feed items carry: `sync_<its observed time>_<the first
 * fill's suffix>` (D21's shape), so /changes groups them per recording.
 */
export function recordingSyncId(run: HistoryRun, at: number): string {
  const suffix = run.syncId.split('_').at(-1) ?? '';
  return `sync_${at}_${suffix}`;
}

/** Replays `recordings` and the catalogue's own state; returns the feed items it stored. */
export async function replayRecordings(
  trx: Transaction<CatalogDatabase>,
  catalog: ProviderCatalog,
  recordings: readonly DatedRecording[],
  run: HistoryRun,
): Promise<readonly PriceChange[]> {
  const newest = catalog.dataSource?.observedAt;
  const last = recordings.at(-1)?.observedAt;
  if (newest === undefined || (last !== undefined && last.getTime() >= newest.getTime())) {
    throw new Error('dated recordings must be older than the catalogue they precede');
  }
  const rows = await providerPrices(trx, run.provider).execute();
  const instances = await trx
    .selectFrom('instances as i')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('pv.name', '=', run.provider)
    .select(['i.id as id', 'i.instance_id as instance_id', 'i.instance_name as instance_name'])
    .execute();
  const covered = new Set(catalog.regionCodes);
  const regions = (
    await trx
      .selectFrom('regions as r')
      .innerJoin('providers as pv', 'pv.id', 'r.provider_id')
      .where('pv.name', '=', run.provider)
      .select(['r.id as id', 'r.region_code as region_code'])
      .execute()
  ).filter((r) => covered.has(r.region_code));
  const instanceByCode = new Map(instances.map((i) => [i.instance_id, i]));
  const regionByCode = new Map(regions.map((r) => [r.region_code, r.id]));

  const options = recordedOptions(recordings);
  const ledger = new ReplayLedger(options);
  const known = (entry: { regionCode: string; instanceId: string }) =>
    instanceByCode.has(entry.instanceId) && regionByCode.has(entry.regionCode);
  for (const recording of recordings) {
    const at = epochMs(recording.observedAt, 'observedAt');
    ledger.applyRecording(recording, at, recordingSyncId(run, at), known);
  }
  // The catalogue is the newest recording, and complete: what it does not hold is gone.
  const at = epochMs(newest, 'observedAt');
  const recordIds = new Map<string, number>();
  const keyOfId = new Map<number, string>();
  const placeOf = new Map<string, { regionCode: string; instanceId: string }>();
  const figures: CurrentFigure[] = [];
  for (const row of rows) {
    const key = recordKey(row.region_code, row.instance_id);
    recordIds.set(key, Number(row.id));
    keyOfId.set(Number(row.id), key);
    placeOf.set(key, { regionCode: row.region_code, instanceId: row.instance_id });
    figures.push({
      key,
      hourlyMicros: row.hourly_micros,
      monthlyMicros: row.monthly_micros,
      observedAt: at,
    });
  }
  ledger.applyCatalogue(
    figures,
    await currentOptionFigures(trx, [...recordIds.values()], options, keyOfId),
    at,
    run.syncId,
    (key) => placeOf.get(key)!,
  );

  const where = ledger.places;
  // Records only the older recordings held: stored unavailable, at their last price.
  const updatedAt = epochMs(run.completedAt, 'completedAt');
  const gone = [...ledger.records.entries()].filter(([key]) => !recordIds.has(key));
  for (const part of chunks(gone, CHUNK)) {
    const inserted = await trx
      .insertInto('pricing')
      .values(
        part.map(([key, s]) => {
          const place = where.get(key);
          const instanceRef = instanceByCode.get(place?.instanceId ?? '')?.id;
          const regionId = regionByCode.get(place?.regionCode ?? '');
          if (instanceRef === undefined || regionId === undefined) {
            throw new Error(`replayed record ${key} has no instance or region`);
          }
          return {
            instance_ref: instanceRef,
            region_id: regionId,
            hourly_micros: s.hourlyMicros,
            monthly_micros: s.monthlyMicros,
            available: 0,
            updated_at: updatedAt,
            observed_at: s.listedAt,
          };
        }),
      )
      .returning(['id', 'instance_ref', 'region_id'])
      .execute();
    const byPlace = new Map(inserted.map((r) => [`${r.instance_ref} ${r.region_id}`, r.id]));
    for (const [key] of part) {
      const place = where.get(key);
      const id = byPlace.get(
        `${instanceByCode.get(place?.instanceId ?? '')?.id} ${regionByCode.get(place?.regionCode ?? '')}`,
      );
      if (id === undefined) throw new Error(`replayed record ${key} was not stored`);
      recordIds.set(key, Number(id));
    }
  }

  const recordOf = (key: string): number => {
    const id = recordIds.get(key);
    if (id === undefined) throw new Error(`replayed record ${key} has no id`);
    return id;
  };
  const events = ledger.events;
  const nextAt = new Map<ReplayEvent, number>();
  const latest = new Map<string, ReplayEvent>();
  for (const event of events) {
    const figure = figureKey(event.key, event.option);
    const previous = latest.get(figure);
    if (previous !== undefined) nextAt.set(previous, event.at);
    latest.set(figure, event);
  }
  for (const part of chunks(events, CHUNK)) {
    await trx
      .insertInto('price_history')
      .values(
        part.map((e) => ({
          pricing_id: recordOf(e.key),
          sync_id: e.syncId,
          valid_from: e.at,
          valid_to: nextAt.get(e) ?? null,
          hourly_micros: e.after.hourlyMicros,
          monthly_micros: e.after.monthlyMicros,
          available: e.after.available ? 1 : 0,
          observed_at: e.after.listedAt,
          purchase_option: e.option,
        })),
      )
      .execute();
  }

  const stored: PriceChange[] = [];
  for (const part of chunks(events, CHUNK)) {
    const ids = await trx
      .insertInto('price_changes')
      .values(
        part.map((e) => {
          const sides = changeSides(e.kind, e.before, e.after);
          return {
            sync_id: e.syncId,
            provider: run.provider,
            region_code: where.get(e.key)?.regionCode ?? '',
            at: e.at,
            pricing_id: recordOf(e.key),
            kind: e.kind,
            old_hourly_micros: sides.old?.hourlyMicros ?? null,
            old_monthly_micros: sides.old?.monthlyMicros ?? null,
            new_hourly_micros: sides.new?.hourlyMicros ?? null,
            new_monthly_micros: sides.new?.monthlyMicros ?? null,
            run_id: run.runId,
            purchase_option: e.option,
          };
        }),
      )
      .returning(['id', 'pricing_id', 'at', 'purchase_option'])
      .execute();
    // Matched by record, option and time (one item per figure per recording), not by position.
    const idOf = new Map(ids.map((r) => [`${r.pricing_id} ${r.at} ${r.purchase_option}`, r.id]));
    for (const e of part) {
      const pricingId = recordOf(e.key);
      const id = idOf.get(`${pricingId} ${e.at} ${e.option}`);
      const place = where.get(e.key);
      const instance = instanceByCode.get(place?.instanceId ?? '');
      if (id === undefined || place === undefined || instance === undefined) {
        throw new Error(`replayed change of record ${pricingId} was not stored`);
      }
      stored.push({
        id,
        at: new Date(e.at),
        syncId: e.syncId,
        kind: e.kind,
        purchaseOption: e.option,
        instance: {
          id: pricingId,
          provider: run.provider,
          regionCode: place.regionCode,
          instanceId: place.instanceId,
          instanceName: instance.instance_name,
        },
        ...changeSides(e.kind, e.before, e.after),
      });
    }
  }
  return stored;
}

/** The catalogue's figures of the replayed options, by option, keyed by recordKey. */
async function currentOptionFigures(
  trx: Transaction<CatalogDatabase>,
  recordIds: readonly number[],
  options: ReadonlySet<OtherPurchaseOption>,
  keyOfId: ReadonlyMap<number, string>,
): Promise<Map<OtherPurchaseOption, CurrentFigure[]>> {
  const out = new Map<OtherPurchaseOption, CurrentFigure[]>();
  if (options.size === 0) return out;
  for (const ids of chunks(recordIds, CHUNK)) {
    const rows = await trx
      .selectFrom('pricing_options')
      .where('pricing_id', 'in', ids)
      .where('purchase_option', 'in', [...options])
      .select(['pricing_id', 'purchase_option', 'hourly_micros', 'monthly_micros', 'observed_at'])
      .execute();
    for (const row of rows) {
      // Selected by the names in `options`, so it is one of them.
      const name = row.purchase_option as OtherPurchaseOption;
      const key = keyOfId.get(Number(row.pricing_id));
      if (key === undefined) throw new Error(`option of record ${row.pricing_id} has no record`);
      const list = out.get(name) ?? [];
      list.push({
        key,
        hourlyMicros: row.hourly_micros,
        monthlyMicros: row.monthly_micros,
        observedAt: row.observed_at,
      });
      out.set(name, list);
    }
  }
  return out;
}

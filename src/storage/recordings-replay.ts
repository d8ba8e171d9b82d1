import type { Transaction } from 'kysely';
import { recordKey, type DatedRecording } from '../catalog/dated-recordings.js';
import type { ProviderCatalog } from '../catalog/offers.js';
import { changeSides, classifyChange } from '../catalog/price-change-model.js';
import type { PriceChange, PriceState } from '../catalog/price-change-model.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { providerPrices, type HistoryRun } from './history-apply.js';
import { epochMs } from './sync-history.js';

// A first fill's replay of a snapshot's dated recordings (D64), inside the apply transaction,
// after the catalogue's rows are written: the recordings oldest first, then the catalogue itself
// as the newest recording (at its data source's observed_at). Each change opens a price period
// and writes one feed item at its recording's time, so a fresh install's history and /changes
// carry the recorded dates. Computed in memory and written with multi-row INSERTs, so a year of
// weekly recordings costs a few statements, not a sync each. The history apply that follows
// (history-apply.ts) then finds every open period equal to its record and adds nothing.
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

interface ReplayState extends PriceState {
  /** When the record's current price was last seen listed (epoch ms). */
  readonly listedAt: number;
}

interface ReplayEvent {
  readonly key: string;
  readonly at: number;
  readonly syncId: string;
  readonly kind: NonNullable<ReturnType<typeof classifyChange>>;
  readonly before: ReplayState | undefined;
  readonly after: ReplayState;
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

  const state = new Map<string, ReplayState>();
  const where = new Map<string, { regionCode: string; instanceId: string }>();
  const events: ReplayEvent[] = [];
  const step = (key: string, after: ReplayState, at: number, syncId: string) => {
    const before = state.get(key);
    const kind = classifyChange(before, after);
    state.set(key, after);
    if (kind !== undefined) events.push({ key, at, syncId, kind, before, after });
  };

  for (const recording of recordings) {
    const at = epochMs(recording.observedAt, 'observedAt');
    const syncId = recordingSyncId(run, at);
    for (const entry of recording.listed) {
      if (!instanceByCode.has(entry.instanceId) || !regionByCode.has(entry.regionCode)) continue;
      const key = recordKey(entry.regionCode, entry.instanceId);
      where.set(key, entry);
      const { hourlyMicros, monthlyMicros } = entry;
      step(key, { hourlyMicros, monthlyMicros, available: true, listedAt: at }, at, syncId);
    }
    for (const entry of recording.delisted) {
      const key = recordKey(entry.regionCode, entry.instanceId);
      const before = state.get(key);
      if (before !== undefined) step(key, { ...before, available: false }, at, syncId);
    }
  }
  // The catalogue is the newest recording, and complete: what it does not hold is gone.
  const at = epochMs(newest, 'observedAt');
  const current = new Set<string>();
  const recordIds = new Map<string, number>();
  for (const row of rows) {
    const key = recordKey(row.region_code, row.instance_id);
    current.add(key);
    recordIds.set(key, Number(row.id));
    where.set(key, { regionCode: row.region_code, instanceId: row.instance_id });
    const prices = { hourlyMicros: row.hourly_micros, monthlyMicros: row.monthly_micros };
    step(key, { ...prices, available: true, listedAt: at }, at, run.syncId);
  }
  for (const [key, before] of [...state.entries()]) {
    if (!current.has(key) && before.available) {
      step(key, { ...before, available: false }, at, run.syncId);
    }
  }

  // Records only the older recordings held: stored unavailable, at their last price.
  const updatedAt = epochMs(run.completedAt, 'completedAt');
  const gone = [...state.entries()].filter(([key]) => !current.has(key));
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
  const nextAt = new Map<ReplayEvent, number>();
  const latest = new Map<string, ReplayEvent>();
  for (const event of events) {
    const previous = latest.get(event.key);
    if (previous !== undefined) nextAt.set(previous, event.at);
    latest.set(event.key, event);
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
          };
        }),
      )
      .returning(['id', 'pricing_id', 'at'])
      .execute();
    // Matched by record and time (one item per record per recording), not by position.
    const idOf = new Map(ids.map((r) => [`${r.pricing_id} ${r.at}`, r.id]));
    for (const e of part) {
      const pricingId = recordOf(e.key);
      const id = idOf.get(`${pricingId} ${e.at}`);
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
        // Dated recordings are of on-demand list prices (D64).
        purchaseOption: 'on_demand',
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

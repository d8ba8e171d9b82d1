import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { roundMicrosToCent } from '../catalog/money.js';
import { regionsOf } from '../catalog/model.js';
import type { InstanceOffer, ProviderCatalog } from '../sync/offer.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { upsertRegions } from './catalog-seed.js';
import type { ApplyCounts, SyncRunRecord } from './catalog-store.js';
import { epochMs, insertSyncRun } from './sync-history.js';

// Applying one provider's catalogue (D22). Everything here runs inside the one transaction the
// store opens, so a throw anywhere (ours or a constraint the database enforces) rolls it all
// back and readers never see half a catalogue.

export type ApplyRun = Omit<SyncRunRecord, 'counts' | 'success' | 'errorCode' | 'errorMessage'>;

/** What an apply would do to the provider's available records, known before it commits. */
export interface CatalogChange {
  /** Available records of the provider before the apply. */
  readonly previous: number;
  /** Of those, how many the new catalogue no longer holds (they become unavailable, D15). */
  readonly removed: number;
  /** Available records after the apply. */
  readonly remaining: number;
}

export interface ApplyOptions {
  /** Runs inside the transaction before the commit; a throw rolls the whole apply back. */
  readonly check?: (change: CatalogChange) => void;
  /**
   * Record the run's `completed_at` as the time of the transaction's last statement, after the
   * catalogue version lock and every write, rather than `run.completedAt` (issue 15 item 9).
   * `run.completedAt` stays the time of the data the apply writes: pricing `updated_at`, price
   * periods' `valid_from`/`valid_to`, change-feed `at` and the webhook events. The sync service
   * sets it; a caller recording a run at a time it chose (tests, imports) leaves it unset.
   */
  readonly completedAtCommit?: boolean;
}

/** Rows per multi-row INSERT: 12 and 7 bound values a row stay far below SQLite's 32,766. */
const INSTANCE_CHUNK = 500;
const PRICING_CHUNK = 1000;

interface ApplyPlan {
  readonly regionCodes: readonly string[];
  /** One offer per instance id (its specs), the last one given wins. */
  readonly instances: readonly InstanceOffer[];
  /** One offer per (instance id, region), the last one given wins. */
  readonly offers: readonly InstanceOffer[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

function wholeNumber(value: number, field: string, instanceId: string): number {
  if (!Number.isSafeInteger(value)) {
    throw new TypeError(`offer ${instanceId}: ${field} must be an integer, got ${String(value)}`);
  }
  return value;
}

function finiteNumber(value: number, field: string, instanceId: string): number {
  if (!Number.isFinite(value)) {
    throw new TypeError(`offer ${instanceId}: ${field} must be a finite number`);
  }
  return value;
}

/**
 * Deduplicates so one multi-row upsert never touches a row twice (PostgreSQL rejects that), and
 * holds every stored monthly price to the monthly price rule (money.ts: whole cents), whichever
 * adapter built the offer, so the catalogue never holds a price it would show differently.
 */
export function planApply(catalog: ProviderCatalog): ApplyPlan {
  const instances = new Map<string, InstanceOffer>();
  const offers = new Map<string, InstanceOffer>();
  for (const given of catalog.offers) {
    const offer =
      // Anything else is refused below (wholeNumber) or by the database's CHECK constraint.
      Number.isSafeInteger(given.monthlyMicros) &&
      given.monthlyMicros >= 0 &&
      given.monthlyMicros !== roundMicrosToCent(given.monthlyMicros)
        ? { ...given, monthlyMicros: roundMicrosToCent(given.monthlyMicros) }
        : given;
    instances.set(offer.instanceId, offer);
    offers.set(JSON.stringify([offer.instanceId, offer.regionCode]), offer);
  }
  const regionCodes = new Set([...catalog.regionCodes, ...catalog.offers.map((o) => o.regionCode)]);
  return {
    regionCodes: [...regionCodes],
    instances: [...instances.values()],
    offers: [...offers.values()],
  };
}

async function upsertInstances(
  trx: Transaction<CatalogDatabase>,
  providerId: number,
  instances: readonly InstanceOffer[],
): Promise<void> {
  for (const chunk of chunks(instances, INSTANCE_CHUNK)) {
    const rows = chunk.map((o) => ({
      provider_id: providerId,
      instance_id: o.instanceId,
      instance_name: o.instanceName,
      vcpu: wholeNumber(o.vcpu, 'vcpu', o.instanceId),
      memory_mb: wholeNumber(o.memoryMb, 'memoryMb', o.instanceId),
      storage_gb: wholeNumber(o.storageGb, 'storageGb', o.instanceId),
      transfer_tb: finiteNumber(o.transferTb, 'transferTb', o.instanceId),
      network_speed_gbps: finiteNumber(o.networkSpeedGbps, 'networkSpeedGbps', o.instanceId),
      gpu_count: wholeNumber(o.gpuCount, 'gpuCount', o.instanceId),
      gpu_type: o.gpuType,
      instance_family: o.family,
    }));
    await trx
      .insertInto('instances')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['provider_id', 'instance_id']).doUpdateSet((eb) => ({
          instance_name: eb.ref('excluded.instance_name'),
          vcpu: eb.ref('excluded.vcpu'),
          memory_mb: eb.ref('excluded.memory_mb'),
          storage_gb: eb.ref('excluded.storage_gb'),
          transfer_tb: eb.ref('excluded.transfer_tb'),
          network_speed_gbps: eb.ref('excluded.network_speed_gbps'),
          gpu_count: eb.ref('excluded.gpu_count'),
          gpu_type: eb.ref('excluded.gpu_type'),
          instance_family: eb.ref('excluded.instance_family'),
        })),
      )
      .execute();
  }
}

async function upsertPricing(
  trx: Transaction<CatalogDatabase>,
  providerId: number,
  offers: readonly InstanceOffer[],
  updatedAt: number,
  observedAt: number,
): Promise<Set<number>> {
  const stored = new Set<number>();
  const instanceRefs = new Map<string, number>();
  const instanceRows = await trx
    .selectFrom('instances')
    .select(['id', 'instance_id'])
    .where('provider_id', '=', providerId)
    .execute();
  for (const row of instanceRows) instanceRefs.set(row.instance_id, row.id);
  const regionIds = new Map<string, number>();
  const regionRows = await trx
    .selectFrom('regions')
    .select(['id', 'region_code'])
    .where('provider_id', '=', providerId)
    .execute();
  for (const row of regionRows) regionIds.set(row.region_code, row.id);

  for (const chunk of chunks(offers, PRICING_CHUNK)) {
    const rows = chunk.map((o) => {
      const instanceRef = instanceRefs.get(o.instanceId);
      const regionId = regionIds.get(o.regionCode);
      if (instanceRef === undefined) throw new Error(`offer ${o.instanceId}: instance not stored`);
      if (regionId === undefined) {
        throw new Error(
          `offer ${o.instanceId}: unknown region code ${JSON.stringify(o.regionCode)}`,
        );
      }
      return {
        instance_ref: instanceRef,
        region_id: regionId,
        hourly_micros: wholeNumber(o.hourlyMicros, 'hourlyMicros', o.instanceId),
        monthly_micros: wholeNumber(o.monthlyMicros, 'monthlyMicros', o.instanceId),
        available: 1,
        updated_at: updatedAt,
        observed_at: observedAt,
      };
    });
    await trx
      .insertInto('pricing')
      .values(rows)
      .onConflict((oc) =>
        oc.columns(['instance_ref', 'region_id']).doUpdateSet((eb) => ({
          hourly_micros: eb.ref('excluded.hourly_micros'),
          monthly_micros: eb.ref('excluded.monthly_micros'),
          available: eb.ref('excluded.available'),
          updated_at: eb.ref('excluded.updated_at'),
          observed_at: eb.ref('excluded.observed_at'),
        })),
      )
      .returning('id')
      .execute()
      .then((rows) => {
        for (const row of rows) stored.add(Number(row.id));
      });
  }
  return stored;
}

/**
 * The apply's last write. Its row lock is held until COMMIT, so a concurrent apply waits here for
 * this one to commit and then reads the bumped value: versions follow commit order (issue 15).
 * Kept last so that applies of different providers overlap everywhere else.
 */
async function bumpCatalogVersion(trx: Transaction<CatalogDatabase>): Promise<void> {
  await trx
    .updateTable('catalog_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/**
 * Replaces the provider's catalogue inside `trx` and appends the successful run. Call it in a
 * transaction that covers nothing else.
 */
export async function applyCatalogInTransaction(
  trx: Transaction<CatalogDatabase>,
  catalog: ProviderCatalog,
  run: ApplyRun,
  options: ApplyOptions = {},
): Promise<ApplyCounts> {
  if (run.provider !== catalog.provider) {
    throw new Error('sync run and catalogue name different providers');
  }
  const plan = planApply(catalog);
  const updatedAt = epochMs(run.completedAt, 'completedAt');
  // D37: when the prices were observed upstream; a catalogue without provenance was fetched
  // by this run.
  const observedAt = epochMs(catalog.dataSource?.observedAt ?? run.startedAt, 'observedAt');

  // Mark everything unavailable, then the upserts below mark what the catalogue holds available
  // again: what is left at 0 vanished upstream (D15). Being a write, this first statement also
  // takes SQLite's write lock at once (its BEGIN is deferred; a read first could not upgrade).
  const wasAvailable = await trx
    .updateTable('pricing')
    .set({ available: 0, updated_at: updatedAt })
    .where('available', '=', sql.lit(1))
    .where('instance_ref', 'in', (eb) =>
      eb
        .selectFrom('instances as i')
        .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
        .select('i.id')
        .where('pv.name', '=', catalog.provider),
    )
    .returning('id')
    .execute();

  const provider = await trx
    .selectFrom('providers')
    .select('id')
    .where('name', '=', catalog.provider)
    .executeTakeFirst();
  if (provider === undefined) {
    throw new Error(`provider ${catalog.provider} is not seeded; run migrate() first`);
  }

  // A code outside the specification's table for this provider (section 4.5) is an error.
  const known = regionsOf(catalog.provider).filter((r) => plan.regionCodes.includes(r.regionCode));
  if (known.length !== plan.regionCodes.length) {
    const unknown = plan.regionCodes.filter((code) => !known.some((r) => r.regionCode === code));
    throw new Error(`unknown region codes for ${catalog.provider}: ${JSON.stringify(unknown)}`);
  }
  await upsertRegions(trx, provider.id, known);
  await upsertInstances(trx, provider.id, plan.instances);
  const nowAvailable = await upsertPricing(trx, provider.id, plan.offers, updatedAt, observedAt);
  // Before anything commits: the caller may refuse a change (a provider emptied or halved).
  options.check?.({
    previous: wasAvailable.length,
    removed: wasAvailable.filter((row) => !nowAvailable.has(Number(row.id))).length,
    remaining: nowAvailable.size,
  });

  const counts: ApplyCounts = {
    regions: plan.regionCodes.length,
    instances: plan.instances.length,
    pricing: plan.offers.length,
  };
  await insertSyncRun(trx, {
    ...run,
    success: true,
    counts,
    errorCode: null,
    errorMessage: null,
    dataSource: catalog.dataSource ?? null,
  });
  await bumpCatalogVersion(trx);
  return counts;
}

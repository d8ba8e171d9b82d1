import { sql } from 'kysely';
import type { Transaction } from 'kysely';
import { roundMicrosToCent } from '../catalog/money.js';
import { regionsOf } from '../catalog/model.js';
import type { InstanceOffer, ProviderCatalog } from '../catalog/offers.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { upsertRegions } from './catalog-seed.js';
import type { ApplyCounts, ApplyOptions, ApplyRun } from './catalog-store.js';
import { upsertInstances, upsertPricing } from './catalog-upserts.js';
import { heldRecords, notHeld } from './held-records.js';
import { replaceOptions } from './option-upserts.js';
import { recordPriceChanges } from './history-apply.js';
import { providerHasHistory, replayRecordings } from './recordings-replay.js';
import { epochMs, insertSyncRun } from './sync-history.js';
import { enqueueCompletedSync } from './webhook-enqueue.js';

// Applying one provider's catalogue (D22). Everything here runs inside the one transaction the
// store opens, so a throw anywhere (ours or a constraint the database enforces) rolls it all
// back and readers never see half a catalogue.
//
// Region by region (issue 22 item 1): the records of a region the catalogue covers are replaced
// by its offers, those of a region it names as gone are removed, and those of any other region
// are left exactly as they were. A region whose upstream record failed to parse is in neither
// list, so a malformed record never removes a region's records. Within a covered region, the
// records of an entry that failed validation but named its type are held as they were
// (held-records.ts): only what the upstream no longer lists is removed.

interface ApplyPlan {
  readonly regionCodes: readonly string[];
  /** One offer per instance id (its specs), the last one given wins. */
  readonly instances: readonly InstanceOffer[];
  /** One offer per (instance id, region), the last one given wins. */
  readonly offers: readonly InstanceOffer[];
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

/** Codes outside the specification's table for this provider (section 4.5) are an error. */
function checkRegionCodes(catalog: ProviderCatalog, codes: readonly string[]): void {
  const ours = new Set(regionsOf(catalog.provider).map((r) => r.regionCode));
  const unknown = codes.filter((code) => !ours.has(code));
  if (unknown.length > 0) {
    throw new Error(`unknown region codes for ${catalog.provider}: ${JSON.stringify(unknown)}`);
  }
}

function countBy<T>(items: readonly T[], key: (item: T) => number): Map<number, number> {
  const counts = new Map<number, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/**
 * The catalogue part of an apply: replaces the provider's records region by region, runs the
 * caller's check and appends the successful run. Returns the counts and the run's row id.
 */
export async function applyCatalogInTransaction(
  trx: Transaction<CatalogDatabase>,
  catalog: ProviderCatalog,
  run: ApplyRun,
  options: ApplyOptions = {},
): Promise<{ readonly counts: ApplyCounts; readonly runId: number }> {
  if (run.provider !== catalog.provider) {
    throw new Error('sync run and catalogue name different providers');
  }
  const plan = planApply(catalog);
  const gone = (catalog.goneRegionCodes ?? []).filter((code) => !plan.regionCodes.includes(code));
  const scope = [...plan.regionCodes, ...gone];
  checkRegionCodes(catalog, scope);
  const updatedAt = epochMs(run.completedAt, 'completedAt');
  // D37: when the prices were observed upstream; a catalogue without provenance was fetched
  // by this run.
  const observedAt = epochMs(catalog.dataSource?.observedAt ?? run.startedAt, 'observedAt');
  const held = heldRecords(catalog, plan.offers);

  // Mark everything in the covered and gone regions unavailable, then the upserts below mark
  // what the catalogue holds available again: what is left at 0 vanished upstream (D15). Being
  // a write, this first statement also takes SQLite's write lock at once (its BEGIN is
  // deferred; a read first could not upgrade), even when it matches no row.
  const wasAvailable = await trx
    .updateTable('pricing')
    .set({ available: 0, updated_at: updatedAt })
    .where('available', '=', sql.lit(1))
    .where((eb) => notHeld(eb, catalog.provider, held))
    .where((eb) =>
      scope.length === 0
        ? sql<boolean>`1 = 0`
        : eb(
            'region_id',
            'in',
            eb
              .selectFrom('regions as r')
              .innerJoin('providers as pv', 'pv.id', 'r.provider_id')
              .select('r.id')
              .where('pv.name', '=', catalog.provider)
              .where('r.region_code', 'in', scope),
          ),
    )
    .returning(['id', 'region_id'])
    .execute();

  const provider = await trx
    .selectFrom('providers')
    .select('id')
    .where('name', '=', catalog.provider)
    .executeTakeFirst();
  if (provider === undefined) {
    throw new Error(`provider ${catalog.provider} is not seeded; run migrate() first`);
  }
  // The provider's records in the regions left alone, and its held ones: still available,
  // untouched.
  const kept = await trx
    .selectFrom('pricing as p')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .where('r.provider_id', '=', provider.id)
    .where('p.available', '=', sql.lit(1))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();

  const covered = regionsOf(catalog.provider).filter((r) =>
    plan.regionCodes.includes(r.regionCode),
  );
  await upsertRegions(trx, provider.id, covered);
  await upsertInstances(trx, provider.id, plan.instances);
  const nowAvailable = await upsertPricing(trx, provider.id, plan.offers, updatedAt, observedAt);
  await replaceOptions(trx, provider.id, plan.offers, catalog.keptOptions ?? [], observedAt);

  const before = countBy(wasAvailable, (row) => row.region_id);
  const after = countBy(nowAvailable, (row) => row.regionId);
  const emptiedIds = [...before.keys()].filter((regionId) => !after.has(regionId));
  const emptiedRegions =
    emptiedIds.length === 0
      ? []
      : (
          await trx
            .selectFrom('regions')
            .select('region_code')
            .where('id', 'in', emptiedIds)
            .orderBy('region_code')
            .execute()
        ).map((row) => row.region_code);
  const stillAvailable = new Set(nowAvailable.map((row) => row.id));
  // Before anything commits: the caller may refuse a change (a provider or a region emptied).
  options.check?.({
    previous: wasAvailable.length + Number(kept.n),
    removed: wasAvailable.filter((row) => !stillAvailable.has(Number(row.id))).length,
    remaining: nowAvailable.length + Number(kept.n),
    emptiedRegions,
  });

  const counts: ApplyCounts = {
    regions: plan.regionCodes.length,
    instances: plan.instances.length,
    pricing: plan.offers.length,
  };
  const runId = await insertSyncRun(trx, {
    ...run,
    success: true,
    counts,
    errorCode: null,
    errorMessage: null,
    dataSource: catalog.dataSource ?? null,
  });
  return { counts, runId };
}

/**
 * The apply's last writes: the catalogue version bump and the run's record of the version it
 * got. The bump's row lock is held until COMMIT, so a concurrent apply waits there for this one
 * to commit and then reads the bumped value: versions follow commit order (issue 15). Being
 * last, the lock is held only for these two one-row statements and the commit, so applies of
 * different providers overlap in everything else (issue 22 item 3).
 */
async function commitCatalogVersion(
  trx: Transaction<CatalogDatabase>,
  runId: number,
): Promise<void> {
  const bumped = await trx
    .updateTable('catalog_version')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .returning('version')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('sync_runs')
    .set({ catalog_version: bumped.version })
    .where('id', '=', runId)
    .execute();
}

/**
 * One whole apply inside `trx` (a transaction that covers nothing else): the catalogue, the
 * successful run, the history of what it changed (D38) and the webhook deliveries announcing it
 * (D42), all committing or rolling back together, and the version bump last.
 */
export async function applyProviderCatalogInTransaction(
  trx: Transaction<CatalogDatabase>,
  catalog: ProviderCatalog,
  run: ApplyRun,
  options: ApplyOptions = {},
): Promise<ApplyCounts> {
  options.held?.throwIfAborted();
  const { counts, runId } = await applyCatalogInTransaction(trx, catalog, run, options);
  options.held?.throwIfAborted();
  // D64: dated recordings are replayed only by the provider's first fill: no history yet. (Read
  // after the apply's first write: SQLite's deferred transaction must write before it reads.)
  const recordings = catalog.recordings ?? [];
  const replay = recordings.length > 0 && !(await providerHasHistory(trx, catalog.provider));
  const replayed = replay
    ? await replayRecordings(trx, catalog, recordings, { ...run, runId })
    : [];
  const changes = [...replayed, ...(await recordPriceChanges(trx, { ...run, runId }))];
  await enqueueCompletedSync(trx, { ...run, counts, changes });
  options.held?.throwIfAborted();
  await commitCatalogVersion(trx, runId);
  return counts;
}

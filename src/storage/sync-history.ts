import { sql } from 'kysely';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { PROVIDER_NAMES, isProviderName } from '../catalog/model.js';
import type { ProviderName } from '../catalog/model.js';
import type { CatalogDatabase, SyncRunsTable } from './catalog-schema.js';
import type { DataSource } from '../catalog/offers.js';
import type { ProviderSyncState, RecordedRun, SyncRunRecord } from './catalog-store.js';

// The sync history (sync_runs) and what /health derives from it (D19, D32).

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

/** Epoch milliseconds of a valid Date; an invalid one must not become a NULL or NaN row. */
export function epochMs(date: Date, name: string): number {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid date`);
  return ms;
}

/** Appends the run and returns its row id. */
export async function insertSyncRun(db: Executor, run: SyncRunRecord): Promise<number> {
  const row = await db
    .insertInto('sync_runs')
    .values({
      sync_id: run.syncId,
      provider: run.provider,
      started_at: epochMs(run.startedAt, 'startedAt'),
      completed_at: epochMs(run.completedAt, 'completedAt'),
      success: run.success ? 1 : 0,
      regions_synced: run.counts.regions,
      instances_synced: run.counts.instances,
      pricing_synced: run.counts.pricing,
      error_code: run.errorCode,
      error_message: run.errorMessage,
      source_kind: run.dataSource?.kind ?? null,
      source_observed_at:
        run.dataSource == null ? null : epochMs(run.dataSource.observedAt, 'observedAt'),
      source_text: run.dataSource?.source ?? null,
      skipped_records: run.skippedRecords ?? 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The provider's most recently recorded run (highest id), or null before its first. */
export async function selectLatestRecordedRun(
  db: Executor,
  provider: ProviderName,
): Promise<RecordedRun | null> {
  const row = await db
    .selectFrom('sync_runs')
    .selectAll()
    .where('provider', '=', provider)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : { id: Number(row.id), run: toSyncRunRecord(row) };
}

function toSyncRunRecord(row: Selectable<SyncRunsTable>): SyncRunRecord {
  if (!isProviderName(row.provider)) throw new Error(`unknown provider in sync history`);
  return {
    syncId: row.sync_id,
    provider: row.provider,
    startedAt: new Date(row.started_at),
    completedAt: new Date(row.completed_at),
    success: row.success === 1,
    counts: {
      regions: row.regions_synced,
      instances: row.instances_synced,
      pricing: row.pricing_synced,
    },
    errorCode: row.error_code,
    errorMessage: row.error_message,
    dataSource: toDataSource(row),
    // Absent means 0, as SyncRunRecord documents: runs that skipped nothing read as before.
    ...(Number(row.skipped_records) > 0 ? { skippedRecords: Number(row.skipped_records) } : {}),
  };
}

function toDataSource(row: Selectable<SyncRunsTable>): DataSource | null {
  const kind = row.source_kind;
  if ((kind !== 'snapshot' && kind !== 'live') || row.source_observed_at === null) return null;
  return {
    kind,
    observedAt: new Date(Number(row.source_observed_at)),
    source: row.source_text ?? '',
  };
}

/** The newest successful run's provenance (D37), or null. */
async function latestSource(db: Executor, provider: ProviderName): Promise<DataSource | null> {
  const row = await db
    .selectFrom('sync_runs')
    .selectAll()
    .where('provider', '=', provider)
    .where('success', '=', 1)
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : toDataSource(row);
}

async function latestRun(db: Executor, provider: ProviderName): Promise<SyncRunRecord | null> {
  const row = await db
    .selectFrom('sync_runs')
    .selectAll()
    .where('provider', '=', provider)
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : toSyncRunRecord(row);
}

/** Per provider, in PROVIDER_NAMES order. Run it in a snapshot so the parts agree. */
export async function selectProviderStates(db: Executor): Promise<readonly ProviderSyncState[]> {
  const successes = await db
    .selectFrom('sync_runs')
    .where('success', '=', 1)
    .groupBy('provider')
    .select((eb) => ['provider', eb.fn.max('completed_at').as('last_success')])
    .execute();
  const counts = await db
    .selectFrom('pricing as p')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('p.available', '=', sql.lit(1))
    .groupBy('pv.name')
    .select((eb) => [
      'pv.name as provider',
      eb.fn.countAll<number>().as('records'),
      eb.fn.count<number>('p.region_id').distinct().as('regions'),
    ])
    .execute();
  const states: ProviderSyncState[] = [];
  for (const provider of PROVIDER_NAMES) {
    const lastSuccess = successes.find((row) => row.provider === provider)?.last_success;
    const count = counts.find((row) => row.provider === provider);
    states.push({
      provider,
      lastSuccessAt: lastSuccess === undefined ? null : new Date(lastSuccess),
      latestRun: await latestRun(db, provider),
      dataSource: await latestSource(db, provider),
      regionsCount: count?.regions ?? 0,
      instancesCount: count?.records ?? 0,
    });
  }
  return states;
}

/** Newest successful sync of any provider (D19), or null before the first one. */
export async function selectLastSuccessfulSync(db: Executor): Promise<Date | null> {
  const row = await db
    .selectFrom('sync_runs')
    .where('success', '=', 1)
    .where('provider', 'in', [...PROVIDER_NAMES])
    .select((eb) => eb.fn.max('completed_at').as('last_success'))
    .executeTakeFirst();
  const last = row?.last_success;
  return last === undefined || last === null ? null : new Date(last);
}

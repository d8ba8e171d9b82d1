// Reads the catalogue straight from a SQLite file, beside (or after) the app that writes it, so
// sync tests check what is stored, available = 0 rows included, not what an endpoint shows.
import type Database from 'better-sqlite3';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import type { ProviderName } from '../../src/catalog/model.js';

/** One pricing record as stored: an instance type in a region. */
export interface StoredPricing {
  readonly instanceId: string;
  readonly regionCode: string;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly available: number;
  /** Epoch ms of the sync run that last wrote the row. */
  readonly updatedAt: number;
}

const PRICING_SQL = `
  select i.instance_id as instanceId, r.region_code as regionCode,
         p.hourly_micros as hourlyMicros, p.monthly_micros as monthlyMicros,
         p.available as available, p.updated_at as updatedAt
  from pricing p
  join instances i on i.id = p.instance_ref
  join regions r on r.id = p.region_id
  join providers pv on pv.id = i.provider_id
  where pv.name = ?
  order by i.instance_id, r.region_code`;

function withDatabase<T>(file: string, read: (db: Database.Database) => T): T {
  // Not read-only: opening read-write lets SQLite recover a hot journal or WAL left by a kill.
  const db = openSqlite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return read(db);
  } finally {
    db.close();
  }
}

/** Every pricing row of `provider`, ordered by instance id then region code. */
export function readPricing(file: string, provider: ProviderName): StoredPricing[] {
  return withDatabase(file, (db) => db.prepare(PRICING_SQL).all(provider) as StoredPricing[]);
}

/** Every provider's rows, keyed by provider name. */
export function readAllPricing(file: string): Record<ProviderName, StoredPricing[]> {
  return {
    provider_a: readPricing(file, 'provider_a'),
    provider_b: readPricing(file, 'provider_b'),
    provider_c: readPricing(file, 'provider_c'),
  };
}

/** `PRAGMA integrity_check` rows; `['ok']` for a sound file. */
export function integrityCheck(file: string): string[] {
  return withDatabase(file, (db) =>
    (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check),
  );
}

/** Number of rows in sync_runs for `provider`. */
export function countSyncRuns(file: string, provider: ProviderName): number {
  return withDatabase(
    file,
    (db) =>
      (
        db.prepare('select count(*) as n from sync_runs where provider = ?').get(provider) as {
          n: number;
        }
      ).n,
  );
}

/** A row as a comparable key: (instance, region, prices, available). */
export function pricingKey(row: StoredPricing): string {
  return JSON.stringify([
    row.instanceId,
    row.regionCode,
    row.hourlyMicros,
    row.monthlyMicros,
    row.available,
  ]);
}

import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { PROVIDER_NAMES } from '../../catalog/model.js';
import type { CatalogDatabase } from '../catalog-schema.js';
import type { CatalogStore } from '../catalog-store.js';
import { resolveDisplayNames } from '../catalog-store-options.js';
import type { CatalogStoreOptions } from '../catalog-store-options.js';
import type { DialectCapabilities } from '../dialect-capabilities.js';
import { KyselyCatalogStore } from '../kysely-catalog-store.js';
import { AdvisoryProviderLock } from './postgres-advisory-lock.js';
import { CurrentSchemaPostgresDialect } from './current-schema-dialect.js';

export const postgresCapabilities: DialectCapabilities = {
  autoIncrementPrimaryKey: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  // "C" compares bytes; UTF-8 byte order is code-point order, whatever the database locale.
  codePointCollation: (column) => column.modifyFront(sql`collate "C"`),
  snapshotTransaction: (db) =>
    db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only'),
  migrationTableSchema: async (db) => {
    const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
      db,
    );
    const schema = result.rows[0]?.schema;
    if (schema === undefined || schema === null) {
      throw new Error('no current schema: the search_path names no existing schema');
    }
    return schema;
  },
  lockSkippingLocked: (query) => query.forUpdate().skipLocked(),
};

/**
 * bigint (money in micros, epoch ms, COUNT(*)) as a JS number: every such value we store is
 * below 2^53; one that is not is refused rather than rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`bigint ${text} exceeds 2^53`);
  return value;
}

type TypeParser = (value: string) => unknown;

/** Per pool, not pg's global registry, so nothing else in the process changes behaviour. */
const typeParsers: pg.CustomTypesConfig = {
  getTypeParser: (oid, format): TypeParser =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? parseInt8
      : (pg.types.getTypeParser(oid, format) as TypeParser),
};

/**
 * A catalogue in the PostgreSQL database at `connectionString`. Tables live in the connection's
 * current schema, so `?options=-c%20search_path%3D<schema>` places them elsewhere.
 */
/** Longest a single statement may run; a sync's apply is many short batched statements. */
export const QUERY_TIMEOUT_MS = 10_000;

export function openPostgresCatalogStore(
  connectionString: string,
  options: CatalogStoreOptions = {},
): CatalogStore {
  const onError = (error: Error) => options.onBackgroundError?.(error);
  const base: pg.PoolConfig = {
    connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    types: typeParsers,
  };
  // A server that stops answering must not hang requests: queries give up after
  // QUERY_TIMEOUT_MS on both sides, and keepalive notices a vanished server. The lock pool has
  // no statement timeout, because waiting for another replica is its purpose: for its sync of a
  // provider, and at start-up for its migrations (two replicas starting together on a loaded
  // host: the second waits under the migrator's lock for as long as the first one migrates).
  const pool = new pg.Pool({
    ...base,
    max: options.maxConnections ?? 10,
    keepAlive: true,
    query_timeout: QUERY_TIMEOUT_MS,
    statement_timeout: QUERY_TIMEOUT_MS,
  });
  const lockPool = new pg.Pool({ ...base, max: PROVIDER_NAMES.length, keepAlive: true });
  // Without a listener an idle connection's error (a server restart) would crash the process.
  pool.on('error', onError);
  lockPool.on('error', onError);
  // The pool listens only to idle clients; a connection that drops while checked out (inside a
  // query or a transaction) emits 'error' on the client, which must be heard too. The query in
  // flight still rejects, and the pool discards the broken client on release.
  for (const p of [pool, lockPool]) {
    p.on('connect', (client) => {
      client.on('error', onError);
      options.onConnected?.();
    });
  }
  return new KyselyCatalogStore({
    db: new Kysely<CatalogDatabase>({ dialect: new CurrentSchemaPostgresDialect({ pool }) }),
    // Never destroyed: closeExtra ends its pool. Migrations run before any sync takes a lock.
    migrationDb: new Kysely<CatalogDatabase>({
      dialect: new CurrentSchemaPostgresDialect({ pool: lockPool }),
    }),
    capabilities: postgresCapabilities,
    displayNames: resolveDisplayNames(options),
    providerLock: new AdvisoryProviderLock(lockPool),
    closeExtra: async () => {
      if (!pool.ending) await pool.end();
      await lockPool.end();
    },
  });
}

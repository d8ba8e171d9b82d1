import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openSqlite } from './open-sqlite.js';
import { Kysely, SqliteDialect } from 'kysely';
import type { CatalogDatabase } from '../catalog-schema.js';
import type { CatalogStore } from '../catalog-store.js';
import { resolveDisplayNames } from '../catalog-store-options.js';
import type { CatalogStoreOptions } from '../catalog-store-options.js';
import type { DialectCapabilities } from '../dialect-capabilities.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { KyselyCatalogStore } from '../kysely-catalog-store.js';
import { SqliteProviderLock } from './sqlite-provider-lock.js';
import { withStatementCache } from './statement-cache.js';

/** How long a statement waits for another process's write lock before failing, in ms. */
const BUSY_TIMEOUT_MS = 5_000;

export const sqliteCapabilities: DialectCapabilities = {
  autoIncrementPrimaryKey: (column) => column.primaryKey().autoIncrement(),
  // SQLite's default BINARY collation compares UTF-8 bytes, which is code-point order.
  codePointCollation: (column) => column,
  // In WAL mode a transaction reads one snapshot from its first read until it ends.
  snapshotTransaction: (db) => db.transaction(),
  migrationTableSchema: () => Promise.resolve(undefined),
  // One writer at a time: an UPDATE ... WHERE id IN (SELECT ...) claims atomically.
  lockSkippingLocked: (query) => query,
};

/**
 * The database holds webhook secrets: its directory is created 0700 and the file itself 0600
 * before SQLite opens it, because SQLite creates a missing file 0644 (less the umask) and gives
 * the -wal and -shm files the database file's mode. An existing file keeps the mode it has.
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
}

/**
 * In-process side of the provider locks of every SQLite store in this process, keyed by
 * database file, so two stores on one file wait in the process before the lease row does the
 * rest across processes (sqlite-provider-lock.ts).
 */
const fileLocks = new KeyedMutex();

/**
 * A catalogue in the SQLite file at `path` (created with its directory when missing), or in
 * memory for `:memory:`.
 */
export function openSqliteCatalogStore(
  path: string,
  options: CatalogStoreOptions = {},
): CatalogStore {
  const inMemory = path === ':memory:';
  if (!inMemory) createPrivately(resolve(path));
  const database = openSqlite(path);
  try {
    // WAL: readers keep their snapshot while a sync writes; NORMAL sync is safe with WAL (a
    // power cut may lose the last commits, never consistency). A kill mid-apply rolls back.
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    database.pragma('foreign_keys = ON');
  } catch (error) {
    database.close();
    throw error;
  }
  const lockScope = inMemory ? randomUUID() : realpathSync(path);
  const db = new Kysely<CatalogDatabase>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
  });
  return new KyselyCatalogStore({
    db,
    capabilities: sqliteCapabilities,
    displayNames: resolveDisplayNames(options),
    providerLock: new SqliteProviderLock(() => db, fileLocks, lockScope),
    closeExtra: () => {
      if (database.open) database.close();
      return Promise.resolve();
    },
  });
}

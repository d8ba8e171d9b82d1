import { fileURLToPath } from 'node:url';
import type { CatalogStore } from './catalog-store.js';
import type { CatalogStoreOptions } from './catalog-store-options.js';
import { openPostgresCatalogStore } from './postgres/postgres-catalog-store.js';
import { openSqliteCatalogStore } from './sqlite/sqlite-catalog-store.js';

export type { CatalogStoreOptions } from './catalog-store-options.js';

export type DatabaseLocation =
  | { readonly kind: 'postgres'; readonly connectionString: string }
  /** A file path, or `:memory:` for a private in-memory database. */
  | { readonly kind: 'sqlite'; readonly path: string };

/**
 * Reads a database URL: `postgres://` or `postgresql://` is PostgreSQL; `sqlite:<path>`,
 * `sqlite://<path>`, `file:<path>`, `file:///abs/path` or a plain path is a SQLite file;
 * `:memory:` (or `sqlite::memory:`) is an in-memory SQLite database. Throws on anything else;
 * the message names only the scheme, never credentials.
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  const url = databaseUrl.trim();
  if (url === '') throw new Error('database URL is empty');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') {
    return { kind: 'postgres', connectionString: url };
  }
  if (scheme === 'sqlite') return sqlitePath(url.slice('sqlite:'.length).replace(/^\/\//, ''));
  if (scheme === 'file') {
    return sqlitePath(url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length));
  }
  if (scheme === undefined) return sqlitePath(url);
  throw new Error(
    `unsupported database URL scheme "${scheme}:" (use postgres://, sqlite: or a path)`,
  );
}

function sqlitePath(path: string): DatabaseLocation {
  if (path === '') throw new Error('database URL names no SQLite file');
  return { kind: 'sqlite', path };
}

/**
 * The catalogue store for `databaseUrl` (see parseDatabaseUrl). Call `migrate()` before use and
 * `close()` at shutdown. The only place that picks a dialect.
 */
export function createCatalogStore(
  databaseUrl: string,
  options: CatalogStoreOptions = {},
): Promise<CatalogStore> {
  // A bad URL or an unopenable file becomes a rejection, not a synchronous throw.
  return new Promise((resolve) => {
    const location = parseDatabaseUrl(databaseUrl);
    resolve(
      location.kind === 'postgres'
        ? openPostgresCatalogStore(location.connectionString, options)
        : openSqliteCatalogStore(location.path, options),
    );
  });
}

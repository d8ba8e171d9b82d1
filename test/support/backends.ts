/**
 * Backend selection for the storage contract suites: each suite is written once and looped
 * over these backends, kysely-style.
 *
 * TEST_BACKENDS (comma list: sqlite,postgres) names the backends to run. Unset, SQLite always
 * runs and PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test) runs
 * when it answers. An unreachable backend is skipped with the reason in the suite's name, but
 * when CI=true it fails instead: a CI run that silently skipped a backend would prove nothing.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, it } from 'vitest';

export type StoreBackendName = 'sqlite' | 'postgres';

export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const IS_CI = process.env['CI'] === 'true';

/** One fresh, empty database: a new SQLite file or a new PostgreSQL schema. */
export interface IsolatedDatabase {
  /** A URL for createCatalogStore(). */
  readonly url: string;
  /** Removes the file or the schema with everything in it. */
  drop(): Promise<void>;
}

export interface StoreBackend {
  readonly name: StoreBackendName;
  /** Why this backend cannot run here, or undefined when it can. */
  readonly skipReason: string | undefined;
  /** A new database no other test (or test file, or process) touches. */
  isolate(): Promise<IsolatedDatabase>;
}

function requestedBackends(): StoreBackendName[] {
  const raw = process.env['TEST_BACKENDS'];
  if (raw === undefined || raw.trim() === '') return ['sqlite', 'postgres'];
  const names = new Set<StoreBackendName>();
  for (const entry of raw.split(',')) {
    const name = entry.trim().toLowerCase();
    if (name === 'sqlite' || name === 'postgres') names.add(name);
    else if (name !== '') {
      throw new Error(`TEST_BACKENDS: unknown backend "${name}" (known: sqlite, postgres)`);
    }
  }
  return [...names];
}

/** Undefined when PostgreSQL at `url` answers within 2 s, else the reason it does not. */
export async function postgresUnavailableReason(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL unreachable at ${url}: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A schema of its own, reached through the connection's search_path. */
async function isolatePostgres(): Promise<IsolatedDatabase> {
  const schema = `cp_test_${process.pid}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(`create schema "${schema}"`);
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: () => adminQuery(`drop schema if exists "${schema}" cascade`),
  };
}

function isolateSqlite(): Promise<IsolatedDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudprice-store-'));
  return Promise.resolve({
    // A directory that does not exist yet: the store must create it.
    url: `sqlite:${join(dir, 'data', 'catalog.db')}`,
    drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
  });
}

export async function storeBackends(): Promise<StoreBackend[]> {
  const requested = requestedBackends();
  const explicit = process.env['TEST_BACKENDS'] !== undefined;
  const backends: StoreBackend[] = [];
  for (const name of requested) {
    if (name === 'sqlite') {
      backends.push({ name, skipReason: undefined, isolate: isolateSqlite });
    } else {
      const reason = await postgresUnavailableReason(TEST_DATABASE_URL);
      // Unset TEST_BACKENDS outside CI: PostgreSQL is opportunistic, so say so in the reason.
      const skipReason =
        reason === undefined || explicit || IS_CI ? reason : `${reason} (set TEST_BACKENDS)`;
      backends.push({ name, skipReason, isolate: isolatePostgres });
    }
  }
  return backends;
}

/**
 * `describe(title [backend], body)` when the backend is available; otherwise a skipped suite
 * whose name gives the reason, or, when CI=true, a suite with one failing test that says why.
 */
export function describeStoreBackend(title: string, backend: StoreBackend, body: () => void): void {
  const name = `${title} [${backend.name}]`;
  const reason = backend.skipReason;
  if (reason === undefined) {
    describe(name, body);
  } else if (IS_CI) {
    describe(name, () => {
      it('has its backend available (required when CI=true)', () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`[storage tests] ${name} SKIPPED: ${reason}`);
    describe.skip(`${name} — SKIPPED: ${reason}`, body);
  }
}

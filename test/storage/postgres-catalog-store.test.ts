// What only the PostgreSQL store promises: code-point collation whatever the database locale,
// migrations per schema, and a provider lock other sessions can see (D24 across replicas).
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { providerLockKey } from '../../src/storage/postgres/postgres-advisory-lock.js';
import { describeStoreBackend, storeBackends } from '../support/backends.js';
import type { IsolatedDatabase } from '../support/backends.js';

const LOCK_NAMESPACE = 0x636c7072;

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

for (const backend of (await storeBackends()).filter((b) => b.name === 'postgres')) {
  describeStoreBackend('PostgreSQL catalogue store', backend, () => {
    const databases: IsolatedDatabase[] = [];
    const stores: CatalogStore[] = [];
    let db: IsolatedDatabase;
    let store: CatalogStore;

    const open = async () => {
      const database = await backend.isolate();
      databases.push(database);
      const opened = await createCatalogStore(database.url);
      stores.push(opened);
      await opened.migrate();
      return { database, opened };
    };

    beforeEach(async () => {
      ({ database: db, opened: store } = await open());
    });
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((s) => s.close()));
      await Promise.all(databases.splice(0).map((d) => d.drop()));
    });

    it('collates the sorted text columns by code point ("C")', async () => {
      const rows = await withClient(db.url, async (client) => {
        const result = await client.query<{
          table_name: string;
          column_name: string;
          collation_name: string;
        }>(
          `select table_name, column_name, collation_name from information_schema.columns
           where table_schema = current_schema() and collation_name is not null order by 1, 2`,
        );
        return result.rows.map((r) => `${r.table_name}.${r.column_name}:${r.collation_name}`);
      });
      expect(rows).toEqual([
        'instances.instance_name:C',
        'providers.name:C',
        'regions.region_code:C',
      ]);
    });

    it('keeps money in bigint columns', async () => {
      const types = await withClient(db.url, async (client) => {
        const result = await client.query<{ column_name: string; data_type: string }>(
          `select column_name, data_type from information_schema.columns
           where table_schema = current_schema() and table_name = 'pricing' and column_name like '%micros'`,
        );
        return Object.fromEntries(result.rows.map((r) => [r.column_name, r.data_type]));
      });
      expect(types).toEqual({ hourly_micros: 'bigint', monthly_micros: 'bigint' });
    });

    it('migrates each schema on its own, even when another schema is already migrated', async () => {
      const { database, opened } = await open();
      const tables = await withClient(database.url, async (client) => {
        const result = await client.query<{ table_name: string }>(
          `select table_name from information_schema.tables where table_schema = current_schema() order by 1`,
        );
        return result.rows.map((r) => r.table_name);
      });
      expect(tables).toEqual([
        'catalog_version',
        'instances',
        'kysely_migration',
        'kysely_migration_lock',
        'price_changes',
        'price_history',
        'pricing',
        'pricing_options',
        'providers',
        'regions',
        'spot_advice',
        'sync_locks',
        'sync_runs',
        'webhook_deliveries',
        'webhook_events',
        'webhooks',
      ]);
      expect(await opened.countAvailable()).toBe(0);
    });

    it('holds a session advisory lock that other sessions see while the provider is locked', async () => {
      const key = [LOCK_NAMESPACE, providerLockKey('provider_a')];
      const tryLock = () =>
        withClient(db.url, async (client) => {
          const result = await client.query<{ locked: boolean }>(
            'select pg_try_advisory_lock($1::int4, $2::int4) as locked',
            key,
          );
          // A session's advisory locks end with it: closing the client releases a lock we got.
          return result.rows[0]?.locked;
        });
      const whileHeld = await store.withProviderLock('provider_a', tryLock);
      expect(whileHeld).toBe(false);
      expect(await tryLock()).toBe(true);
    });
  });
}

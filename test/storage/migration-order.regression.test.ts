// Regression: 003-catalog-version landed after 004-price-history. A database migrated in
// between holds 004 and not 003; the migrator refused it ("corrupted migrations") and the
// service could not start. It must take 003 late, on every backend.
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';

const FORGET_003 = [
  `delete from kysely_migration where name = '003-catalog-version'`,
  `drop table catalog_version`,
];

/** Makes the database look migrated by a build that had 004 but not 003. */
async function forget003(url: string): Promise<void> {
  if (url.startsWith('sqlite:')) {
    const db = openSqlite(url.slice('sqlite:'.length));
    try {
      for (const statement of FORGET_003) db.exec(statement);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of FORGET_003) await client.query(statement);
  } finally {
    await client.end();
  }
}

for (const backend of await storeBackends())
  describeStoreBackend('migrations applied out of order', backend, () => {
    let database: IsolatedDatabase;
    beforeEach(async () => {
      database = await backend.isolate();
    });
    afterEach(async () => {
      await database.drop();
    });

    it('migration-order defect: a database with 004 but not 003 migrates and has a version', async () => {
      const first = await createCatalogStore(database.url, {});
      await first.migrate();
      await first.close();
      await forget003(database.url);

      const store = await createCatalogStore(database.url, {});
      try {
        await store.migrate();
        expect(await store.catalogVersion()).toBe(0);
      } finally {
        await store.close();
      }
    });
  });

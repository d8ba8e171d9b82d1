// Regression: Kysely's migrator introspects every schema in the database and calls
// has_schema_privilege(name, ...) on each, so a schema dropped by another session in the
// middle of that query failed our migration with 3F000 although our own schema was intact.
// (Seen as intermittent "database migration (setup) failed" when test files, or replicas of
// another application sharing the database, dropped schemas while we migrated.)
import pg from 'pg';
import { expect, it } from 'vitest';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { TEST_DATABASE_URL, describeStoreBackend, storeBackends } from '../support/backends.js';

const MIGRATIONS = 8;

/** Creates and drops schemas (each with a table, so the introspector joins it) until stopped. */
function churnSchemas(churner: number): { stop: () => Promise<number> } {
  let running = true;
  let dropped = 0;
  const loop = (async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      for (let i = 0; running; i += 1) {
        const name = `cp_churn_${process.pid}_${churner}_${i}`;
        await client.query(`create schema "${name}"`);
        await client.query(`create table "${name}".t (a int, b text, c int, d text)`);
        await client.query(`drop schema "${name}" cascade`);
        dropped += 1;
      }
    } finally {
      await client.end();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return dropped;
    },
  };
}

for (const backend of (await storeBackends()).filter((b) => b.name === 'postgres')) {
  describeStoreBackend('migrating while other schemas are dropped', backend, () => {
    it('migrates every fresh schema although other sessions drop theirs meanwhile', async () => {
      const churners = [0, 1, 2].map(churnSchemas);
      const outcomes: string[] = [];
      try {
        for (let i = 0; i < MIGRATIONS; i += 1) {
          const database = await backend.isolate();
          const store = await createCatalogStore(database.url);
          try {
            await store.migrate();
            outcomes.push('migrated');
          } catch (error) {
            outcomes.push(`failed: ${String((error as Error).cause ?? error)}`);
          } finally {
            await store.close();
            await database.drop();
          }
        }
      } finally {
        const dropped = await Promise.all(churners.map((c) => c.stop()));
        // The race needs schemas really being dropped while we migrate.
        expect(dropped.reduce((a, b) => a + b, 0)).toBeGreaterThan(MIGRATIONS);
      }
      expect(outcomes).toEqual(Array.from({ length: MIGRATIONS }, () => 'migrated'));
    }, 120_000);
  });
}

// Migration numbers are reserved per piece of work (003 catalog-version, 004 price history, 005
// webhooks), so a database may have applied a higher number before a lower one ships. The
// store must then apply the late one instead of refusing to start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogDatabase } from '../../src/storage/catalog-schema.js';
import { catalogMigrations, runMigrations } from '../../src/storage/migrations/run-migrations.js';
import { sqliteCapabilities } from '../../src/storage/sqlite/sqlite-catalog-store.js';

describe('migrations applied out of number order', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('applies a lower-numbered migration that arrives after a higher one', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-migrations-'));
    const db = new Kysely<CatalogDatabase>({
      dialect: new SqliteDialect({ database: openSqlite(path.join(dir, 'db.sqlite')) }),
    });
    try {
      // An older program: everything but 004 (as if it were still unmerged), and so also
      // without 006 and 011, which alter 004's tables.
      const {
        ['004-price-history']: late,
        ['006-sync-order-and-locks']: later,
        ['011-option-history']: latest,
        ...early
      } = catalogMigrations(sqliteCapabilities);
      expect(latest).toBeDefined();
      expect(late).toBeDefined();
      expect(later).toBeDefined();
      const older = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve<Record<string, Migration>>(early) },
      });
      const first = await older.migrateToLatest();
      expect(first.error).toBeUndefined();
      expect(first.results?.map((r) => r.migrationName)).toContain('005-webhooks');

      await runMigrations(db, sqliteCapabilities);
      const applied = await db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect((applied as { name: string }[]).map((r) => r.name).sort()).toEqual(
        Object.keys(catalogMigrations(sqliteCapabilities)).sort(),
      );
      // The late migration's tables exist and work.
      expect(await db.selectFrom('price_history').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Migration, MigrationProvider } from 'kysely/migration';
import type { CatalogDatabase } from '../catalog-schema.js';
import type { DialectCapabilities } from '../dialect-capabilities.js';
import { initialMigration } from './001-initial.js';
import { provenanceMigration } from './002-provenance.js';
import { catalogVersionMigration } from './003-catalog-version.js';
import { priceHistoryMigration } from './004-price-history.js';
import { webhooksMigration } from './005-webhooks.js';
import { syncOrderAndLocksMigration } from './006-sync-order-and-locks.js';
import { webhookEventsMigration } from './007-webhook-events.js';
import { machineFactsMigration } from './008-machine-facts.js';
import { skippedRecordsMigration } from './009-skipped-records.js';
import { purchaseOptionsMigration } from './010-purchase-options.js';
import { optionHistoryMigration } from './011-option-history.js';

/**
 * The numbered migrations, in order. They are compiled into the program (no directory scan at
 * run time, so a bundled or `dist/` build finds them) and receive the dialect's capabilities.
 * Append new ones as `NNN-<what>`; never edit an applied one.
 */
export function catalogMigrations(caps: DialectCapabilities): Record<string, Migration> {
  return {
    '001-initial': initialMigration(caps),
    '002-provenance': provenanceMigration,
    '003-catalog-version': catalogVersionMigration(),
    '004-price-history': priceHistoryMigration(caps),
    '005-webhooks': webhooksMigration(caps),
    '006-sync-order-and-locks': syncOrderAndLocksMigration,
    '007-webhook-events': webhookEventsMigration(caps),
    '008-machine-facts': machineFactsMigration,
    '009-skipped-records': skippedRecordsMigration,
    '010-purchase-options': purchaseOptionsMigration,
    '011-option-history': optionHistoryMigration,
  };
}

class StaticMigrationProvider implements MigrationProvider {
  readonly #migrations: Record<string, Migration>;

  constructor(migrations: Record<string, Migration>) {
    this.#migrations = migrations;
  }

  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(this.#migrations);
  }
}

/** Applies every pending migration; throws the first failure (Kysely reports, not throws). */
export async function runMigrations(
  db: Kysely<CatalogDatabase>,
  caps: DialectCapabilities,
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(catalogMigrations(caps)),
    migrationTableSchema: await caps.migrationTableSchema(db),
    // Numbers are reserved per branch of work (003 catalog-version, 005 webhooks), so a
    // database may already hold a higher number when a lower one lands; each migration touches
    // its own tables (006 also alters sync_runs and price_changes of 001 and 004, which ship
    // before it), so applying the late one then is safe.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
}

import { sql } from 'kysely';
import type { Kysely, SqlBool } from 'kysely';
import type { Migration } from 'kysely/migration';
import { INSTANCE_FAMILIES } from '../../catalog/model.js';
import type { DialectCapabilities } from '../dialect-capabilities.js';

// The catalogue schema. Money: bigint micro-dollars (D36, exact, < 2^53 so safe as JS numbers).
// Times: bigint epoch milliseconds (UTC). Flags: integer 0/1 with a CHECK, on both backends.

/** Rows are never deleted (D15); `available = 1` is in every listing query, hence partial indexes. */
const AVAILABLE = sql<SqlBool>`available = 1`;

async function createTables(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('providers')
    .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
    .addColumn('name', 'text', (c) => caps.codePointCollation(c).notNull().unique())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('regions')
    .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('providers.id'))
    .addColumn('region_code', 'text', (c) => caps.codePointCollation(c).notNull())
    .addColumn('region_name', 'text', (c) => c.notNull())
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addUniqueConstraint('regions_provider_code_unique', ['provider_id', 'region_code'])
    .execute();

  const families = sql.join(INSTANCE_FAMILIES.map((family) => sql.lit(family)));
  await db.schema
    .createTable('instances')
    .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
    .addColumn('provider_id', 'integer', (c) => c.notNull().references('providers.id'))
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('instance_name', 'text', (c) => caps.codePointCollation(c).notNull())
    .addColumn('vcpu', 'integer', (c) => c.notNull().check(sql`vcpu >= 0`))
    .addColumn('memory_mb', 'integer', (c) => c.notNull().check(sql`memory_mb >= 0`))
    .addColumn('storage_gb', 'integer', (c) => c.notNull().check(sql`storage_gb >= 0`))
    .addColumn('transfer_tb', 'double precision', (c) => c.notNull())
    .addColumn('network_speed_gbps', 'double precision', (c) => c.notNull())
    .addColumn('gpu_count', 'integer', (c) => c.notNull().check(sql`gpu_count >= 0`))
    .addColumn('gpu_type', 'text')
    .addColumn('instance_family', 'text', (c) =>
      c.notNull().check(sql`instance_family in (${families})`),
    )
    .addUniqueConstraint('instances_provider_instance_unique', ['provider_id', 'instance_id'])
    .execute();

  await db.schema
    .createTable('pricing')
    .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
    .addColumn('instance_ref', 'integer', (c) => c.notNull().references('instances.id'))
    .addColumn('region_id', 'integer', (c) => c.notNull().references('regions.id'))
    .addColumn('hourly_micros', 'bigint', (c) => c.notNull().check(sql`hourly_micros >= 0`))
    .addColumn('monthly_micros', 'bigint', (c) => c.notNull().check(sql`monthly_micros >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('available', 'integer', (c) => c.notNull().check(sql`available in (0, 1)`))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('pricing_instance_region_unique', ['instance_ref', 'region_id'])
    .execute();

  await db.schema
    .createTable('sync_runs')
    .addColumn('id', 'integer', caps.autoIncrementPrimaryKey)
    .addColumn('sync_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull().check(sql`success in (0, 1)`))
    .addColumn('regions_synced', 'integer', (c) => c.notNull())
    .addColumn('instances_synced', 'integer', (c) => c.notNull())
    .addColumn('pricing_synced', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .execute();
}

/**
 * Pricing indexes are partial on `available = 1` (both backends support that): they hold only
 * listable rows and start with the column a query sorts or ranges on, ending in id for the
 * tie-break (D16). Instance attributes live on instances, a table a tenth the size, so plain
 * single-column indexes there serve the vCPU, memory, storage, name, family and GPU filters and
 * sorts; the join back to available records uses pricing_available_instance_idx.
 */
async function createIndexes(db: Kysely<unknown>): Promise<void> {
  const partial: readonly [string, readonly string[]][] = [
    ['pricing_available_monthly_idx', ['monthly_micros', 'id']],
    ['pricing_available_hourly_idx', ['hourly_micros', 'id']],
    ['pricing_available_region_idx', ['region_id', 'monthly_micros', 'id']],
    ['pricing_available_instance_idx', ['instance_ref', 'id']],
  ];
  for (const [name, columns] of partial) {
    await db.schema
      .createIndex(name)
      .on('pricing')
      .columns([...columns])
      .where(AVAILABLE)
      .execute();
  }
  const plain: readonly [string, string, readonly string[]][] = [
    ['instances_vcpu_idx', 'instances', ['vcpu']],
    ['instances_memory_idx', 'instances', ['memory_mb']],
    ['instances_storage_idx', 'instances', ['storage_gb']],
    ['instances_name_idx', 'instances', ['instance_name']],
    ['instances_family_idx', 'instances', ['instance_family']],
    ['instances_gpu_idx', 'instances', ['gpu_count']],
    ['regions_code_idx', 'regions', ['region_code']],
    ['sync_runs_provider_completed_idx', 'sync_runs', ['provider', 'completed_at']],
    ['sync_runs_success_completed_idx', 'sync_runs', ['success', 'completed_at']],
  ];
  for (const [name, table, columns] of plain) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  }
}

export function initialMigration(caps: DialectCapabilities): Migration {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await createTables(db, caps);
      await createIndexes(db);
    },
  };
}

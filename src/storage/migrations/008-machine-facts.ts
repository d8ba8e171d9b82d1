import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// D62 machine facts and D63 CoreMark, per instance type (a type's facts are the same in every
// region). Every column is nullable: null is "not recorded", never a guess. Rows stored before
// this migration hold nulls until their provider's next sync writes the facts.
const TEXT_COLUMNS = [
  'cpu_architecture',
  'cpu_manufacturer',
  'cpu_model',
  'cpu_allocation',
  'storage_type',
  'coremark_source',
] as const;

export const machineFactsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    for (const column of TEXT_COLUMNS) {
      await db.schema.alterTable('instances').addColumn(column, 'text').execute();
    }
    await db.schema
      .alterTable('instances')
      .addColumn('gpu_memory_gb', 'double precision')
      .execute();
    await db.schema.alterTable('instances').addColumn('coremark', 'double precision').execute();
    await db.schema.alterTable('instances').addColumn('coremark_ran_at', 'bigint').execute();
  },
};

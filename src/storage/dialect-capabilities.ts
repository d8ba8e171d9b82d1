import type {
  ColumnDefinitionBuilder,
  Kysely,
  SelectQueryBuilder,
  TransactionBuilder,
} from 'kysely';
import type { CatalogDatabase } from './catalog-schema.js';

/**
 * What differs between SQLite and PostgreSQL, as named capabilities. Migrations and the shared
 * store code ask for a capability; they never test which dialect is in use.
 */
export interface DialectCapabilities {
  /** Makes an `integer` column the primary key whose values the database assigns. */
  readonly autoIncrementPrimaryKey: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /**
   * Makes a text column compare, sort and index by code point (binary UTF-8 order), so sorts
   * are the same on both backends whatever the database's locale (D16).
   */
  readonly codePointCollation: (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
  /** A transaction in which every statement reads the same committed snapshot. */
  readonly snapshotTransaction: (
    db: Kysely<CatalogDatabase>,
  ) => TransactionBuilder<CatalogDatabase>;
  /**
   * The schema that holds Kysely's migration bookkeeping tables, or undefined where the
   * database has a single namespace. Naming it keeps a schema-per-tenant (or per test file)
   * database from mistaking another schema's bookkeeping for its own.
   */
  readonly migrationTableSchema: (db: Kysely<CatalogDatabase>) => Promise<string | undefined>;
  /**
   * Makes a row-selecting subquery lock the rows it picks and pass over rows another
   * transaction has locked (PostgreSQL's FOR UPDATE SKIP LOCKED), so concurrent claimers of
   * queued work never pick the same row. Where a write holds the whole database (SQLite), the
   * claiming statement is atomic by itself and this returns the query unchanged.
   */
  readonly lockSkippingLocked: <DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ) => SelectQueryBuilder<DB, TB, O>;
}

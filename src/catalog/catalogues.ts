// The whole available catalogue at one committed version: what the in-memory index is built
// from (src/catalog/index/).
import type { InstanceRow } from './records.js';

/** The whole available catalogue at one committed version, read in one snapshot. */
export interface CatalogSnapshot {
  /** The committed catalogue version the rows belong to (see CatalogStore.catalogVersion). */
  readonly version: number;
  /** Newest successful sync of any provider (D19), or null. */
  readonly lastSuccessfulSync: Date | null;
  /** Every available record, by id ascending. */
  readonly rows: readonly InstanceRow[];
}

/**
 * The whole available catalogue at one committed version, as pages read from one snapshot
 * (CatalogStore.scanCatalog): what the in-memory index is built from without ever holding
 * every record as database rows at once.
 */
export interface CatalogScan {
  /** The committed catalogue version the rows belong to (see CatalogStore.catalogVersion). */
  readonly version: number;
  /** Newest successful sync of any provider (D19), or null. */
  readonly lastSuccessfulSync: Date | null;
  /** Every available record, by id ascending, a page at a time; iterate it once. */
  readonly pages: AsyncIterable<readonly InstanceRow[]>;
}

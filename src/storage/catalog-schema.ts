import type { Generated } from 'kysely';
import type { HistoryTables } from './history-schema.js';

// The tables as Kysely sees them. Both dialects hold the same shapes (see migrations/):
// money is integer micro-dollars (D36), times are integer milliseconds since the Unix epoch
// (UTC), and flags are the integers 0 and 1, so no value changes type between backends.

export interface ProvidersTable {
  readonly id: Generated<number>;
  /** A registered provider's name (src/providers/registry.ts, D1). */
  readonly name: string;
  readonly display_name: string;
}

export interface RegionsTable {
  readonly id: Generated<number>;
  readonly provider_id: number;
  /** Our region code (section 4.5). */
  readonly region_code: string;
  readonly region_name: string;
  readonly country_code: string;
}

/** One instance type of one provider; its prices per region live in pricing. */
export interface InstancesTable {
  readonly id: Generated<number>;
  readonly provider_id: number;
  /** The provider's own instance type id. */
  readonly instance_id: string;
  readonly instance_name: string;
  readonly vcpu: number;
  readonly memory_mb: number;
  readonly storage_gb: number;
  readonly transfer_tb: number;
  readonly network_speed_gbps: number;
  readonly gpu_count: number;
  readonly gpu_type: string | null;
  readonly instance_family: string;
  /** D62 machine facts and D63 CoreMark (migration 008); null: not recorded. */
  readonly cpu_architecture: string | null;
  readonly cpu_manufacturer: string | null;
  readonly cpu_model: string | null;
  readonly cpu_allocation: string | null;
  readonly gpu_memory_gb: number | null;
  readonly storage_type: string | null;
  /** CoreMark iterations per second; with its run time (epoch ms) and source text. */
  readonly coremark: number | null;
  readonly coremark_ran_at: number | null;
  readonly coremark_source: string | null;
}

/** One record of the API: an instance type in a region. Its id is the API's record id. */
export interface PricingTable {
  readonly id: Generated<number>;
  readonly instance_ref: number;
  readonly region_id: number;
  /** Integer micro-dollars (D36). */
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  readonly currency: Generated<string>;
  /** 1 while the provider offers it, 0 once a sync no longer saw it (D15); never deleted. */
  readonly available: number;
  /** Epoch milliseconds of the sync run that last wrote the row. */
  readonly updated_at: number;
  /**
   * Epoch milliseconds at which its price was observed upstream (D37): the snapshot's recording
   * date, or when a live sync fetched it. Migration 002-provenance.
   */
  readonly observed_at: Generated<number>;
}

export interface SyncRunsTable {
  readonly id: Generated<number>;
  readonly sync_id: string;
  readonly provider: string;
  /** Epoch milliseconds. */
  readonly started_at: number;
  readonly completed_at: number;
  /** 1 for a successful run, 0 for a failed one. */
  readonly success: number;
  readonly regions_synced: number;
  readonly instances_synced: number;
  readonly pricing_synced: number;
  readonly error_code: string | null;
  readonly error_message: string | null;
  /** What a successful run applied (D37): 'snapshot' or 'live'; null otherwise. */
  readonly source_kind: Generated<string | null>;
  /** Epoch milliseconds at which its figures were observed upstream. */
  readonly source_observed_at: Generated<number | null>;
  /** Short text naming the upstream and the recording. */
  readonly source_text: Generated<string | null>;
  /** Upstream records the run skipped for failing validation (migration 009); 0 before it. */
  readonly skipped_records: Generated<number>;
  /**
   * The catalogue version a successful run's apply committed (migration 006): commit order, so
   * the change feed pages by it. 0 for runs applied before the migration; null for failed runs.
   */
  readonly catalog_version: Generated<number | null>;
}

/** D61: a record's price under an option other than on-demand (migration 010). */
export interface PricingOptionsTable {
  readonly pricing_id: number;
  readonly purchase_option: string;
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  /** Epoch milliseconds at which this option's figure was observed upstream (D37). */
  readonly observed_at: number;
}

/** D61: AWS's spot advice for a record, as published (migration 010). */
export interface SpotAdviceTable {
  readonly pricing_id: number;
  readonly interruption_band: string;
  readonly savings_pct: number;
  readonly observed_at: number;
  readonly source: string;
}

/** One row (id 1): the committed catalogue version, bumped inside every apply. */
export interface CatalogVersionTable {
  readonly id: number;
  readonly version: number;
}

/** A provider's sync lease on SQLite (migration 006, sqlite/sqlite-provider-lock.ts). */
export interface SyncLocksTable {
  readonly provider: string;
  /** Random per acquisition: only the holder renews or releases. */
  readonly owner: string;
  /** Epoch ms after which another process may take the lock (its holder died). */
  readonly expires_at: number;
}

export interface CatalogDatabase extends HistoryTables {
  readonly sync_locks: SyncLocksTable;
  readonly providers: ProvidersTable;
  readonly regions: RegionsTable;
  readonly instances: InstancesTable;
  readonly pricing: PricingTable;
  readonly pricing_options: PricingOptionsTable;
  readonly spot_advice: SpotAdviceTable;
  readonly sync_runs: SyncRunsTable;
  readonly catalog_version: CatalogVersionTable;
}

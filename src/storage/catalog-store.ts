import type { InstanceFamily, ProviderName } from '../catalog/model.js';
import type { DataSource, ProviderCatalog } from '../sync/offer.js';
import type { ApplyOptions } from './catalog-apply.js';
import type { HistoryStore } from './history-store.js';
import type { WebhookStore } from './webhook-store.js';

/** Sort fields after aliases are resolved (D16): price/monthly_price -> monthly_price, memory_gb -> memory_mb. */
export type SortColumn =
  | 'monthly_price'
  | 'hourly_price'
  | 'vcpu'
  | 'memory_mb'
  | 'storage_gb'
  | 'instance_name'
  | 'provider'
  | 'region'
  /** Monthly price per vCPU, and per memory GiB (D45). */
  | 'price_per_vcpu'
  | 'price_per_gb';

export interface InstanceFilter {
  readonly provider?: ProviderName;
  readonly region?: string;
  /**
   * Any of these region codes (extension D53: `region=a,b`; D56 `city`): in REGION_CODES order,
   * never exactly one (a single code is `region`); empty matches nothing (a `city` and a `region`
   * with no region in common).
   */
  readonly regions?: readonly string[];
  /**
   * Extension D54 (`q`): instance_id or instance_name contains this text, compared with ASCII
   * letters folded to lower case (foldAsciiCase); the text is already folded.
   */
  readonly text?: string;
  readonly minVcpu?: number;
  readonly maxVcpu?: number;
  /** Memory bounds in MB (the API's GB bounds x 1024, D18). */
  readonly minMemoryMb?: number;
  readonly maxMemoryMb?: number;
  /** Monthly price bound in integer micro-dollars. */
  readonly maxMonthlyMicros?: number;
  readonly family?: InstanceFamily;
  readonly hasGpu?: boolean;
}

export interface InstanceQuery {
  readonly filter: InstanceFilter;
  readonly sort: SortColumn;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  readonly offset: number;
}

/** One priced record: an instance type in a region (the API's instance record, flat). */
export interface InstanceRow {
  /** The record id: unique per (instance type, region); ties in every sort break on it (D16). */
  readonly id: number;
  readonly instanceId: string;
  readonly instanceName: string;
  readonly vcpu: number;
  readonly memoryMb: number;
  readonly storageGb: number;
  readonly transferTb: number;
  readonly networkSpeedGbps: number;
  readonly gpuCount: number;
  readonly gpuType: string | null;
  readonly family: InstanceFamily;
  readonly providerId: number;
  readonly providerName: ProviderName;
  readonly providerDisplayName: string;
  readonly regionId: number;
  readonly regionCode: string;
  readonly regionName: string;
  readonly countryCode: string;
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  readonly available: number;
  /** Epoch milliseconds at which the price was observed upstream (D37). */
  readonly observedAt: number;
}

export interface InstancePage {
  /** The page's record ids, in order. */
  readonly ids: readonly number[];
  /** The page's records in order, except those the caller said it already holds. */
  readonly rows: readonly InstanceRow[];
  /** All records matching the filter, read in the same snapshot as the page. */
  readonly total: number;
}

export interface PageReadOptions {
  /**
   * Record ids whose current content the caller already holds (records change only at a sync):
   * their rows are not read. Ids and total are still read in full.
   */
  readonly known?: (id: number) => boolean;
}

export interface ApplyCounts {
  readonly regions: number;
  readonly instances: number;
  readonly pricing: number;
}

export interface SyncRunRecord {
  readonly syncId: string;
  readonly provider: ProviderName;
  readonly startedAt: Date;
  readonly completedAt: Date;
  readonly success: boolean;
  readonly counts: ApplyCounts;
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
  /** What a successful run applied (D37); null for failed runs and runs from before it. */
  readonly dataSource?: DataSource | null;
}

/** A run of the sync history with its row id, which grows with every run recorded. */
export interface RecordedRun {
  readonly id: number;
  readonly run: SyncRunRecord;
}

export interface ProviderSyncState {
  readonly provider: ProviderName;
  readonly lastSuccessAt: Date | null;
  /** The newest attempt, successful or not. */
  readonly latestRun: SyncRunRecord | null;
  /** Provenance of the catalogue the last successful run applied (D37), or null. */
  readonly dataSource: DataSource | null;
  /** Regions and available records currently in the catalogue for this provider. */
  readonly regionsCount: number;
  readonly instancesCount: number;
}

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

export interface CandidateQuery {
  readonly minMemoryMb: number;
  readonly providers?: readonly ProviderName[];
  readonly regions?: readonly string[];
}

/**
 * The catalogue's storage. SQLite and PostgreSQL implement it identically; one contract suite
 * (test/storage) runs against both. Nothing outside storage/ knows which one is in use.
 */
export interface CatalogStore {
  /** Price history and the change feed (D38 to D41), in the same database. */
  readonly history: HistoryStore;
  /** Webhook subscriptions and their delivery queue (D42), in the same database. */
  readonly webhooks: WebhookStore;
  /** Runs the numbered migrations and seeds providers and regions. Idempotent. */
  migrate(): Promise<void>;
  /** Round-trip to the database; resolves when it answers, rejects when it cannot. */
  ping(): Promise<void>;
  /** One page of available records and the total, from one consistent read. */
  queryInstances(query: InstanceQuery, options?: PageReadOptions): Promise<InstancePage>;
  /**
   * The committed catalogue version: a number that every apply increases inside its own
   * transaction, in commit order, on every backend. Cheap (one row); polled to notice a sync
   * that another process committed.
   */
  catalogVersion(): Promise<number>;
  /**
   * Every available record and the version they belong to, from one snapshot, handed to
   * `consume` a page at a time. The snapshot stays open until `consume` settles (its pages are
   * read only as it iterates them), and the result is what `consume` resolves with.
   */
  scanCatalog<T>(consume: (scan: CatalogScan) => Promise<T>): Promise<T>;
  /**
   * Every available record and the version they belong to, from one snapshot, as one array
   * (scanCatalog collected): for tests and tools. The index loads through scanCatalog.
   */
  readCatalog(): Promise<CatalogSnapshot>;
  /** Available records with memory >= minMemoryMb, for recommendations. */
  findCandidates(query: CandidateQuery): Promise<readonly InstanceRow[]>;
  /**
   * Replaces one provider's catalogue atomically (D22): upserts what the catalogue holds, marks
   * the provider's records that it no longer holds as unavailable (D15), appends the run to
   * the sync history, records price periods and feed items (D38) and queues the webhook
   * deliveries announcing them (D42), all in one transaction. A thrown error leaves everything
   * as it was.
   */
  applyProviderCatalog(
    catalog: ProviderCatalog,
    run: Omit<SyncRunRecord, 'counts' | 'success' | 'errorCode' | 'errorMessage'>,
    options?: ApplyOptions,
  ): Promise<ApplyCounts>;
  /**
   * Registers a listener that applyProviderCatalog awaits after its commit and before it
   * resolves, so whatever this process serves from memory (the catalogue index) already holds
   * what it just committed. Listener failures are the listener's business (they are ignored).
   * Returns a function that removes the listener.
   */
  onCommitted(listener: () => Promise<unknown>): () => void;
  /** Appends a failed run to the sync history and queues its sync.failed deliveries (D42). */
  recordFailedRun(run: SyncRunRecord): Promise<void>;
  providerStates(): Promise<readonly ProviderSyncState[]>;
  /**
   * The provider's most recently recorded run and its history row id, or null before its first.
   * Ids grow with every run recorded, so a higher id than one seen before is a run recorded
   * since, whatever the clocks of the replicas that wrote them say (D24, issue 15 item 9).
   */
  latestRecordedRun(provider: ProviderName): Promise<RecordedRun | null>;
  /** Newest successful sync of any provider (D19), or null. */
  lastSuccessfulSync(): Promise<Date | null>;
  /** Number of available records; 0 means the catalogue is empty (first start). */
  countAvailable(): Promise<number>;
  /**
   * Runs fn while holding the provider's sync lock, so two syncs of one provider never overlap
   * (D24): across every replica and process on PostgreSQL (an advisory lock) and on one SQLite
   * file (a lease row, sqlite/sqlite-provider-lock.ts). A caller that finds the lock held waits
   * for it; the lock is released however fn ends. `held` aborts when the lock is lost while fn
   * runs (its database session ended, its lease was taken over): fn must then stop, and an
   * apply given it (ApplyOptions.held) rolls back.
   */
  withProviderLock<T>(provider: ProviderName, fn: (held: AbortSignal) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

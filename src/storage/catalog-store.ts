import type { CatalogScan, CatalogSnapshot } from '../catalog/catalogues.js';
import type { ProviderName } from '../catalog/model.js';
import type { DataSource, ProviderCatalog } from '../catalog/offers.js';
import type { InstancePage, InstanceQuery } from '../catalog/record-query.js';
import type { HistoryStore } from './history-store.js';
import type { WebhookStore } from './webhook-store.js';

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
  /**
   * Upstream records the run skipped because they failed validation (issue 35 item 2; migration
   * 009): /health reports a provider whose last run skipped any as degraded. Absent: 0.
   */
  readonly skippedRecords?: number;
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

/** A run as the apply records it: its outcome is what the apply finds. */
export type ApplyRun = Omit<SyncRunRecord, 'counts' | 'success' | 'errorCode' | 'errorMessage'>;

/** What an apply would do to the provider's available records, known before it commits. */
export interface CatalogChange {
  /** Available records of the provider before the apply. */
  readonly previous: number;
  /** Of those, how many the new catalogue no longer holds (they become unavailable, D15). */
  readonly removed: number;
  /** Available records after the apply. */
  readonly remaining: number;
  /** Our regions that had available records before the apply and would have none after. */
  readonly emptiedRegions: readonly string[];
}

export interface ApplyOptions {
  /** Runs inside the transaction before the commit; a throw rolls the whole apply back. */
  readonly check?: (change: CatalogChange) => void;
  /**
   * The provider lock's signal (CatalogStore.withProviderLock): aborted once the lock is lost,
   * and then the apply rolls back rather than commit unprotected. Checked before every part of
   * the apply and right before its last writes.
   */
  readonly held?: AbortSignal;
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
  /**
   * Replaces one provider's catalogue atomically (D22): upserts what the catalogue holds, marks
   * the provider's records that it no longer holds as unavailable (D15), appends the run to
   * the sync history, records price periods and feed items (D38) and queues the webhook
   * deliveries announcing them (D42), all in one transaction. A thrown error leaves everything
   * as it was.
   */
  applyProviderCatalog(
    catalog: ProviderCatalog,
    run: ApplyRun,
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

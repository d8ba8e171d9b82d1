import { LRUCache } from 'lru-cache';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CatalogScan, CatalogSnapshot } from '../catalog/catalogues.js';
import type { ProviderName } from '../catalog/model.js';
import type { ProviderCatalog } from '../catalog/offers.js';
import type { InstancePage, InstanceQuery } from '../catalog/record-query.js';
import type { InstanceRow } from '../catalog/records.js';
import { applyProviderCatalogInTransaction } from './catalog-apply.js';
import {
  countAvailableRecords,
  selectCatalogVersion,
  selectInstancePage,
  selectKnownPage,
  scanAvailableRecords,
  type CompiledQueryMemo,
} from './catalog-queries.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { seedCatalog } from './catalog-seed.js';
import type {
  ApplyCounts,
  ApplyOptions,
  ApplyRun,
  CatalogStore,
  PageReadOptions,
  ProviderSyncState,
  RecordedRun,
  SyncRunRecord,
} from './catalog-store.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import type { HistoryStore } from './history-store.js';
import { createHistoryStore } from './kysely-history-store.js';
import { createWebhookStore } from './kysely-webhook-store.js';
import { runMigrations } from './migrations/run-migrations.js';
import { enqueueFailedSync } from './webhook-enqueue.js';
import type { WebhookStore } from './webhook-store.js';
import {
  insertSyncRun,
  selectLastSuccessfulSync,
  selectLatestRecordedRun,
  selectProviderStates,
} from './sync-history.js';

/** Serialises syncs of one provider (D24); each dialect brings its own. */
export interface ProviderLock {
  /** See CatalogStore.withProviderLock. */
  withLock<T>(provider: ProviderName, fn: (held: AbortSignal) => Promise<T>): Promise<T>;
}

export interface KyselyCatalogStoreParts {
  readonly db: Kysely<CatalogDatabase>;
  readonly capabilities: DialectCapabilities;
  readonly providerLock: ProviderLock;
  readonly displayNames: Readonly<Record<ProviderName, string>>;
  /**
   * Where the migrations run, when not on `db`: a connection without a statement time limit,
   * because the migrator waits under its lock for another process's migrations to finish.
   */
  readonly migrationDb?: Kysely<CatalogDatabase>;
  /**
   * Releases what the dialect opened besides `db`, after `db.destroy()` (which does nothing
   * when `db` never ran a query, so this also closes what `db` would have).
   */
  readonly closeExtra?: () => Promise<void>;
}

/**
 * The CatalogStore over Kysely: all behaviour lives here and in the shared query modules; a
 * dialect supplies only its connection, capabilities and provider lock.
 */
export class KyselyCatalogStore implements CatalogStore {
  readonly #parts: KyselyCatalogStoreParts;
  #closing: Promise<void> | undefined;
  /** Page totals by catalogue version and filter (see selectInstancePage). */
  readonly #totals = new LRUCache<string, number>({ max: 2_000 });
  /** Compiled listing statements by query (see selectKnownPage). */
  readonly #compiled: CompiledQueryMemo = new LRUCache({ max: 2_000 });
  /** See onCommitted. */
  readonly #committed = new Set<() => Promise<unknown>>();

  readonly history: HistoryStore;
  readonly webhooks: WebhookStore;

  constructor(parts: KyselyCatalogStoreParts) {
    this.#parts = parts;
    this.history = createHistoryStore(() => this.#db(), parts.capabilities);
    this.webhooks = createWebhookStore(() => this.#db(), parts.capabilities);
  }

  async migrate(): Promise<void> {
    const db = this.#db();
    await runMigrations(this.#parts.migrationDb ?? db, this.#parts.capabilities);
    await seedCatalog(db, this.#parts.displayNames);
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.#db());
  }

  async queryInstances(query: InstanceQuery, options: PageReadOptions = {}): Promise<InstancePage> {
    const known = options.known;
    const page =
      known === undefined
        ? undefined
        : await selectKnownPage(this.#db(), query, this.#totals, known, this.#compiled);
    return (
      page ??
      (await this.#snapshot().execute((trx) => selectInstancePage(trx, query, this.#totals, known)))
    );
  }

  async catalogVersion(): Promise<number> {
    return await selectCatalogVersion(this.#db());
  }

  async scanCatalog<T>(consume: (scan: CatalogScan) => Promise<T>): Promise<T> {
    return await this.#snapshot().execute(async (trx) => {
      const version = await selectCatalogVersion(trx);
      const lastSuccessfulSync = await selectLastSuccessfulSync(trx);
      return await consume({ version, lastSuccessfulSync, pages: scanAvailableRecords(trx) });
    });
  }

  async readCatalog(): Promise<CatalogSnapshot> {
    return await this.scanCatalog(async ({ version, lastSuccessfulSync, pages }) => {
      const rows: InstanceRow[] = [];
      for await (const page of pages) rows.push(...page);
      return { version, lastSuccessfulSync, rows };
    });
  }

  async applyProviderCatalog(
    catalog: ProviderCatalog,
    run: ApplyRun,
    options?: ApplyOptions,
  ): Promise<ApplyCounts> {
    const counts = await this.#db()
      .transaction()
      // The history of what this apply changed commits or rolls back with it (D38), and so do
      // the webhook deliveries announcing it (D42): a crash after the commit loses none.
      .execute((trx) => applyProviderCatalogInTransaction(trx, catalog, run, options));
    await Promise.allSettled([...this.#committed].map((listener) => listener()));
    return counts;
  }

  onCommitted(listener: () => Promise<unknown>): () => void {
    const entry = () => listener();
    this.#committed.add(entry);
    return () => this.#committed.delete(entry);
  }

  async recordFailedRun(run: SyncRunRecord): Promise<void> {
    await this.#db()
      .transaction()
      .execute(async (trx) => {
        await insertSyncRun(trx, run);
        await enqueueFailedSync(trx, run);
      });
  }

  async providerStates(): Promise<readonly ProviderSyncState[]> {
    return await this.#snapshot().execute((trx) => selectProviderStates(trx));
  }

  async latestRecordedRun(provider: ProviderName): Promise<RecordedRun | null> {
    return await selectLatestRecordedRun(this.#db(), provider);
  }

  async lastSuccessfulSync(): Promise<Date | null> {
    return await selectLastSuccessfulSync(this.#db());
  }

  async countAvailable(): Promise<number> {
    return await countAvailableRecords(this.#db());
  }

  async withProviderLock<T>(
    provider: ProviderName,
    fn: (held: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.#db();
    return await this.#parts.providerLock.withLock(provider, fn);
  }

  /**
   * Idempotent; waits for in-flight work to finish with its connections. Every call after it
   * rejects.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      await this.#parts.db.destroy();
      await this.#parts.closeExtra?.();
    })();
    return this.#closing;
  }

  /** The connection, or a rejection once close() was called (Kysely alone would not say so). */
  #db(): Kysely<CatalogDatabase> {
    if (this.#closing !== undefined) throw new Error('the catalogue store is closed');
    return this.#parts.db;
  }

  #snapshot() {
    return this.#parts.capabilities.snapshotTransaction(this.#db());
  }
}

// POST /sync as a core service (spec 4.3, D21 to D24): runs each requested provider's adapter,
// applies its catalogue atomically, records the history and announces the change.
import { randomBytes } from 'node:crypto';
import type { ProviderName } from '../catalog/model.js';
import type { InvalidationBus } from '../infra/invalidation-bus.js';
import { noopMetrics, type Metrics } from '../observability/metrics.js';
import type { CatalogStore, SyncRunRecord } from '../storage/catalog-store.js';
import { checkCatalogChange } from './catalog-guard.js';
import { checkSkippedShare } from './skipped-guard.js';
import type { ProviderAdapter, ProviderCatalog, SkipCounts } from '../catalog/offers.js';
import { UpstreamError } from './upstream/upstream-error.js';
import { failedOptionFeeds, optionFeedsJson, type OptionFeedsJson } from './option-feeds-json.js';

export interface ProviderSyncResult {
  readonly provider: ProviderName;
  readonly success: boolean;
  readonly regions_synced: number;
  readonly instances_synced: number;
  readonly pricing_synced: number;
  readonly duration_ms: number;
  readonly error?: string;
  readonly error_details?: { readonly code: string; readonly message: string };
  /**
   * Upstream records this sync skipped because they failed validation, by reason (extension,
   * issue 22). Present whenever the provider's catalogue was read, success or not.
   */
  readonly skipped_records?: SkippedRecordsJson;
  /**
   * Extension: what this sync read, for a provider it fetched and applied: `snapshot` (a
   * recorded snapshot replayed, its figures observed at observed_at) or `live`. Absent when the
   * answer is another replica's run (D24) or the sync failed.
   */
  readonly data_source?: SyncDataSourceJson;
  /**
   * Extension (D61): per purchase-option feed the provider read (AWS: `spot`,
   * `spot_advice`), the regions it filled and those where it failed, whose stored figures of
   * that option were kept. Present for a provider fetched and applied that read such a feed.
   */
  readonly options?: OptionFeedsJson;
}

export interface SyncDataSourceJson {
  readonly kind: 'snapshot' | 'live';
  readonly observed_at: string;
}

export interface SkippedRecordsJson {
  readonly count: number;
  readonly reasons: SkipCounts;
}

/** A provider's result and the completed_at of the run it reports (one instant per sync). */
interface ProviderOutcome {
  readonly result: ProviderSyncResult;
  readonly completedAt: Date;
}

export interface SyncReport {
  readonly sync_id: string;
  readonly success: boolean;
  readonly started_at: string;
  readonly completed_at: string;
  readonly total_duration_ms: number;
  readonly providers: readonly ProviderSyncResult[];
  readonly summary: {
    readonly total_providers: number;
    readonly successful_providers: number;
    readonly failed_providers: number;
    readonly total_regions: number;
    readonly total_instances: number;
    readonly total_pricing: number;
  };
}

export interface SyncOptions {
  /**
   * Apply even a catalogue that leaves one of our regions that had available records with none
   * (the upstream no longer lists it, or lists nothing in it); its only effect. Never one that
   * leaves the provider with none. POST /sync `force`, `cloudprice sync --force`.
   */
  readonly force?: boolean;
  /** Told of each provider's result as soon as it is known (the CLI's progress line). */
  readonly onProviderDone?: (result: ProviderSyncResult) => void;
  /**
   * The schedule's rule, decided under the provider lock: a provider whose last successful sync
   * (by any replica) is younger than this many milliseconds is not fetched; its newest run is
   * reported instead. Deciding before the lock let a sync another replica committed meanwhile
   * be fetched and applied again.
   */
  readonly dueAfterMs?: number;
}

export interface SyncService {
  /** Syncs the given (distinct, supported) providers concurrently and reports each result. */
  sync(providers: readonly ProviderName[], options?: SyncOptions): Promise<SyncReport>;
  /** Aborts running syncs (shutdown). Their previous catalogues stay as they were (D22). */
  abortAll(): void;
}

export interface SyncServiceDeps {
  readonly store: CatalogStore;
  readonly adapters: Readonly<Record<ProviderName, ProviderAdapter>>;
  readonly bus: InvalidationBus;
  readonly log: {
    error(obj: unknown, msg: string): void;
    info(obj: unknown, msg: string): void;
    warn?(obj: unknown, msg: string): void;
  };
  /** Sync durations and outcomes per provider (D51). */
  readonly metrics?: Metrics;
}

/** `sync_<epoch ms>_<12 letters and digits>` (D21). */
export function newSyncId(now: number = Date.now()): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const suffix = [...randomBytes(12)].map((b) => alphabet[b % alphabet.length]).join('');
  return `sync_${now}_${suffix}`;
}

export function createSyncService(deps: SyncServiceDeps): SyncService {
  // D24 within one process: a request that finds a provider's sync running shares its result.
  // Across replicas the store's provider lock serialises them.
  const running = new Map<ProviderName, Promise<ProviderOutcome>>();
  const controller = { current: new AbortController() };
  const metrics = deps.metrics ?? noopMetrics;

  /**
   * Tells every replica (this one included) to drop its /instances cache. Called as soon as one
   * provider's catalogue is stored, not once the whole request ends: a slow provider in the same
   * request must not hide another's fresh data behind the cache (D20).
   */
  async function announceChange(provider: ProviderName, syncId: string): Promise<void> {
    await deps.bus.publish().catch((error: unknown) => {
      // The local cache was dropped already; other replicas catch up on reconnect.
      deps.log.error({ err: error, provider, syncId }, 'could not announce the catalogue change');
    });
  }

  async function syncProvider(
    provider: ProviderName,
    syncId: string,
    force: boolean,
    dueAfterMs: number | undefined,
  ): Promise<ProviderOutcome> {
    const started = new Date();
    const clock = performance.now();
    const elapsed = () => Math.round(performance.now() - clock);
    // Taken now: abortAll() replaces the controller, and a sync still waiting for the provider
    // lock when the service shuts down must see the abort too.
    const signal = controller.current.signal;
    let skipped: SkippedRecordsJson | undefined;
    /** The provider lock's signal once taken: aborted when the lock was lost. */
    let lock: AbortSignal | undefined;

    /** Logs, counts and records a failed attempt (never throws) and returns its result. */
    async function failed(error: unknown): Promise<ProviderOutcome> {
      const { code, message } = signal.aborted
        ? ABORTED
        : lock?.aborted === true
          ? LOCK_LOST
          : describeFailure(error);
      deps.log.error({ err: error, provider, syncId }, 'provider sync failed');
      metrics.syncFinished(
        provider,
        signal.aborted ? 'aborted' : 'failure',
        (performance.now() - clock) / 1000,
      );
      const completedAt = new Date();
      await deps.store
        .recordFailedRun({
          syncId,
          provider,
          startedAt: started,
          completedAt,
          success: false,
          counts: { regions: 0, instances: 0, pricing: 0 },
          errorCode: code,
          errorMessage: message,
          skippedRecords: skipped?.count ?? 0,
        })
        .catch((recordError: unknown) =>
          deps.log.error({ err: recordError }, 'could not record failed sync'),
        );
      const result: ProviderSyncResult = {
        provider,
        success: false,
        regions_synced: 0,
        instances_synced: 0,
        pricing_synced: 0,
        duration_ms: elapsed(),
        error: message,
        error_details: { code, message },
        ...(skipped === undefined ? {} : { skipped_records: skipped }),
      };
      return { result, completedAt };
    }

    /** Logs the regions where a purchase-option feed failed (their option figures are kept). */
    function noteOptionFeeds(catalog: ProviderCatalog): void {
      const failures = failedOptionFeeds(catalog.optionFeeds ?? []);
      if (failures.length === 0) return;
      (deps.log.warn ?? deps.log.info).call(
        deps.log,
        { provider, syncId, option_feed_failures: failures },
        'purchase-option feed failed in some regions: their stored figures of that option are kept',
      );
    }

    /** Counts, logs and reports the records the upstream's catalogue had to skip. */
    function noteSkipped(catalog: ProviderCatalog): void {
      skipped = { count: catalog.skippedRecords, reasons: catalog.skippedReasons ?? {} };
      metrics.syncSkippedRecords(provider, catalog.skippedRecords);
      if (catalog.skippedRecords > 0) {
        (deps.log.warn ?? deps.log.info).call(
          deps.log,
          { provider, syncId, skipped_records: skipped },
          'upstream records skipped: they failed validation',
        );
      }
    }

    try {
      // The newest run recorded before this request waits for the lock (see recordedSince).
      const seen = (await deps.store.latestRecordedRun(provider))?.id ?? 0;
      const outcome = await deps.store.withProviderLock(provider, async (held) => {
        lock = held;
        // D24 across replicas: a sync of this provider that another replica finished while we
        // waited for the lock is the answer to this request too; do not fetch again.
        const finished =
          (await recordedSince(provider, seen)) ??
          (dueAfterMs === undefined ? undefined : await freshRun(provider, dueAfterMs));
        if (finished !== undefined) return { finished };
        try {
          // A lost provider lock (its session ended) stops the fetch, and the apply refuses to
          // commit: another process may be syncing this provider now (D24).
          const adapter = deps.adapters[provider];
          if (adapter === undefined) throw new Error(`no adapter for provider ${provider}`);
          const fetched = await adapter.fetchCatalog(AbortSignal.any([signal, held]));
          noteSkipped(fetched);
          noteOptionFeeds(fetched);
          checkSkippedShare(fetched);
          const catalog = await withFirstFillRecordings(deps.store, fetched, held, signal);
          // One instant for the whole sync: the run's completed_at (health last_sync), its
          // history periods, feed items and events, and the report's completed_at.
          const completedAt = new Date();
          const applied = await deps.store.applyProviderCatalog(
            catalog,
            {
              syncId,
              provider,
              startedAt: started,
              completedAt,
              skippedRecords: fetched.skippedRecords,
            },
            {
              check: (change) => checkCatalogChange(provider, change, force),
              held,
            },
          );
          return {
            applied,
            completedAt,
            dataSource: catalog.dataSource,
            optionFeeds: catalog.optionFeeds,
          };
        } catch (error) {
          // Recorded before the lock is released, so a request waiting for it finds this run
          // and reports its failure (D24) rather than fetching again.
          return { failure: await failed(error) };
        }
      });
      if (outcome.finished !== undefined) {
        return {
          result: reported(outcome.finished, elapsed()),
          completedAt: outcome.finished.completedAt,
        };
      }
      if (outcome.failure !== undefined) return outcome.failure;
      const counts = outcome.applied;
      const options =
        outcome.optionFeeds === undefined ? undefined : optionFeedsJson(outcome.optionFeeds);
      deps.log.info(
        { provider, syncId, counts, ...(options === undefined ? {} : { options }) },
        'provider synced',
      );
      metrics.syncFinished(provider, 'success', (performance.now() - clock) / 1000);
      await announceChange(provider, syncId);
      const result: ProviderSyncResult = {
        provider,
        success: true,
        regions_synced: counts.regions,
        instances_synced: counts.instances,
        pricing_synced: counts.pricing,
        duration_ms: elapsed(),
        ...(skipped === undefined ? {} : { skipped_records: skipped }),
        ...(outcome.dataSource === undefined
          ? {}
          : {
              data_source: {
                kind: outcome.dataSource.kind,
                observed_at: outcome.dataSource.observedAt.toISOString(),
              },
            }),
        ...(options === undefined ? {} : { options }),
      };
      return { result, completedAt: outcome.completedAt };
    } catch (error) {
      // The lock could not be taken or the history not read: nobody holds this attempt's lock.
      return await failed(error);
    }
  }

  /**
   * A run of the provider recorded after the one this request saw before waiting for the lock:
   * the sync it waited for. Compared by history row id, not by time: a run's times come from
   * the clock of the replica that wrote it, and its data time is taken before its apply
   * commits, so a sync already applying when this request began looked older than the request
   * and was fetched again (issue 15 item 9).
   */
  async function recordedSince(
    provider: ProviderName,
    seenId: number,
  ): Promise<SyncRunRecord | undefined> {
    const latest = await deps.store.latestRecordedRun(provider);
    return latest !== null && latest.id > seenId ? latest.run : undefined;
  }

  /** The provider's newest run when its last success is younger than `dueAfterMs`. */
  async function freshRun(
    provider: ProviderName,
    dueAfterMs: number,
  ): Promise<SyncRunRecord | undefined> {
    const state = (await deps.store.providerStates()).find((s) => s.provider === provider);
    const last = state?.lastSuccessAt;
    if (last == null || Date.now() - last.getTime() >= dueAfterMs) return undefined;
    return (await deps.store.latestRecordedRun(provider))?.run;
  }

  function shared(
    provider: ProviderName,
    syncId: string,
    force: boolean,
    dueAfterMs: number | undefined,
  ): Promise<ProviderOutcome> {
    // A request joining a sync already running shares its result, forced or not.
    let result = running.get(provider);
    if (result === undefined) {
      result = syncProvider(provider, syncId, force, dueAfterMs).finally(() =>
        running.delete(provider),
      );
      running.set(provider, result);
    }
    return result;
  }

  return {
    async sync(providers, options = {}) {
      const syncId = newSyncId();
      const startedAt = new Date();
      const force = options.force === true;
      const done = options.onProviderDone;
      const outcomes = await Promise.all(
        providers.map((p) => {
          const outcome = shared(p, syncId, force, options.dueAfterMs);
          return done === undefined ? outcome : outcome.then((o) => (done(o.result), o));
        }),
      );
      const results = outcomes.map((o) => o.result);
      // The completed_at of the newest run reported: for one provider, the very instant its
      // history, feed, events and /health carry (issue 22). Never before the request began (a
      // run another replica finished while this request waited may carry an earlier time).
      const completedAt = new Date(
        Math.max(startedAt.getTime(), ...outcomes.map((o) => o.completedAt.getTime())),
      );
      const succeeded = results.filter((r) => r.success);
      return {
        sync_id: syncId,
        success: succeeded.length === results.length,
        started_at: startedAt.toISOString(),
        completed_at: completedAt.toISOString(),
        total_duration_ms: completedAt.getTime() - startedAt.getTime(),
        providers: results,
        summary: {
          total_providers: results.length,
          successful_providers: succeeded.length,
          failed_providers: results.length - succeeded.length,
          total_regions: sum(results, 'regions_synced'),
          total_instances: sum(results, 'instances_synced'),
          total_pricing: sum(results, 'pricing_synced'),
        },
      };
    },
    abortAll() {
      controller.current.abort(new Error('service is shutting down'));
      controller.current = new AbortController();
    },
  };
}

/**
 * D64: a provider's first fill (no successful run, no record) from a snapshot with dated
 * recordings replays them; every later sync follows D38, so they are not even read then.
 */
async function withFirstFillRecordings(
  store: CatalogStore,
  catalog: ProviderCatalog,
  held: AbortSignal,
  signal: AbortSignal,
): Promise<ProviderCatalog> {
  if (catalog.loadRecordings === undefined) return catalog;
  const state = (await store.providerStates()).find((s) => s.provider === catalog.provider);
  if (state === undefined || state.lastSuccessAt !== null || state.instancesCount > 0) {
    return catalog;
  }
  return { ...catalog, recordings: await catalog.loadRecordings(AbortSignal.any([signal, held])) };
}

/** The result of a run another replica finished while this request waited for it (D24). */
function reported(run: SyncRunRecord, durationMs: number): ProviderSyncResult {
  if (run.success) {
    return {
      provider: run.provider,
      success: true,
      regions_synced: run.counts.regions,
      instances_synced: run.counts.instances,
      pricing_synced: run.counts.pricing,
      duration_ms: durationMs,
    };
  }
  const code = run.errorCode ?? 'SYNC_APPLY_FAILED';
  const message = run.errorMessage ?? 'The concurrent sync of this provider failed';
  return {
    provider: run.provider,
    success: false,
    regions_synced: 0,
    instances_synced: 0,
    pricing_synced: 0,
    duration_ms: durationMs,
    error: message,
    error_details: { code, message },
  };
}

function sum(
  results: readonly ProviderSyncResult[],
  key: 'regions_synced' | 'instances_synced' | 'pricing_synced',
) {
  return results.reduce((total, r) => total + r[key], 0);
}

/** A sync cut short by abortAll() (shutdown): documented as SYNC_ABORTED (docs/api.md). */
const ABORTED = {
  code: 'SYNC_ABORTED',
  message:
    'The sync was cancelled because the service is shutting down; the previous catalogue is unchanged',
} as const;

/**
 * The provider lock was lost while the sync ran (its database session ended): another process
 * may have taken it, so this sync stopped before committing (D24). Documented in docs/api.md.
 */
const LOCK_LOST = {
  code: 'SYNC_LOCK_LOST',
  message:
    'The sync lost its provider lock and stopped without applying; the previous catalogue is unchanged',
} as const;

/** What a client may see of a failure: a coded message; the detail is logged (D4). */
function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof UpstreamError) return { code: error.code, message: error.publicMessage };
  return {
    code: 'SYNC_APPLY_FAILED',
    message: 'Storing the provider catalogue failed; the previous catalogue is unchanged',
  };
}

// Start-up sync and the SYNC_INTERVAL schedule (issue: "serves data at once").
import { MAX_TIMER_DELAY_MS } from '../infra/timers.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { SyncService } from './sync-service.js';

/**
 * Before the server reports ready, syncs every provider that has nothing to serve: all of them
 * on a first start, and on a later start those whose earlier syncs all failed, which would
 * otherwise stay empty until the schedule comes round (or for ever with SYNC_INTERVAL=0).
 * Returns true when it ran a sync.
 */
export async function syncIfEmpty(store: CatalogStore, sync: SyncService): Promise<boolean> {
  const empty = (await store.providerStates())
    .filter((state) => state.instancesCount === 0)
    .map((state) => state.provider);
  if (empty.length === 0) return false;
  await sync.sync(empty);
  return true;
}

/**
 * Syncs the providers whose last success is older than 90% of `intervalMs`, so N replicas
 * sharing a database do not each sync every provider. It checks at once, then every
 * `intervalMs` (at most MAX_TIMER_DELAY_MS): waiting a whole interval first would postpone every
 * sync at each restart, and a process restarted more often than the interval (deploys, crashes)
 * would never sync at all. Returns a stop function.
 */
export function scheduleSyncs(
  store: CatalogStore,
  sync: SyncService,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => void {
  if (intervalMs <= 0) return () => undefined;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    void (async () => {
      // A first look without the lock, so fresh providers cost no lock; the sync decides again
      // under each provider's lock (dueAfterMs), where no other replica's commit can slip in.
      const states = await store.providerStates();
      const now = Date.now();
      const dueAfterMs = intervalMs * 0.9;
      const due = states
        .filter((s) => s.lastSuccessAt === null || now - s.lastSuccessAt.getTime() >= dueAfterMs)
        .map((s) => s.provider);
      if (due.length > 0 && !stopped) await sync.sync(due, { dueAfterMs });
    })().catch(onError);
  };
  const first = setTimeout(check, 0);
  const timer = setInterval(check, Math.min(intervalMs, MAX_TIMER_DELAY_MS));
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}

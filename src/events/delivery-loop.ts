// The delivery loop every replica runs (D42): it claims due deliveries from the queue in the
// database with a lease (so one replica sends each), sends them with bounded concurrency and
// timeouts, and records each attempt: delivered, retried later on the backoff schedule, or
// given up 24 hours after the event. Nothing here runs inside a sync or a request. Slots are
// shared between targets (issue 35, ClaimFairness): a target has at most TARGET_IN_FLIGHT
// deliveries in flight, targets holding none are served first, and failing targets (a delivery
// awaits a retry) together hold at most failingShare (half) of the slots, so slow or dead targets,
// however many, leave the other slots to the rest. (A target not yet known to be slow can
// still hold a slot for one attempt's timeout before it counts as failing.)
import { randomBytes } from 'node:crypto';
import type { WebhookConfig } from '../config.js';
import { noopMetrics, type Metrics } from '../observability/metrics.js';
import type { AttemptResult, ClaimedDelivery, WebhookStore } from '../storage/webhook-store.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendMessage } from './webhook-sender.js';

/** Delivered and given-up rows are kept this long (for `cloudprice webhooks deliveries`). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;
/** Deliveries of one webhook in flight at once, across replicas (keeps a backlog to its share). */
export const TARGET_IN_FLIGHT = 2;
/** Of WEBHOOK_CONCURRENCY slots, the most that failing targets hold together: half (at least 1). */
export function failingShare(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}

export interface DeliveryLoopDeps {
  readonly store: WebhookStore;
  readonly config: WebhookConfig;
  readonly log: { error(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
  readonly metrics?: Metrics;
  /** Epoch ms; tests move it to walk the retry schedule without waiting. */
  readonly now?: () => number;
  /** In [0, 1): the retry jitter; tests pin it to 0. */
  readonly random?: () => number;
  /** This replica's name in leases; random by default. */
  readonly owner?: string;
}

export interface DeliveryLoop {
  /** Polls every WEBHOOK_POLL_INTERVAL until stop() (after which it does nothing). */
  start(): void;
  /** Looks for due deliveries now instead of at the next poll (after a sync, say). */
  kick(): void;
  /**
   * One pass: claims what is due (up to the free concurrency) and sends it; resolves with the
   * number claimed once every one of those attempts is recorded.
   */
  runOnce(): Promise<number>;
  /**
   * Stops polling, lets attempts in flight run for up to `graceMs` (default 0), then aborts the
   * rest. An aborted attempt is not counted: its claim is released, so the delivery stays
   * queued and is due at once (on another replica, or here after a restart), with the same
   * webhook-id. Resolves once every attempt is settled, so within `graceMs` plus a database
   * round trip rather than an attempt's timeouts (up to 2 × WEBHOOK_TIMEOUT). Idempotent.
   */
  stop(options?: { readonly graceMs?: number }): Promise<void>;
}

/**
 * How long a claim holds: longer than one attempt can take (name resolution and the request,
 * each bounded by the timeout), so a live sender never loses its claim; a dead one's claim
 * lapses soon after and another replica sends the delivery.
 */
export function leaseMs(config: Pick<WebhookConfig, 'timeoutMs'>): number {
  return 3 * config.timeoutMs;
}

export function createDeliveryLoop(deps: DeliveryLoopDeps): DeliveryLoop {
  const { store, config, log } = deps;
  const metrics = deps.metrics ?? noopMetrics;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const owner = deps.owner ?? `replica_${randomBytes(8).toString('hex')}`;
  const lease = leaseMs(config);
  const inFlight = new Set<Promise<void>>();
  let failingInFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let claiming: Promise<number> | undefined;
  let stopping: Promise<void> | undefined;
  let lastPrune = 0;
  // Aborted by stop(): every attempt in flight ends at once.
  const shutdown = new AbortController();

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const outcome = await sendMessage(
      {
        url: delivery.url,
        secret: delivery.secret,
        messageId: delivery.messageId,
        body: delivery.payload,
      },
      {
        timeoutMs: config.timeoutMs,
        allowPrivate: config.allowPrivate,
        nowSeconds: () => now() / 1000,
        signal: shutdown.signal,
      },
    );
    if (!outcome.ok && shutdown.signal.aborted) {
      // Abandoned, not failed: the target is not to blame, so no attempt is counted.
      await store.release(delivery.id, owner).catch((error: unknown) => {
        // The lease lapses instead and the delivery is claimed again then.
        log.error({ err: error, delivery: delivery.messageId }, 'could not release webhook claim');
      });
      log.info(
        { delivery: delivery.messageId, webhook: delivery.webhookId },
        'webhook attempt abandoned at shutdown; it stays queued',
      );
      return;
    }
    const at = now();
    let result: AttemptResult;
    if (outcome.ok) {
      result = { ok: true, status: outcome.status, at };
    } else {
      const retryAt = nextAttemptAt(
        delivery.createdAt.getTime(),
        at,
        delivery.attempts + 1,
        config.retryBaseMs,
        random(),
      );
      result = { ok: false, status: outcome.status, error: outcome.error, at, retryAt };
    }
    const label = result.ok ? 'delivered' : result.retryAt === null ? 'failed' : 'retrying';
    let recorded = false;
    try {
      recorded = await store.recordAttempt(delivery.id, owner, result);
    } catch (error) {
      // The lease lapses and another pass (here or elsewhere) tries again: at least once.
      log.error({ err: error, delivery: delivery.messageId }, 'could not record webhook attempt');
    }
    metrics.webhookDelivery(recorded ? label : 'lease_lost');
    if (!result.ok && result.retryAt === null) {
      log.error(
        { delivery: delivery.messageId, webhook: delivery.webhookId, error: result.error },
        'webhook delivery given up after its retry window',
      );
    }
  }

  function track(delivery: ClaimedDelivery): Promise<void> {
    if (delivery.targetFailing) failingInFlight += 1;
    const done = attempt(delivery).finally(() => {
      inFlight.delete(done);
      if (delivery.targetFailing) failingInFlight -= 1;
    });
    inFlight.add(done);
    return done;
  }

  async function prune(at: number): Promise<void> {
    if (at - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = at;
    await store.prune(at - DELIVERY_RETENTION_MS).catch((error: unknown) => {
      log.error({ err: error }, 'could not prune old webhook deliveries');
    });
  }

  /** Claims and starts attempts; resolves with them once claimed (not once sent). */
  async function claim(): Promise<Promise<void>[]> {
    const free = config.concurrency - inFlight.size;
    if (free <= 0) return [];
    const at = now();
    let claimed: ClaimedDelivery[];
    try {
      claimed = await store.claimDue(owner, at, lease, free, {
        perTarget: TARGET_IN_FLIGHT,
        failing: Math.max(0, failingShare(config.concurrency) - failingInFlight),
      });
    } catch (error) {
      log.error({ err: error }, 'could not claim webhook deliveries');
      return [];
    }
    await prune(at);
    return claimed.map(track);
  }

  /** One claim at a time per replica, so concurrency stays bounded. */
  function claimOnce(): Promise<Promise<void>[]> {
    const next = (claiming ?? Promise.resolve(0)).then(() => claim());
    claiming = next.then((attempts) => attempts.length);
    return next;
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(() => {
      timer = undefined;
      claimOnce().then(schedule, schedule);
    }, config.pollIntervalMs);
    timer.unref();
  }

  return {
    start() {
      // A stopped loop stays stopped.
      if (running || stopping !== undefined) return;
      running = true;
      schedule();
    },
    kick() {
      if (running) void claimOnce();
    },
    async runOnce() {
      const attempts = await claimOnce();
      await Promise.all(attempts);
      return attempts.length;
    },
    stop(options = {}) {
      stopping ??= (async () => {
        running = false;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        await claiming;
        const graceMs = options.graceMs ?? 0;
        if (inFlight.size > 0 && graceMs > 0) {
          let wait: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.allSettled([...inFlight]),
            new Promise((resolve) => (wait = setTimeout(resolve, graceMs))),
          ]);
          clearTimeout(wait);
        }
        shutdown.abort();
        await Promise.allSettled([...inFlight]);
      })();
      return stopping;
    },
  };
}

// Webhook subscriptions and the delivery queue (D42). Events are enqueued inside the
// transaction that stores what they announce, so a crash after the commit loses none and a
// rollback queues nothing. Each event body is stored once (webhook_events) and a delivery is
// the pair (event, subscriber) with its attempts, so what a sync stores grows with its changes
// and not with subscribers × changes. A delivery is claimed with a lease before it is sent, so one replica sends it, and
// another takes it over only once the lease has lapsed (the sender died).
import type { EventType, WebhookFilter } from '../catalog/webhook-event-model.js';

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly EventType[];
  readonly filter: WebhookFilter;
  readonly createdAt: Date;
}

export interface WebhookWithSecret extends Webhook {
  readonly secret: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  readonly id: number;
  readonly webhookId: string;
  readonly messageId: string;
  readonly eventType: EventType;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly createdAt: Date;
  readonly nextAttemptAt: Date;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery extends Delivery {
  readonly url: string;
  readonly secret: string;
  readonly payload: string;
  /** Its webhook was failing when claimed (a delivery of it awaits a retry). */
  readonly targetFailing: boolean;
}

/**
 * How claims are shared between targets (webhooks), so a slow or failing target holds at most
 * its share of the sending slots (issue 35). A target is failing while one of its deliveries
 * awaits a retry (its last attempt failed or timed out); it is busy while one of its deliveries
 * is claimed (in flight anywhere). Claims go first to targets that are neither, oldest due
 * first, then to busy ones, then (at most `failing` of them) to failing ones.
 */
export interface ClaimFairness {
  /** Deliveries of one target in flight at once, across every claimer (>= 1). */
  readonly perTarget: number;
  /** Of this claim, at most this many for failing targets (>= 0). */
  readonly failing: number;
}

export type AttemptResult =
  | { readonly ok: true; readonly status: number; readonly at: number }
  | {
      readonly ok: false;
      readonly status: number | null;
      readonly error: string;
      readonly at: number;
      /** Epoch ms of the next attempt, or null to give up. */
      readonly retryAt: number | null;
    };

export interface NewWebhook {
  readonly url: string;
  readonly secret: string;
  readonly events: readonly EventType[];
  readonly filter: WebhookFilter;
  readonly createdAt: Date;
}

export interface WebhookStore {
  /**
   * Stores a subscription unless `max` already exist: null then. The check and the insert are
   * one statement guarded by a unique slot, so concurrent creates (on any replica) never exceed
   * `max`.
   */
  create(webhook: NewWebhook, max: number): Promise<WebhookWithSecret | null>;
  list(): Promise<readonly Webhook[]>;
  count(): Promise<number>;
  /** Removes the subscription and its queued deliveries; false when there was none. */
  delete(id: string): Promise<boolean>;
  /**
   * Claims up to `limit` deliveries due at `now` whose lease (if any) has lapsed, for `owner`
   * until `now + leaseMs`. No other claimer gets them while the lease holds. With `fairness`,
   * see ClaimFairness: targets that hold nothing come first, failing targets take at most
   * `fairness.failing` of the claims, and no target gets more than `fairness.perTarget` at once.
   */
  claimDue(
    owner: string,
    now: number,
    leaseMs: number,
    limit: number,
    fairness?: ClaimFairness,
  ): Promise<ClaimedDelivery[]>;
  /** Records an attempt's result; ignored when `owner` no longer holds the lease. */
  recordAttempt(id: number, owner: string, result: AttemptResult): Promise<boolean>;
  /**
   * Releases a claim without counting an attempt (the attempt was abandoned: shutdown), so the
   * delivery is due again at once, here or on another replica.
   */
  release(id: number, owner: string): Promise<boolean>;
  /**
   * Removes delivered and given-up deliveries created before `before` (epoch ms), then every
   * event no delivery refers to any more.
   */
  prune(before: number): Promise<number>;
  /** Newest first. */
  deliveries(options: { limit: number; webhookId?: string }): Promise<readonly Delivery[]>;
}

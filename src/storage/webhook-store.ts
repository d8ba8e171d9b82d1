import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { ProviderName } from '../catalog/model.js';
import {
  EVENT_TYPES,
  completedSyncMessages,
  failedSyncMessages,
  type CompletedSync,
  type EventMessage,
  type EventType,
  type FailedSync,
  type WebhookFilter,
} from '../events/event-types.js';
import type { CatalogDatabase } from './catalog-schema.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { parseEvents, toDelivery, toWebhook } from './webhook-rows.js';

// Webhook subscriptions and the delivery queue (D42). Events are enqueued inside the
// transaction that stores what they announce, so a crash after the commit loses none and a
// rollback queues nothing. Each event body is stored once (webhook_events) and a delivery is
// the pair (event, subscriber) with its attempts, so what a sync stores grows with its changes
// and not with subscribers × changes. A delivery is claimed with a lease before it is sent, so one replica sends it, and
// another takes it over only once the lease has lapsed (the sender died).

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

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

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
   * until `now + leaseMs`. No other claimer gets them while the lease holds.
   */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]>;
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

/** Rows per multi-row INSERT of deliveries (7 bound values a row). */
const CHUNK = 500;

const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

/**
 * Stores every event the subscribers want once, and a delivery row per (event, subscriber).
 * Subscribers are grouped by what shapes a body: with `byRegion`, their region filter (a
 * provider filter either matches this sync or leaves the subscriber out). One group's bodies
 * are built and stored before the next group's, so memory holds one group's bodies at a time;
 * the groups are at most the regions plus one, whatever the number of subscribers.
 */
async function enqueue(
  trx: Executor,
  at: number,
  provider: ProviderName,
  byRegion: boolean,
  messagesFor: (events: readonly EventType[], region: string | undefined) => EventMessage[],
): Promise<void> {
  const hooks = await trx
    .selectFrom('webhooks')
    .select(['id', 'events', 'filter_provider', 'filter_region'])
    .orderBy('id')
    .execute();
  const groups = new Map<string | undefined, { id: string; events: EventType[] }[]>();
  for (const hook of hooks) {
    if (hook.filter_provider !== null && hook.filter_provider !== provider) continue;
    const region = byRegion ? (hook.filter_region ?? undefined) : undefined;
    const group = groups.get(region) ?? [];
    group.push({ id: hook.id, events: parseEvents(hook.events) });
    groups.set(region, group);
  }
  const deliveries: {
    event_id: number;
    webhook_id: string;
    message_id: string;
    status: string;
    attempts: number;
    created_at: number;
    next_attempt_at: number;
  }[] = [];
  for (const [region, members] of groups) {
    const wanted = EVENT_TYPES.filter((type) => members.some((m) => m.events.includes(type)));
    for (const message of messagesFor(wanted, region)) {
      const event = await trx
        .insertInto('webhook_events')
        .values({ event_type: message.type, payload: message.body, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const member of members) {
        if (!member.events.includes(message.type)) continue;
        deliveries.push({
          event_id: event.id,
          webhook_id: member.id,
          message_id: newMessageId(),
          status: 'pending',
          attempts: 0,
          created_at: at,
          next_attempt_at: at,
        });
      }
    }
  }
  for (let start = 0; start < deliveries.length; start += CHUNK) {
    await trx
      .insertInto('webhook_deliveries')
      .values(deliveries.slice(start, start + CHUNK))
      .execute();
  }
}

/** Inside the apply transaction: sync.completed and price.changed for every subscriber. */
export async function enqueueCompletedSync(trx: Executor, sync: CompletedSync): Promise<void> {
  await enqueue(trx, sync.completedAt.getTime(), sync.provider, true, (events, region) =>
    completedSyncMessages(sync, events, region === undefined ? {} : { region }),
  );
}

/** With the failed run's record: sync.failed for every subscriber. */
export async function enqueueFailedSync(trx: Executor, sync: FailedSync): Promise<void> {
  await enqueue(trx, sync.completedAt.getTime(), sync.provider, false, (events) =>
    failedSyncMessages(sync, events, {}),
  );
}

export function createWebhookStore(
  db: () => Kysely<CatalogDatabase>,
  caps: DialectCapabilities,
): WebhookStore {
  return {
    async create(webhook, max) {
      const row = {
        id: `wh_${randomBytes(12).toString('hex')}`,
        url: webhook.url,
        secret: webhook.secret,
        events: JSON.stringify(webhook.events),
        filter_provider: webhook.filter.provider ?? null,
        filter_region: webhook.filter.region ?? null,
        created_at: webhook.createdAt.getTime(),
      };
      // Takes the lowest free slot below `max` in the inserting statement. Two creates that
      // pick the same slot meet at its unique index: one inserts, the other inserts nothing
      // (on PostgreSQL after waiting for the first to commit) and tries the next free slot.
      // Each retry follows another create's commit, so there are at most `max` of them.
      for (let attempt = 0; attempt <= max; attempt++) {
        const inserted = await sql<{ slot: number }>`
          insert into webhooks
            (id, url, secret, events, filter_provider, filter_region, created_at, slot)
          select ${row.id}, ${row.url}, ${row.secret}, ${row.events}, ${row.filter_provider},
            ${row.filter_region}, cast(${row.created_at} as bigint), free.slot
          from (select 0 as slot union all select slot + 1 as slot from webhooks) free
          where free.slot < ${max}
            and not exists (select 1 from webhooks taken where taken.slot = free.slot)
          order by free.slot
          limit 1
          on conflict (slot) do nothing
          returning slot`.execute(db());
        if (inserted.rows.length > 0) return toWebhook(row);
        const full = await db()
          .selectFrom('webhooks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('slot', '<', max)
          .executeTakeFirstOrThrow();
        if (Number(full.n) >= max) return null;
      }
      return null;
    },

    async list() {
      const rows = await db()
        .selectFrom('webhooks')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => {
        const { secret: _secret, ...hook } = toWebhook(row);
        return hook;
      });
    },

    async count() {
      const row = await db()
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async delete(id) {
      return await db()
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
          const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
          return Number(result.numDeletedRows) > 0;
        });
    },

    async claimDue(owner, now, leaseMs, limit) {
      const due = caps.lockSkippingLocked(
        db()
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', sql.lit('pending'))
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .orderBy('next_attempt_at')
          .orderBy('id')
          .limit(limit),
      );
      const claimed = await db()
        .updateTable('webhook_deliveries')
        .set({ lease_owner: owner, lease_until: now + leaseMs })
        .where('id', 'in', due)
        .returningAll()
        .execute();
      if (claimed.length === 0) return [];
      const hooks = await db()
        .selectFrom('webhooks')
        .select(['id', 'url', 'secret'])
        .where('id', 'in', [...new Set(claimed.map((row) => row.webhook_id))])
        .execute();
      const events = await db()
        .selectFrom('webhook_events')
        .select(['id', 'event_type', 'payload'])
        .where('id', 'in', [...new Set(claimed.map((row) => row.event_id))])
        .execute();
      const hookById = new Map(hooks.map((hook) => [hook.id, hook]));
      const eventById = new Map(events.map((event) => [event.id, event]));
      return claimed
        .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id - b.id)
        .flatMap((row) => {
          const hook = hookById.get(row.webhook_id);
          const event = eventById.get(row.event_id);
          if (hook === undefined || event === undefined) return [];
          return [
            {
              ...toDelivery({ ...row, event_type: event.event_type }),
              url: hook.url,
              secret: hook.secret,
              payload: event.payload,
            },
          ];
        });
    },

    async recordAttempt(id, owner, result) {
      const update = db()
        .updateTable('webhook_deliveries')
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', sql.lit('pending'));
      const done = await (
        result.ok
          ? update.set((eb) => ({
              status: 'delivered',
              attempts: eb('attempts', '+', 1),
              lease_owner: null,
              lease_until: null,
              last_status: result.status,
              last_error: null,
              delivered_at: result.at,
            }))
          : update.set((eb) => ({
              status: result.retryAt === null ? 'failed' : 'pending',
              attempts: eb('attempts', '+', 1),
              next_attempt_at: result.retryAt ?? result.at,
              lease_owner: null,
              lease_until: null,
              last_status: result.status,
              last_error: result.error.slice(0, 500),
            }))
      ).executeTakeFirst();
      return Number(done.numUpdatedRows) > 0;
    },

    async release(id, owner) {
      const result = await db()
        .updateTable('webhook_deliveries')
        .set({ lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', sql.lit('pending'))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async prune(before) {
      const result = await db()
        .deleteFrom('webhook_deliveries')
        .where('status', '!=', sql.lit('pending'))
        .where('created_at', '<', before)
        .executeTakeFirst();
      // An event is inserted with its deliveries in one transaction, so one without any is
      // done with (delivered, given up, or its subscribers deleted).
      await db()
        .deleteFrom('webhook_events')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries')
                .select('webhook_deliveries.id')
                .whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'),
            ),
          ),
        )
        .execute();
      return Number(result.numDeletedRows);
    },

    async deliveries({ limit, webhookId }) {
      let select = db()
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
        .selectAll('d')
        .select('e.event_type');
      if (webhookId !== undefined) select = select.where('d.webhook_id', '=', webhookId);
      const rows = await select.orderBy('d.id', 'desc').limit(limit).execute();
      return rows.map(toDelivery);
    },
  };
}

import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { isProviderName } from '../catalog/model.js';
import {
  completedSyncMessages,
  failedSyncMessages,
  isEventType,
  type CompletedSync,
  type EventMessage,
  type EventType,
  type FailedSync,
  type WebhookFilter,
} from '../events/event-types.js';
import type { CatalogDatabase } from './catalog-schema.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import type { WebhookDeliveriesTable, WebhooksTable } from './history-schema.js';

// Webhook subscriptions and the delivery queue (D42). Messages are enqueued inside the
// transaction that stores what they announce, so a crash after the commit loses none; a
// delivery is claimed with a lease before it is sent, so one replica sends it, and another
// takes it over only once the lease has lapsed (the sender died).

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

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
  create(webhook: NewWebhook): Promise<WebhookWithSecret>;
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
  /** Removes delivered and given-up deliveries created before `before` (epoch ms). */
  prune(before: number): Promise<number>;
  /** Newest first. */
  deliveries(options: { limit: number; webhookId?: string }): Promise<readonly Delivery[]>;
}

function parseEvents(text: string): EventType[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every(isEventType)) {
    throw new Error('corrupt webhook events list');
  }
  return parsed;
}

function toWebhook(row: Selectable<WebhooksTable>): WebhookWithSecret {
  const provider = row.filter_provider;
  if (provider !== null && !isProviderName(provider)) throw new Error('corrupt webhook filter');
  return {
    id: row.id,
    url: row.url,
    secret: row.secret,
    events: parseEvents(row.events),
    filter: {
      ...(provider !== null && { provider }),
      ...(row.filter_region !== null && { region: row.filter_region }),
    },
    createdAt: new Date(row.created_at),
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>): Delivery {
  const type = row.event_type;
  if (!isEventType(type)) throw new Error('corrupt delivery event type');
  return {
    id: row.id,
    webhookId: row.webhook_id,
    messageId: row.message_id,
    eventType: type,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    nextAttemptAt: new Date(row.next_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at),
  };
}

/** Rows per multi-row INSERT of deliveries (6 bound values a row). */
const CHUNK = 500;

async function enqueue(
  trx: Executor,
  at: number,
  messagesFor: (hook: WebhookWithSecret) => EventMessage[],
): Promise<void> {
  const hooks = (await trx.selectFrom('webhooks').selectAll().execute()).map(toWebhook);
  const rows = hooks.flatMap((hook) =>
    messagesFor(hook).map((message) => ({
      webhook_id: hook.id,
      message_id: `msg_${randomUUID().replaceAll('-', '')}`,
      event_type: message.type,
      payload: message.body,
      status: 'pending',
      attempts: 0,
      created_at: at,
      next_attempt_at: at,
    })),
  );
  for (let start = 0; start < rows.length; start += CHUNK) {
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + CHUNK))
      .execute();
  }
}

/** Inside the apply transaction: sync.completed and price.changed for every subscriber. */
export async function enqueueCompletedSync(trx: Executor, sync: CompletedSync): Promise<void> {
  await enqueue(trx, sync.completedAt.getTime(), (hook) =>
    completedSyncMessages(sync, hook.events, hook.filter),
  );
}

/** With the failed run's record: sync.failed for every subscriber. */
export async function enqueueFailedSync(trx: Executor, sync: FailedSync): Promise<void> {
  await enqueue(trx, sync.completedAt.getTime(), (hook) =>
    failedSyncMessages(sync, hook.events, hook.filter),
  );
}

export function createWebhookStore(
  db: () => Kysely<CatalogDatabase>,
  caps: DialectCapabilities,
): WebhookStore {
  return {
    async create(webhook) {
      const row = {
        id: `wh_${randomBytes(12).toString('hex')}`,
        url: webhook.url,
        secret: webhook.secret,
        events: JSON.stringify(webhook.events),
        filter_provider: webhook.filter.provider ?? null,
        filter_region: webhook.filter.region ?? null,
        created_at: webhook.createdAt.getTime(),
      };
      await db().insertInto('webhooks').values(row).execute();
      return toWebhook(row);
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
        .where(
          'id',
          'in',
          claimed.map((row) => row.webhook_id),
        )
        .execute();
      const byId = new Map(hooks.map((hook) => [hook.id, hook]));
      return claimed
        .sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id - b.id)
        .flatMap((row) => {
          const hook = byId.get(row.webhook_id);
          return hook === undefined
            ? []
            : [{ ...toDelivery(row), url: hook.url, secret: hook.secret, payload: row.payload }];
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

    async prune(before) {
      const result = await db()
        .deleteFrom('webhook_deliveries')
        .where('status', '!=', sql.lit('pending'))
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deliveries({ limit, webhookId }) {
      let select = db().selectFrom('webhook_deliveries').selectAll();
      if (webhookId !== undefined) select = select.where('webhook_id', '=', webhookId);
      const rows = await select.orderBy('id', 'desc').limit(limit).execute();
      return rows.map(toDelivery);
    },
  };
}

// Queuing webhook deliveries inside the apply transaction (D42): every event the subscribers
// want is stored once, and a delivery row per (event, subscriber), so a crash after the commit
// loses none and a rollback queues nothing.
import { randomUUID } from 'node:crypto';
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
} from '../catalog/webhook-event-model.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { parseEvents } from './webhook-rows.js';

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

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

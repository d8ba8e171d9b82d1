// The webhook store (WebhookStore) over Kysely: subscriptions, and the delivery queue's claims
// with leases, attempts and pruning (D42, ADR 0013).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { CatalogDatabase } from './catalog-schema.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { dueDeliveries, planClaims, targetStates } from './webhook-due.js';
import { toDelivery, toWebhook } from './webhook-rows.js';
import type { WebhookStore } from './webhook-store.js';

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

    async claimDue(owner, now, leaseMs, limit, fairness) {
      const claim = async (n: number, webhookId?: string) =>
        await db()
          .updateTable('webhook_deliveries')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', 'in', caps.lockSkippingLocked(dueDeliveries(db(), now, n, webhookId)))
          // Checked again on the row itself: on PostgreSQL a concurrent claimer's update is
          // waited for and then seen, so a row is never claimed twice.
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .returningAll()
          .execute();
      const claimed: { row: Awaited<ReturnType<typeof claim>>[number]; failing: boolean }[] = [];
      if (fairness === undefined) {
        for (const row of await claim(limit)) claimed.push({ row, failing: false });
      } else {
        // A target's state can change between the read and the claims (another replica); a
        // claim then takes fewer, and the cap per target may be passed by as many claims as
        // run at once: bounded, and put right as those attempts end.
        const plan = planClaims(await targetStates(db(), now), limit, fairness);
        for (const { webhookId, count, failing } of plan) {
          for (const row of await claim(count, webhookId)) claimed.push({ row, failing });
        }
      }
      if (claimed.length === 0) return [];
      const hooks = await db()
        .selectFrom('webhooks')
        .select(['id', 'url', 'secret'])
        .where('id', 'in', [...new Set(claimed.map(({ row }) => row.webhook_id))])
        .execute();
      const events = await db()
        .selectFrom('webhook_events')
        .select(['id', 'event_type', 'payload'])
        .where('id', 'in', [...new Set(claimed.map(({ row }) => row.event_id))])
        .execute();
      const hookById = new Map(hooks.map((hook) => [hook.id, hook]));
      const eventById = new Map(events.map((event) => [event.id, event]));
      return claimed
        .sort(
          (a, b) =>
            Number(a.failing) - Number(b.failing) ||
            a.row.next_attempt_at - b.row.next_attempt_at ||
            a.row.id - b.row.id,
        )
        .flatMap(({ row, failing }) => {
          const hook = hookById.get(row.webhook_id);
          const event = eventById.get(row.event_id);
          if (hook === undefined || event === undefined) return [];
          return [
            {
              ...toDelivery({ ...row, event_type: event.event_type }),
              url: hook.url,
              secret: hook.secret,
              payload: event.payload,
              targetFailing: failing,
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

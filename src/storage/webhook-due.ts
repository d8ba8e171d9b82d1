// The due deliveries a claim may take (D42), and how they are shared between targets (issue 35,
// ClaimFairness): one target's deliveries are taken oldest due first and at most `perTarget` of
// them at once, counting the ones in flight; a tier holds the targets that are failing or the
// ones that are not; in a tier, targets that hold no claim come before busy ones.
import { sql, type Kysely } from 'kysely';
import type { CatalogDatabase } from './catalog-schema.js';

export interface DueTier {
  /** Only targets with a delivery awaiting a retry (true), or only the others (false). */
  readonly failing: boolean;
  readonly perTarget: number;
}

/** Ids of up to `limit` deliveries due at `now` whose lease (if any) has lapsed. */
export function dueDeliveries(
  db: Kysely<CatalogDatabase>,
  now: number,
  limit: number,
  tier?: DueTier,
) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .select('d.id')
    .where('d.status', '=', sql.lit('pending'))
    .where('d.next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]));
  if (tier === undefined) return query.orderBy('d.next_attempt_at').orderBy('d.id').limit(limit);
  const failing = sql<boolean>`exists (select 1 from webhook_deliveries f
    where f.webhook_id = d.webhook_id and f.status = 'pending' and f.attempts > 0)`;
  // Due deliveries of the same target ahead of this one, claimed or not: fewer than
  // `perTarget` means this one is among the target's first `perTarget`, so taking it keeps
  // the target within its cap even while other claimers hold some of them.
  const ahead = sql<number>`(select count(*) from webhook_deliveries o
    where o.webhook_id = d.webhook_id and o.status = 'pending' and o.next_attempt_at <= ${now}
      and (o.next_attempt_at < d.next_attempt_at
        or (o.next_attempt_at = d.next_attempt_at and o.id < d.id)))`;
  const busy = sql<number>`case when exists (select 1 from webhook_deliveries b
    where b.webhook_id = d.webhook_id and b.status = 'pending' and b.lease_until >= ${now})
    then 1 else 0 end`;
  query = query
    .where(tier.failing ? failing : sql<boolean>`not ${failing}`)
    .where(sql<boolean>`${ahead} < ${tier.perTarget}`);
  return query.orderBy(busy).orderBy('d.next_attempt_at').orderBy('d.id').limit(limit);
}

// Which due deliveries a claim takes (D42), and how they are shared between targets (issue 35,
// ClaimFairness). One pass over the pending deliveries reads each target's state (failing, in
// flight, due); planClaims decides how many of each target's deliveries to take; then each
// target's oldest due deliveries are claimed. Pending deliveries are few (at most a day of events
// per subscriber), so the pass is cheap; per-row subqueries over the whole queue were not
// (0.3 s on SQLite, 1 s on PostgreSQL with 100 subscribers' month of delivered rows).
import { sql, type Kysely } from 'kysely';
import type { CatalogDatabase } from './catalog-schema.js';
import type { ClaimFairness } from './webhook-store.js';

/** A target (webhook) with due deliveries nobody holds, as a claim at `now` sees it. */
export interface TargetState {
  readonly webhookId: string;
  /** One of its deliveries awaits a retry: its last attempt failed. */
  readonly failing: boolean;
  /** Its deliveries claimed (in flight) by any claimer. */
  readonly inFlight: number;
  /** Its due deliveries nobody holds (> 0). */
  readonly due: number;
  /** When its oldest such delivery became due (epoch ms). */
  readonly oldestDue: number;
}

export interface PlannedClaim {
  readonly webhookId: string;
  readonly count: number;
  readonly failing: boolean;
}

/** Each target with due deliveries that nobody holds, in no particular order. */
export async function targetStates(
  db: Kysely<CatalogDatabase>,
  now: number,
): Promise<TargetState[]> {
  const free = sql`(lease_until is null or lease_until < ${now})`;
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select('webhook_id')
    .select([
      sql<number>`max(case when attempts > 0 then 1 else 0 end)`.as('failing'),
      sql<number>`sum(case when lease_until >= ${now} then 1 else 0 end)`.as('in_flight'),
      sql<number>`sum(case when next_attempt_at <= ${now} and ${free} then 1 else 0 end)`.as('due'),
      sql<number>`min(case when next_attempt_at <= ${now} and ${free} then next_attempt_at end)`.as(
        'oldest_due',
      ),
    ])
    .where('status', '=', sql.lit('pending'))
    .groupBy('webhook_id')
    .execute();
  // PostgreSQL answers sums of bigints as text.
  return rows
    .map((row) => ({
      webhookId: row.webhook_id,
      failing: Number(row.failing) > 0,
      inFlight: Number(row.in_flight),
      due: Number(row.due),
      oldestDue: Number(row.oldest_due),
    }))
    .filter((state) => state.due > 0);
}

/**
 * How many deliveries of each target to claim, `limit` at most: targets that are not failing
 * first, those holding no claim before busy ones, oldest due first; one delivery per target
 * and round, so every eligible target gets one before any gets a second; no target beyond
 * `perTarget` in flight; failing targets together at most `fairness.failing`.
 */
export function planClaims(
  states: readonly TargetState[],
  limit: number,
  fairness: ClaimFairness,
): PlannedClaim[] {
  const perTarget = Math.max(1, fairness.perTarget);
  const order = [...states].sort(
    (a, b) =>
      Number(a.failing) - Number(b.failing) ||
      Number(a.inFlight > 0) - Number(b.inFlight > 0) ||
      a.oldestDue - b.oldestDue ||
      (a.webhookId < b.webhookId ? -1 : 1),
  );
  const counts = new Map<string, number>();
  let left = limit;
  let failingLeft = fairness.failing;
  for (let round = 0; round < perTarget && left > 0; round++) {
    for (const state of order) {
      if (left === 0) break;
      const taken = counts.get(state.webhookId) ?? 0;
      if (taken !== round || taken >= state.due || state.inFlight + taken >= perTarget) continue;
      if (state.failing) {
        if (failingLeft === 0) continue;
        failingLeft -= 1;
      }
      counts.set(state.webhookId, taken + 1);
      left -= 1;
    }
  }
  return order.flatMap((state) => {
    const count = counts.get(state.webhookId) ?? 0;
    return count === 0 ? [] : [{ webhookId: state.webhookId, count, failing: state.failing }];
  });
}

/** Ids of up to `limit` deliveries due at `now` that nobody holds, of one target or any. */
export function dueDeliveries(
  db: Kysely<CatalogDatabase>,
  now: number,
  limit: number,
  webhookId?: string,
) {
  let query = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', sql.lit('pending'))
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));
  if (webhookId !== undefined) query = query.where('webhook_id', '=', webhookId);
  return query.orderBy('next_attempt_at').orderBy('id').limit(limit);
}

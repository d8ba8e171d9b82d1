/**
 * provider_b `/plans` documents for the replica suite, derived from the bundled snapshot with
 * every price multiplied by a factor, so each sync brings a catalogue that differs from the one
 * before in every record and "old" and "new" can be told apart row by row.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { regionsOf } from '../../src/catalog/model.js';

const SNAPSHOT = fileURLToPath(
  new URL('../fixtures/snapshots/provider_b/plans.json', import.meta.url),
);
const ASIAN_CODES = new Set(regionsOf('provider_b').map((r) => r.regionCode));

interface Plan {
  readonly id: string;
  readonly monthly_cost: number;
  readonly hourly_cost: number;
  readonly locations: readonly string[];
  readonly [field: string]: unknown;
}

function isPlan(value: unknown): value is Plan {
  if (typeof value !== 'object' || value === null) return false;
  const plan = value as Record<string, unknown>;
  return (
    typeof plan['id'] === 'string' &&
    typeof plan['monthly_cost'] === 'number' &&
    typeof plan['hourly_cost'] === 'number' &&
    Array.isArray(plan['locations']) &&
    plan['locations'].every((l) => typeof l === 'string')
  );
}

function snapshotPlans(): Plan[] {
  const document: unknown = JSON.parse(readFileSync(SNAPSHOT, 'utf8'));
  const plans = (document as { plans?: unknown }).plans;
  if (!Array.isArray(plans) || !plans.every(isPlan)) {
    throw new Error(`${SNAPSHOT} is not a provider_b plans document`);
  }
  return plans;
}

const round = (value: number, decimals: number) =>
  Math.round(value * 10 ** decimals) / 10 ** decimals;

export interface PlansDocument {
  /** The `/plans` page to serve (a single page: `meta.links.next` is empty). */
  readonly body: unknown;
  /** `<plan id>@<region code>` -> monthly price in USD, for every Asian record it yields. */
  readonly expectedMonthly: ReadonlyMap<string, number>;
}

/**
 * The snapshot's plans sold in at least one of our regions (the first `count`, default all)
 * with prices times `factor`. Plans sold elsewhere only would yield no record: a document of
 * those alone is refused as empty.
 */
export function providerBPlans(factor: number, count?: number): PlansDocument {
  const plans = snapshotPlans()
    .filter((plan) => plan.locations.some((code) => ASIAN_CODES.has(code)))
    .slice(0, count)
    .map((plan) => ({
      ...plan,
      monthly_cost: round(plan.monthly_cost * factor, 2),
      hourly_cost: round(plan.hourly_cost * factor, 3),
    }));
  const expectedMonthly = new Map<string, number>();
  for (const plan of plans) {
    for (const code of plan.locations) {
      if (ASIAN_CODES.has(code)) expectedMonthly.set(`${plan.id}@${code}`, plan.monthly_cost);
    }
  }
  return {
    body: { plans, meta: { total: plans.length, links: { next: '', prev: '' } } },
    expectedMonthly,
  };
}

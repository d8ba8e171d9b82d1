// Ranking (D28-D30): filter the candidates that fit, score them, order them, keep one record per
// (provider, instance type) and cut to the limit. Runs per request over the whole candidate set
// (~1,500 records), so it is linear apart from one sort of the distinct instance types.

import type { ProviderName } from '../catalog/model.js';
import type { InstanceRow } from '../storage/catalog-store.js';
import { scoreParts } from './score.js';
import type { ScoreCriteria, ScoreParts } from './score.js';

export const DEFAULT_RECOMMEND_LIMIT = 10;
export const MAX_RECOMMEND_LIMIT = 50;

/** Weights of the tie-break value (D29). */
export const TIE_BREAK_WEIGHTS = Object.freeze({
  memory: 0.4,
  vcpu: 0.3,
  price: 0.2,
  storage: 0.1,
});

/** The fields ranking and presentation read; every InstanceRow satisfies it. */
export type Candidate = Pick<
  InstanceRow,
  | 'id'
  | 'providerName'
  | 'instanceId'
  | 'instanceName'
  | 'regionCode'
  | 'regionName'
  | 'vcpu'
  | 'memoryMb'
  | 'storageGb'
  | 'transferTb'
  | 'gpuCount'
  | 'gpuType'
  | 'monthlyMicros'
  | 'hourlyMicros'
>;

export interface RankCriteria extends ScoreCriteria {
  /** How many recommendations at most; default 10. */
  readonly limit?: number;
  /** Only these providers, when given. */
  readonly providers?: readonly ProviderName[];
  /** Only these region codes, when given. */
  readonly regions?: readonly string[];
}

/** Normalisation bounds over the matching set (every record that passes the filters). */
export interface TieBreakBounds {
  readonly minMonthlyMicros: number;
  readonly maxMonthlyMicros: number;
  readonly maxStorageGb: number;
}

export interface ScoredCandidate<C extends Candidate = Candidate> {
  readonly candidate: C;
  readonly parts: ScoreParts;
  /** D29 tie-break value in 0..1, higher is better. */
  readonly tieBreak: number;
}

export interface RankedCandidate<C extends Candidate = Candidate> extends ScoredCandidate<C> {
  /** 1..n in list order. */
  readonly rank: number;
}

export interface RankResult<C extends Candidate = Candidate> {
  readonly ranked: readonly RankedCandidate<C>[];
  /**
   * Monthly prices (micro-dollars) of every matching record, ascending: the set that price
   * positions in pros/cons refer to. Its length is the number of matching options.
   */
  readonly matchingMonthlyMicros: Float64Array;
}

/** True when the record passes the D28 memory rule and the optional filters (D30). */
export function isMatching(
  c: Candidate,
  minMemoryMb: number,
  providers: ReadonlySet<string> | null,
  regions: ReadonlySet<string> | null,
): boolean {
  return (
    c.memoryMb >= minMemoryMb &&
    (providers === null || providers.has(c.providerName)) &&
    (regions === null || regions.has(c.regionCode))
  );
}

/**
 * The D29 tie-break value:
 *   0.4 x memory fit  (minMemoryMb / memoryMb, in (0, 1] for a fitting record)
 * + 0.3 x vCPU fit    (min(vcpu / minVcpu, 1))
 * + 0.2 x price fit   ((max - monthly) / (max - min) over the matching set; 1 when all equal)
 * + 0.1 x storage fit (storageGb / max storageGb of the matching set; 0 when that max is 0)
 * evaluated in this order in IEEE double arithmetic.
 */
export function tieBreakValue(
  c: Candidate,
  minMemoryMb: number,
  minVcpu: number,
  bounds: TieBreakBounds,
): number {
  const memoryFit = minMemoryMb / c.memoryMb;
  const vcpuFit = Math.min(c.vcpu / minVcpu, 1);
  const priceSpan = bounds.maxMonthlyMicros - bounds.minMonthlyMicros;
  const priceFit = priceSpan === 0 ? 1 : (bounds.maxMonthlyMicros - c.monthlyMicros) / priceSpan;
  const storageFit = bounds.maxStorageGb > 0 ? c.storageGb / bounds.maxStorageGb : 0;
  return (
    TIE_BREAK_WEIGHTS.memory * memoryFit +
    TIE_BREAK_WEIGHTS.vcpu * vcpuFit +
    TIE_BREAK_WEIGHTS.price * priceFit +
    TIE_BREAK_WEIGHTS.storage * storageFit
  );
}

/**
 * The recommendation order, negative when `a` comes first: match_score descending, tie-break
 * value descending, monthly price ascending, record id ascending (a total order: ids are unique).
 */
export function compareScored(a: ScoredCandidate, b: ScoredCandidate): number {
  return (
    b.parts.score - a.parts.score ||
    b.tieBreak - a.tieBreak ||
    a.candidate.monthlyMicros - b.candidate.monthlyMicros ||
    a.candidate.id - b.candidate.id
  );
}

export function recommend<C extends Candidate>(
  candidates: readonly C[],
  criteria: RankCriteria,
): RankResult<C> {
  const { minMemoryMb, minVcpu } = criteria;
  const providers = criteria.providers ? new Set<string>(criteria.providers) : null;
  const regions = criteria.regions ? new Set(criteria.regions) : null;

  // Pass 1: the matching set and its normalisation bounds.
  const matching: C[] = [];
  let minMonthlyMicros = Infinity;
  let maxMonthlyMicros = -Infinity;
  let maxStorageGb = 0;
  for (const c of candidates) {
    if (!isMatching(c, minMemoryMb, providers, regions)) continue;
    matching.push(c);
    if (c.monthlyMicros < minMonthlyMicros) minMonthlyMicros = c.monthlyMicros;
    if (c.monthlyMicros > maxMonthlyMicros) maxMonthlyMicros = c.monthlyMicros;
    if (c.storageGb > maxStorageGb) maxStorageGb = c.storageGb;
  }
  const bounds: TieBreakBounds = { minMonthlyMicros, maxMonthlyMicros, maxStorageGb };

  // Pass 2: score each record and keep, per (provider, instance type), the record that comes
  // first in the full order. Keeping each group's minimum and then sorting the minima gives the
  // same list as sorting everything and dropping later duplicates, at less cost.
  const prices = new Float64Array(matching.length);
  const best = new Map<string, Map<string, ScoredCandidate<C>>>();
  let index = 0;
  for (const c of matching) {
    prices[index] = c.monthlyMicros;
    index += 1;
    const scored: ScoredCandidate<C> = {
      candidate: c,
      parts: scoreParts(c, criteria),
      tieBreak: tieBreakValue(c, minMemoryMb, minVcpu, bounds),
    };
    let byInstance = best.get(c.providerName);
    if (byInstance === undefined) {
      byInstance = new Map();
      best.set(c.providerName, byInstance);
    }
    const previous = byInstance.get(c.instanceId);
    if (previous === undefined || compareScored(scored, previous) < 0) {
      byInstance.set(c.instanceId, scored);
    }
  }
  prices.sort();

  const winners: ScoredCandidate<C>[] = [];
  for (const byInstance of best.values()) winners.push(...byInstance.values());
  winners.sort(compareScored);
  const limit = criteria.limit ?? DEFAULT_RECOMMEND_LIMIT;
  const ranked = winners.slice(0, limit).map((s, i) => ({ ...s, rank: i + 1 }));
  return { ranked, matchingMonthlyMicros: prices };
}

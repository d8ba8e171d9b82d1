// The straightforward form of ranking, kept only as the oracle the fast path in
// src/recommend/rank.ts is tested against (src/recommend/rank.equivalence.test.ts): one scored
// object per record, maps keyed by provider and instance type, a sort of every group's best.
import {
  compareScored,
  DEFAULT_RECOMMEND_LIMIT,
  isMatching,
  tieBreakValue,
  type Candidate,
  type RankCriteria,
  type RankResult,
  type ScoredCandidate,
  type TieBreakBounds,
} from '../../src/recommend/rank.js';
import { scoreParts } from '../../src/recommend/score.js';

/**
 * The straightforward form of `recommend` (one scored object per record, maps keyed by
 * provider and instance type, a sort of every group's best): the reference the fast path is
 * tested against (rank.equivalence.test.ts). Same result, more allocation.
 */
export function recommendReference<C extends Candidate>(
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

// Ranking (D28-D30): filter the candidates that fit, score them, order them, keep one record per
// (provider, instance type) and cut to the limit. For the index's frozen candidate lists, what
// does not depend on the budget (the matching set, base scores, tie-break values, their order)
// is made once per list and requirement, and a request walks that order level by level with its
// budget applied, reading about `limit` records (a budget slider sends a new budget_max every
// step). Other lists, and any list with a value that is not finite, are ranked from every record:
// scores in reused typed columns, the (provider, instance type) groups numbered once per list.

import type { ProviderName } from '../catalog/model.js';
import type { InstanceRow } from '../storage/catalog-store.js';
import { OVER_BUDGET_PENALTY, VCPU_SHORTFALL_PENALTY, memoryPoints, scoreParts } from './score.js';
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
   * positions in pros/cons refer to. Its length is the number of matching options. Read only:
   * it may be shared with other answers over the same list and requirement.
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

/**
 * Per candidate list, what does not depend on the request: the numbers ranking reads as typed
 * columns, and each record's (provider, instance type) group as a small integer, numbered by
 * first appearance. Only frozen lists are
 * remembered (the index hands out frozen, memoised lists, one set per catalogue version), so a
 * list cannot change under its entry; a WeakMap lets it go with its index.
 */
interface ListGroups {
  readonly memoryMb: Float64Array;
  readonly vcpu: Float64Array;
  readonly storageGb: Float64Array;
  readonly monthlyMicros: Float64Array;
  /** Group number of each position. */
  readonly group: Int32Array;
  /** Provider number (by first appearance) of each group. */
  readonly providerOf: Int32Array;
  readonly groupCount: number;
  readonly providerCount: number;
}

const groupsOfList = new WeakMap<readonly Candidate[], ListGroups>();

function listGroups(candidates: readonly Candidate[]): ListGroups {
  const known = groupsOfList.get(candidates);
  if (known !== undefined) return known;
  const n = candidates.length;
  const group = new Int32Array(n);
  const memoryMb = new Float64Array(n);
  const vcpu = new Float64Array(n);
  const storageGb = new Float64Array(n);
  const monthlyMicros = new Float64Array(n);
  const providerNumbers = new Map<string, number>();
  const groupNumbers = new Map<string, Map<string, number>>();
  const providerOfGroup: number[] = [];
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    let byInstance = groupNumbers.get(c.providerName);
    if (byInstance === undefined) {
      byInstance = new Map();
      groupNumbers.set(c.providerName, byInstance);
      providerNumbers.set(c.providerName, providerNumbers.size);
    }
    let g = byInstance.get(c.instanceId);
    if (g === undefined) {
      g = providerOfGroup.length;
      byInstance.set(c.instanceId, g);
      providerOfGroup.push(providerNumbers.get(c.providerName)!);
    }
    group[i] = g;
    memoryMb[i] = c.memoryMb;
    vcpu[i] = c.vcpu;
    storageGb[i] = c.storageGb;
    monthlyMicros[i] = c.monthlyMicros;
  }
  const groups: ListGroups = {
    memoryMb,
    vcpu,
    storageGb,
    monthlyMicros,
    group,
    providerOf: Int32Array.from(providerOfGroup),
    groupCount: providerOfGroup.length,
    providerCount: providerNumbers.size,
  };
  if (Object.isFrozen(candidates)) groupsOfList.set(candidates, groups);
  return groups;
}

/** match_score of a record: the same arithmetic as scoreParts(...).score, without the object. */
function scoreOf(
  memoryMb: number,
  vcpu: number,
  monthlyMicros: number,
  criteria: ScoreCriteria,
): number {
  const points = memoryPoints(memoryMb, criteria.minMemoryMb);
  const vcpuShort = vcpu < criteria.minVcpu;
  const overBudget =
    criteria.budgetMaxMicros !== undefined && monthlyMicros > criteria.budgetMaxMicros;
  const raw =
    points - (vcpuShort ? VCPU_SHORTFALL_PENALTY : 0) - (overBudget ? OVER_BUDGET_PENALTY : 0);
  return Math.min(100, Math.max(0, raw));
}

/**
 * What ranking reads that does not depend on the budget, per frozen candidate list and
 * requirement (minimum memory and vCPU, providers, regions): the matching records in the order
 * of their score before the budget penalty ("base": memory points minus the vCPU penalty),
 * then tie-break value, price and id; where each base score starts in that order; the
 * tie-break value of each position; the matching prices ascending. A budget only takes
 * OVER_BUDGET_PENALTY off the records above it, so the final order interleaves, level by
 * level, the in-budget records of one base score with the over-budget records of the base
 * score OVER_BUDGET_PENALTY above it, each already in order (`walkInFinalOrder`). A new
 * budget_max then reads about `limit` records instead of scoring every one (a budget slider).
 */
interface BudgetFreeRanking {
  readonly order: Int32Array;
  /** Distinct base scores, descending; order[levelStart[k] .. levelStart[k + 1]) have levelScore[k]. */
  readonly levelScore: readonly number[];
  readonly levelStart: Int32Array;
  /**
   * The final scores a budget can give, highest first, each with the base levels it merges:
   * `inBudget` (base = final) and `overBudget` (base = final + OVER_BUDGET_PENALTY), -1 for none.
   */
  readonly finals: readonly { readonly inBudget: number; readonly overBudget: number }[];
  /** Tie-break value by position (only matching positions are set). */
  readonly tie: Float64Array;
  readonly monthly: Float64Array;
  readonly prices: Float64Array;
}

/** Per frozen list: its rankings by requirement, at most RANKINGS_PER_LIST (oldest dropped). */
const rankingsOfList = new WeakMap<readonly Candidate[], Map<string, BudgetFreeRanking | null>>();
const RANKINGS_PER_LIST = 16;

/**
 * The list's budget-free ranking for `criteria`, made on first use; undefined when the walk
 * cannot reproduce the sort: a value that is not finite (no total order), or a base score the
 * penalty would take out of 0..100 (the clamp would merge levels).
 */
function budgetFreeRanking(
  candidates: readonly Candidate[],
  criteria: RankCriteria,
): BudgetFreeRanking | undefined {
  const key = [
    criteria.minMemoryMb,
    criteria.minVcpu,
    criteria.providers === undefined ? '*' : [...criteria.providers].sort().join('|'),
    criteria.regions === undefined ? '*' : [...criteria.regions].sort().join('|'),
  ].join(' ');
  let byKey = rankingsOfList.get(candidates);
  if (byKey === undefined) {
    byKey = new Map();
    rankingsOfList.set(candidates, byKey);
  }
  let ranking = byKey.get(key);
  if (ranking === undefined) {
    ranking = makeBudgetFreeRanking(candidates, criteria) ?? null;
    if (byKey.size >= RANKINGS_PER_LIST) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, ranking);
  }
  return ranking ?? undefined;
}

function makeBudgetFreeRanking(
  candidates: readonly Candidate[],
  criteria: RankCriteria,
): BudgetFreeRanking | undefined {
  const { minMemoryMb, minVcpu } = criteria;
  const providers = criteria.providers ? new Set<string>(criteria.providers) : null;
  const regions = criteria.regions ? new Set(criteria.regions) : null;
  const columns = listGroups(candidates);
  const { memoryMb: memory, vcpu: vcpus, storageGb: storage, monthlyMicros: monthly } = columns;
  const matched: number[] = [];
  let minMonthlyMicros = Infinity;
  let maxMonthlyMicros = -Infinity;
  let maxStorageGb = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (!isMatching(candidates[i]!, minMemoryMb, providers, regions)) continue;
    matched.push(i);
    const price = monthly[i] as number;
    if (price < minMonthlyMicros) minMonthlyMicros = price;
    if (price > maxMonthlyMicros) maxMonthlyMicros = price;
    if ((storage[i] as number) > maxStorageGb) maxStorageGb = storage[i] as number;
  }
  const base = new Float64Array(candidates.length);
  const tie = new Float64Array(candidates.length);
  const bounds = { minMonthlyMicros, maxMonthlyMicros, maxStorageGb };
  for (const i of matched) {
    const c = candidates[i]!;
    base[i] = scoreOf(memory[i] as number, vcpus[i] as number, 0, { minMemoryMb, minVcpu });
    tie[i] = tieBreakValue(c, minMemoryMb, minVcpu, bounds);
    const b = base[i];
    if (!Number.isFinite(tie[i]) || !Number.isFinite(monthly[i])) return undefined;
    if (b > 100 || b - OVER_BUDGET_PENALTY < 0) return undefined;
  }
  matched.sort(
    (i, j) =>
      (base[j] as number) - (base[i] as number) ||
      (tie[j] as number) - (tie[i] as number) ||
      (monthly[i] as number) - (monthly[j] as number) ||
      candidates[i]!.id - candidates[j]!.id,
  );
  const levelScore: number[] = [];
  const starts: number[] = [];
  matched.forEach((i, k) => {
    if (k === 0 || base[i] !== base[matched[k - 1]!]) {
      levelScore.push(base[i] as number);
      starts.push(k);
    }
  });
  starts.push(matched.length);
  const prices = Float64Array.from(matched, (i) => monthly[i] as number).sort();
  const finals = [...new Set(levelScore.flatMap((b) => [b, b - OVER_BUDGET_PENALTY]))]
    .sort((x, y) => y - x)
    .map((final) => ({
      inBudget: levelScore.indexOf(final),
      overBudget: levelScore.indexOf(final + OVER_BUDGET_PENALTY),
    }));
  return {
    order: Int32Array.from(matched),
    levelScore,
    levelStart: Int32Array.from(starts),
    finals,
    tie,
    monthly,
    prices,
  };
}

let takenStamps = new Uint32Array(0);
let lastStamp = 0;

/** A stamp no group carries: 1, 2, ...; at the wrap every mark is cleared. */
function nextStamp(): number {
  if (lastStamp === 0xffffffff) {
    takenStamps.fill(0);
    lastStamp = 0;
  }
  return ++lastStamp;
}

/**
 * The first `limit` groups' best records in the final order (match_score descending, tie-break
 * value descending, price ascending, id ascending) with `budget` applied: for each final score,
 * highest first, the in-budget records of that base score merged with the over-budget records
 * of the base score OVER_BUDGET_PENALTY above, both already ordered by tie-break value, price
 * and id. The first record seen of a group is its best.
 */
function walkInFinalOrder(
  ranking: BudgetFreeRanking,
  groups: ListGroups,
  budget: number | undefined,
  limit: number,
): number[] {
  const { order, levelStart, finals, tie, monthly } = ranking;
  const out: number[] = [];
  if (limit <= 0) return out;
  // Groups taken by this call: those marked with this call's stamp (no array per request).
  if (takenStamps.length < groups.groupCount) takenStamps = new Uint32Array(groups.groupCount);
  const taken = takenStamps;
  const stamp = nextStamp();
  const { group } = groups;
  const take = (i: number): boolean => {
    const g = group[i]!;
    if (taken[g] !== stamp) {
      taken[g] = stamp;
      out.push(i);
    }
    return out.length >= limit;
  };
  if (budget === undefined) {
    for (const i of order) if (take(i)) break;
    return out;
  }
  // i in budget, j over it (or the reverse), same final score: tie-break value descending, then
  // price ascending. Their prices are never equal (one is within the budget, the other above),
  // so the id never decides.
  const before = (i: number, j: number): boolean =>
    (tie[i] as number) - (tie[j] as number) > 0 ||
    (tie[i] === tie[j] && (monthly[i] as number) < (monthly[j] as number));
  for (const { inBudget: a, overBudget: b } of finals) {
    // In budget at this base score; over budget one penalty above.
    let pa = a < 0 ? 0 : levelStart[a]!;
    const endA = a < 0 ? 0 : levelStart[a + 1]!;
    let pb = b < 0 ? 0 : levelStart[b]!;
    const endB = b < 0 ? 0 : levelStart[b + 1]!;
    for (;;) {
      while (pa < endA && (monthly[order[pa]!] as number) > budget) pa++;
      while (pb < endB && (monthly[order[pb]!] as number) <= budget) pb++;
      if (pa >= endA && pb >= endB) break;
      const next =
        pb >= endB || (pa < endA && before(order[pa]!, order[pb]!)) ? order[pa++]! : order[pb++]!;
      if (take(next)) return out;
    }
  }
  return out;
}

// Scratch columns reused by every call (ranking is synchronous, so calls never overlap).
let scoreScratch = new Float64Array(0);
let tieScratch = new Float64Array(0);
let matchScratch = new Int32Array(0);

/**
 * The first `limit` entries of `items` sorted by `compare`, as `items.sort(compare).slice(0,
 * limit)` gives them. When `exact` (every score, tie-break value and price finite, so `compare`
 * is a consistent total order on distinct ids, and equal entries keep their input order as the
 * stable sort keeps them), by insertion into a sorted list of at most `limit` entries: an entry
 * that is not before the current last one is dropped after one comparison. Otherwise the sort.
 */
function firstInOrder(
  items: number[],
  limit: number,
  compare: (a: number, b: number) => number,
  exact: boolean,
): number[] {
  if (!exact || limit >= items.length) return items.sort(compare).slice(0, limit);
  const top: number[] = [];
  if (limit <= 0) return top;
  for (const item of items) {
    if (top.length === limit && compare(item, top[limit - 1]!) >= 0) continue;
    // After every entry it is not before (stability), before the first it is before.
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(item, top[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    top.splice(lo, 0, item);
    if (top.length > limit) top.pop();
  }
  return top;
}

/**
 * The recommendation list (D28-D30) and the matching prices. Gives exactly what the reference
 * form (test/support/rank-reference.ts) gives, with per-request work in typed columns: each
 * (provider, instance type) group is a number precomputed per candidate list, each record's
 * score and tie-break value a slot in a scratch column; objects are made only for the records
 * returned. The groups' winners are sorted in the order the reference's maps would list them
 * (providers, then instance types, by first appearance among the matching records) with the
 * same comparison, so the sort sees the same input and gives the same output.
 */
export function recommend<C extends Candidate>(
  candidates: readonly C[],
  criteria: RankCriteria,
): RankResult<C> {
  const prepared = Object.isFrozen(candidates)
    ? budgetFreeRanking(candidates, criteria)
    : undefined;
  if (prepared === undefined) return rankEveryRecord(candidates, criteria);
  const limit = criteria.limit ?? DEFAULT_RECOMMEND_LIMIT;
  const ranked = walkInFinalOrder(
    prepared,
    listGroups(candidates),
    criteria.budgetMaxMicros,
    limit,
  ).map((i, r): RankedCandidate<C> => {
    const c = candidates[i]!;
    return {
      candidate: c,
      parts: scoreParts(c, criteria),
      tieBreak: prepared.tie[i] as number,
      rank: r + 1,
    };
  });
  // Shared by every request of this list and requirement (RankResult: read, never changed).
  return { ranked, matchingMonthlyMicros: prepared.prices };
}

/**
 * The recommendation list computed from every matching record: scores and tie-break values in
 * scratch columns, each group's best, the winners ordered. Used for lists that are not frozen
 * (nothing can be remembered for them) and when some value is not finite (then the order is
 * the sort's, not a total order the walk of `walkInFinalOrder` can follow).
 */
function rankEveryRecord<C extends Candidate>(
  candidates: readonly C[],
  criteria: RankCriteria,
): RankResult<C> {
  const { minMemoryMb, minVcpu } = criteria;
  const providers = criteria.providers ? new Set<string>(criteria.providers) : null;
  const regions = criteria.regions ? new Set(criteria.regions) : null;
  const n = candidates.length;
  if (matchScratch.length < n) {
    matchScratch = new Int32Array(n);
    scoreScratch = new Float64Array(n);
    tieScratch = new Float64Array(n);
  }
  const matched = matchScratch;

  const columns = listGroups(candidates);
  const { group, providerOf, groupCount, providerCount } = columns;
  const memory = columns.memoryMb;
  const vcpus = columns.vcpu;
  const storage = columns.storageGb;
  const monthly = columns.monthlyMicros;

  // Pass 1: the matching set (positions) and its normalisation bounds.
  let count = 0;
  let minMonthlyMicros = Infinity;
  let maxMonthlyMicros = -Infinity;
  let maxStorageGb = 0;
  for (let i = 0; i < n; i++) {
    // isMatching, reading the columns (the sets only when given).
    if (!((memory[i] as number) >= minMemoryMb)) continue;
    if (providers !== null || regions !== null) {
      if (!isMatching(candidates[i]!, minMemoryMb, providers, regions)) continue;
    }
    matched[count++] = i;
    const price = monthly[i] as number;
    if (price < minMonthlyMicros) minMonthlyMicros = price;
    if (price > maxMonthlyMicros) maxMonthlyMicros = price;
    if ((storage[i] as number) > maxStorageGb) maxStorageGb = storage[i] as number;
  }
  // tieBreakValue's terms, with the request's constants taken out of the loop.
  const priceSpan = maxMonthlyMicros - minMonthlyMicros;

  // Pass 2: score each matching record; keep, per group, the position that comes first.
  const best = new Int32Array(groupCount).fill(-1);
  const groupsSeen: number[] = [];
  const providersSeen: number[] = [];
  const providerSeen = new Uint8Array(providerCount);
  const score = scoreScratch;
  const tie = tieScratch;
  const compare = (i: number, j: number): number =>
    (score[j] as number) - (score[i] as number) ||
    (tie[j] as number) - (tie[i] as number) ||
    (monthly[i] as number) - (monthly[j] as number) ||
    candidates[i]!.id - candidates[j]!.id;
  const prices = new Float64Array(count);
  let sorted = true;
  let allFinite = true;
  let previousPrice = -Infinity;
  for (let k = 0; k < count; k++) {
    const i = matched[k]!;
    const price = monthly[i] as number;
    const memoryMb = memory[i] as number;
    const vcpu = vcpus[i] as number;
    prices[k] = price;
    // Already ascending (the index's lists are) unless a NaN, a -0 or a step down says otherwise.
    if (!(previousPrice <= price) || (price === 0 && 1 / price < 0)) sorted = false;
    previousPrice = price;
    score[i] = scoreOf(memoryMb, vcpu, price, criteria);
    // Exactly tieBreakValue's expression, term by term in the same order.
    const memoryFit = minMemoryMb / memoryMb;
    const vcpuFit = Math.min(vcpu / minVcpu, 1);
    const priceFit = priceSpan === 0 ? 1 : (maxMonthlyMicros - price) / priceSpan;
    const storageFit = maxStorageGb > 0 ? (storage[i] as number) / maxStorageGb : 0;
    tie[i] =
      TIE_BREAK_WEIGHTS.memory * memoryFit +
      TIE_BREAK_WEIGHTS.vcpu * vcpuFit +
      TIE_BREAK_WEIGHTS.price * priceFit +
      TIE_BREAK_WEIGHTS.storage * storageFit;
    if (!Number.isFinite(tie[i]) || !Number.isFinite(price)) allFinite = false;
    const g = group[i]!;
    const previous = best[g]!;
    if (previous === -1) {
      best[g] = i;
      groupsSeen.push(g);
      const p = providerOf[g]!;
      if (providerSeen[p] === 0) {
        providerSeen[p] = 1;
        providersSeen.push(p);
      }
    } else {
      // compare(i, previous) < 0, with the score step inline (it decides most pairs).
      const byScore = (score[previous] as number) - score[i];
      if (byScore < 0 || (byScore === 0 && compare(i, previous) < 0)) best[g] = i;
    }
  }
  if (!sorted) prices.sort();

  const winners: number[] = [];
  for (const p of providersSeen) {
    for (const g of groupsSeen) if (providerOf[g] === p) winners.push(best[g]!);
  }
  const limit = criteria.limit ?? DEFAULT_RECOMMEND_LIMIT;
  const ranked = firstInOrder(winners, limit, compare, allFinite).map(
    (i, r): RankedCandidate<C> => {
      const c = candidates[i]!;
      return {
        candidate: c,
        parts: scoreParts(c, criteria),
        tieBreak: tie[i] as number,
        rank: r + 1,
      };
    },
  );
  return { ranked, matchingMonthlyMicros: prices };
}

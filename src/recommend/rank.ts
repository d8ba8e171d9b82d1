// Ranking (D28, D30, D58), read top to bottom: keep the candidates that fit the request, score
// each (match_score, D28) and measure its fits (D58, fits.ts), keep the best record of each
// (provider, instance type) in the order of one comparator, cut to the limit.

import {
  recordColumns,
  type PriceOrdered,
  type RecordColumns,
} from '../catalog/index/record-columns.js';
import type { ProviderName } from '../catalog/model.js';
import type { InstanceRow } from '../catalog/records.js';
import type { CpuAllocation, CpuArchitecture } from '../catalog/machine-facts.js';
import { fitsOf, tieBreakOf, type Fits } from './fits.js';
import { matchScore, scoreParts, type ScoreCriteria, type ScoreParts } from './score.js';

export const DEFAULT_RECOMMEND_LIMIT = 10;
export const MAX_RECOMMEND_LIMIT = 50;

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
  | 'observedAt'
  | 'facts'
  | 'purchaseOption'
  | 'spotAdvice'
>;

/** D67: the order of the list. */
export const RANK_BY = ['fit', 'price', 'performance_per_price'] as const;
export type RankBy = (typeof RANK_BY)[number];

export interface RankCriteria extends ScoreCriteria {
  /** How many recommendations at most; default 10. */
  readonly limit?: number;
  /** Only these providers, when given. */
  readonly providers?: readonly ProviderName[];
  /** Only these region codes, when given. */
  readonly regions?: readonly string[];
  /** D62: only these CPU architectures / allocations, when given (a null fact never matches). */
  readonly architectures?: readonly CpuArchitecture[];
  readonly allocations?: readonly CpuAllocation[];
  /** D67: `fit` (D28, D58; the default), `price` or `performance_per_price`. */
  readonly rankBy?: RankBy;
}

/** D67's summary of a request's candidates. */
export interface RankSummary<C extends Candidate = Candidate> {
  /** Records passing the filters and the memory floor (D28), over budget included. */
  readonly candidates: number;
  /** Of those, within budget_max (all of them without one). */
  readonly withinBudget: number;
  /** The cheapest record meeting memory, vCPU and budget, if any. */
  readonly cheapestMeetingRequirements: C | undefined;
}

export interface ScoredCandidate<C extends Candidate = Candidate> {
  readonly candidate: C;
  readonly parts: ScoreParts;
  readonly fits: Fits;
}

export interface RankedCandidate<C extends Candidate = Candidate> extends ScoredCandidate<C> {
  /** 1..n in list order. */
  readonly rank: number;
}

export interface RankResult<C extends Candidate = Candidate> {
  readonly ranked: readonly RankedCandidate<C>[];
  /** The lowest monthly price among the request's candidates (filters applied, memory floor
   *  met, over budget included), micro-dollars; undefined when there are none. */
  readonly cheapestMonthlyMicros: number | undefined;
  /** Monthly prices, ascending, that pros and cons count options among: within budget_max
   *  when one is given, else every candidate's (D58). */
  readonly countedMonthlyMicros: readonly number[];
  readonly summary: RankSummary<C>;
}

/** True when the record is of a provider and in a region the request allows (D30). */
function passesFilters(c: Candidate, criteria: RankCriteria): boolean {
  return (
    (criteria.providers === undefined || criteria.providers.includes(c.providerName)) &&
    (criteria.regions === undefined || criteria.regions.includes(c.regionCode)) &&
    passesFacts(c, criteria)
  );
}

/** D62's filters: the same for every record of a spec (facts belong to the instance type). */
function passesFacts(c: Candidate, criteria: RankCriteria): boolean {
  const { architectures, allocations } = criteria;
  // Without these filters the record is not read: a pass over every record within a budget
  // would otherwise load each row's facts from memory (tens of thousands at world size).
  if (architectures === undefined && allocations === undefined) return true;
  const { cpuArchitecture, cpuAllocation } = c.facts;
  return (
    (architectures === undefined ||
      (cpuArchitecture !== null && architectures.includes(cpuArchitecture))) &&
    (allocations === undefined || (cpuAllocation !== null && allocations.includes(cpuAllocation)))
  );
}

/**
 * A record kept for the list, with the numbers the order reads: its entry in the price order,
 * its row (read for all but prices) and price. It is made priced (a view, under an option) only
 * once the list is final, so records dropped on the way cost no view.
 */
interface Ordered {
  readonly entry: number;
  readonly row: Candidate;
  readonly monthlyMicros: number;
  readonly score: number;
  readonly tieBreak: number;
}

/** The recommendation list (D28, D30, D58) and what pros and cons compare with. */
export function recommend<C extends Candidate>(
  /** The candidates: any list (sorted here), or already in price order with their columns
   *  (CatalogIndex.byMonthlyPrice: its rows are read for all but prices, `priced` kept). */
  list: readonly C[] | PriceOrdered<C>,
  criteria: RankCriteria,
): RankResult<C> {
  // The walks read the records cheapest first, as the index hands them (byMonthlyPrice): the
  // cheapest candidate is the first, and the prices within a budget come before all others.
  // Prices come from the columns; a record is read for its other fields, and taken priced.
  const inOrder = inPriceOrder(list);
  const { rows: records, columns } = inOrder;
  const { memoryMb, vcpu, monthlyMicros, storageGb } = columns;
  const budget = criteria.budgetMaxMicros ?? Infinity;
  const limit = criteria.limit ?? DEFAULT_RECOMMEND_LIMIT;
  const { leaders, sizes } = specLeaders(records, columns, criteria);

  // 1. The cheapest candidate (over-budget ones count for it, D58): the first, a spec leader.
  let first = 0;
  while (first < leaders.length && memoryMb[leaders[first]!]! < criteria.minMemoryMb) first += 1;
  if (first === leaders.length) {
    return {
      ranked: [],
      cheapestMonthlyMicros: undefined,
      countedMonthlyMicros: [],
      summary: { candidates: 0, withinBudget: 0, cheapestMeetingRequirements: undefined },
    };
  }
  const cheapest = monthlyMicros[leaders[first]!]!;

  // 2. The prices option counts refer to: every candidate's within the budget when one is
  // given (a prefix of the price order), else every candidate's (D58).
  const countedPrices: number[] = [];
  for (let i = leaders[first]!; i < records.length && monthlyMicros[i]! <= budget; i++) {
    if (isCandidateAt(records, memoryMb, i, criteria)) countedPrices.push(monthlyMicros[i]!);
  }

  // D67 `price` and `performance_per_price`: the leaders meeting vCPU and budget first, in
  // their order; the rest follow in D58's order (step 3, which skips them).
  const rankBy = criteria.rankBy ?? 'fit';
  const leading =
    rankBy === 'fit' ? [] : leadingPlans(inOrder, leaders, first, criteria, budget, limit, rankBy);
  const taken = new Set(leading.map((c) => planKey(c)));
  // Enough to fill the list after dropping the plans already leading (at most all of them).
  const wanted = limit;

  // 3. The best `limit` plans, best first, one record per (provider, instance type), from the
  // spec leaders. The last kept record only ever gets better, so a record that is not before
  // it can be in no answer: most leaders cost one comparison.
  // The same pass makes D67's summary: candidates per spec (a spec's records share memory and
  // facts) and the cheapest leader meeting every requirement (leaders come in price order).
  let candidates = 0;
  let meeting: C | undefined;
  const top: Ordered[] = [];
  for (let k = first; k < leaders.length; k++) {
    const i = leaders[k]!;
    if (memoryMb[i]! < criteria.minMemoryMb) continue;
    candidates += sizes[k]!;
    if (meeting === undefined && vcpu[i]! >= criteria.minVcpu && monthlyMicros[i]! <= budget) {
      meeting = inOrder.priced(i);
    }
    if (rankBy !== 'fit' && vcpu[i]! >= criteria.minVcpu && monthlyMicros[i]! <= budget) continue;
    const last = top[wanted - 1];
    const numbers = {
      memoryMb: memoryMb[i]!,
      vcpu: vcpu[i]!,
      monthlyMicros: monthlyMicros[i]!,
      storageGb: storageGb[i]!,
    };
    const score = matchScore(numbers, criteria);
    if (last !== undefined && score < last.score) continue;
    const tieBreak = tieBreakOf(numbers, criteria, cheapest);
    // compareBest against the last kept, reading the row only on a tie of every number.
    if (last !== undefined) {
      const order = compareNumbers(score, tieBreak, numbers.monthlyMicros, last);
      if (order > 0 || (order === 0 && records[i]!.id >= last.row.id)) continue;
    }
    const row = records[i]!;
    keepBest(top, { entry: i, row, monthlyMicros: numbers.monthlyMicros, score, tieBreak }, wanted);
  }
  const summary: RankSummary<C> = {
    candidates,
    withinBudget: budget === Infinity ? candidates : countedPrices.length,
    cheapestMeetingRequirements: meeting,
  };
  const rest = top.map((o) => inOrder.priced(o.entry)).filter((c) => !taken.has(planKey(c)));
  const ordered = [...leading, ...rest].slice(0, limit);

  // 4. Describe the records kept.
  return {
    ranked: ordered.map((candidate, i): RankedCandidate<C> => ({
      candidate,
      parts: scoreParts(candidate, criteria),
      fits: fitsOf(candidate, criteria, cheapest),
      rank: i + 1,
    })),
    cheapestMonthlyMicros: cheapest,
    countedMonthlyMicros: countedPrices,
    summary,
  };
}

const planKey = (c: Candidate) => `${c.providerName}\n${c.instanceId}`;

/**
 * D67: the plans whose leader meets the vCPU suggestion and the budget, one per (provider,
 * instance type), at most `limit`: cheapest first (`price`), or by CoreMark per USD of monthly
 * price descending with unscored ones after, cheapest first (`performance_per_price`); ties on
 * price then id. A spec's leader is its cheapest record, so it is also its best per price.
 */
function leadingPlans<C extends Candidate>(
  { rows: records, columns, priced }: PriceOrdered<C>,
  leaders: ArrayLike<number>,
  first: number,
  criteria: RankCriteria,
  budget: number,
  limit: number,
  rankBy: Exclude<RankBy, 'fit'>,
): C[] {
  const { memoryMb, vcpu, monthlyMicros } = columns;
  const out: C[] = [];
  const plans = new Set<string>();
  if (rankBy === 'price') {
    // Leaders come in price order: the first `limit` plans met are the answer.
    for (let k = first; k < leaders.length && out.length < limit; k++) {
      const i = leaders[k]!;
      if (monthlyMicros[i]! > budget) break;
      if (memoryMb[i]! < criteria.minMemoryMb || vcpu[i]! < criteria.minVcpu) continue;
      const c = records[i]!;
      if (plans.has(planKey(c))) continue;
      plans.add(planKey(c));
      out.push(priced(i));
    }
    return out;
  }
  const scored: { i: number; ratio: number }[] = [];
  for (let k = first; k < leaders.length; k++) {
    const i = leaders[k]!;
    if (monthlyMicros[i]! > budget) break;
    if (memoryMb[i]! < criteria.minMemoryMb || vcpu[i]! < criteria.minVcpu) continue;
    const c = records[i]!;
    if (plans.has(planKey(c))) continue;
    plans.add(planKey(c));
    const score = c.facts.coremark?.score;
    const monthly = monthlyMicros[i]!;
    // -Infinity: no score (or a free record), after every scored one.
    const ratio = score === undefined || monthly === 0 ? -Infinity : score / monthly;
    scored.push({ i, ratio });
  }
  // Stable: equal ratios (and the unscored) keep price order, which breaks ties on id.
  scored.sort((a, b) => (b.ratio === a.ratio ? 0 : b.ratio > a.ratio ? 1 : -1));
  for (const { i } of scored.slice(0, limit)) out.push(priced(i));
  return out;
}

/**
 * Positions, in price order, of the first record of each spec among the records that pass the
 * provider and region filters (the memory floor is the spec's, so it is checked by the caller).
 * Records of one spec (columns.spec) differ only in price, so the first of them scores and
 * measures at least as well as every later one, and ties on id, which price order keeps
 * ascending: only leaders can enter the list. Without filters they are the columns' own.
 */
function specLeaders(
  records: readonly Candidate[],
  columns: RecordColumns,
  criteria: RankCriteria,
): { leaders: ArrayLike<number>; sizes: ArrayLike<number> } {
  const { spec, specLeaders: all, specSize } = columns;
  if (criteria.providers === undefined && criteria.regions === undefined) {
    if (criteria.architectures === undefined && criteria.allocations === undefined) {
      return { leaders: all, sizes: specSize };
    }
    // D62's filters hold for a whole spec or none of it: filter the leaders only.
    const leaders: number[] = [];
    const sizes: number[] = [];
    for (let k = 0; k < all.length; k++) {
      if (!passesFacts(records[all[k]!]!, criteria)) continue;
      leaders.push(all[k]!);
      sizes.push(specSize[k]!);
    }
    return { leaders, sizes };
  }
  const seen = new Int32Array(all.length).fill(-1);
  const leaders: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const s = spec[i]!;
    const at = seen[s]!;
    if (at >= 0) {
      if (passesFilters(records[i]!, criteria)) sizes[at]! += 1;
      continue;
    }
    if (!passesFilters(records[i]!, criteria)) continue;
    seen[s] = leaders.length;
    leaders.push(i);
    sizes.push(1);
  }
  return { leaders, sizes };
}

/**
 * True when entry i passes D28's memory floor and the request's filters (D30), reading the
 * memory column first. A function, not a closure: a closure over the loop's variables would make
 * V8 allocate a context for each of thousands of records.
 */
function isCandidateAt(
  records: readonly Candidate[],
  memoryMb: Float64Array,
  i: number,
  criteria: RankCriteria,
): boolean {
  return memoryMb[i]! >= criteria.minMemoryMb && passesFilters(records[i]!, criteria);
}

/**
 * Keeps `entry` in `top` (best first, at most `limit`, one record per provider and instance
 * type) when it comes before what is there: it replaces a worse record of its plan, or is
 * dropped for a better one.
 */
function keepBest(top: Ordered[], entry: Ordered, limit: number): void {
  const c = entry.row;
  for (let k = 0; k < top.length; k++) {
    const kept = top[k]!.row;
    if (kept.instanceId !== c.instanceId || kept.providerName !== c.providerName) continue;
    if (compareBest(entry, top[k]!) >= 0) return;
    top.splice(k, 1);
    break;
  }
  let before = 0;
  while (before < top.length && compareBest(entry, top[before]!) >= 0) before += 1;
  top.splice(before, 0, entry);
  if (top.length > limit) top.pop();
}

/**
 * The recommendation order, negative when `a` comes before `b`: match_score descending,
 * tie-break descending, monthly price ascending, record id ascending (a total order: ids are
 * unique).
 */
function compareBest(a: Ordered, b: Ordered): number {
  return compareNumbers(a.score, a.tieBreak, a.monthlyMicros, b) || a.row.id - b.row.id;
}

/** compareBest without the record id: 0 when score, tie-break and price are all equal. */
function compareNumbers(score: number, tieBreak: number, monthly: number, b: Ordered) {
  return b.score - score || b.tieBreak - tieBreak || monthly - b.monthlyMicros;
}

/**
 * The list and its columns cheapest first, equal prices by id: a list in that order with its
 * columns as it is (CatalogIndex.byMonthlyPrice); any other list sorted here.
 */
function inPriceOrder<C extends Candidate>(list: readonly C[] | PriceOrdered<C>): PriceOrdered<C> {
  if (!Array.isArray(list)) return list as PriceOrdered<C>;
  const rows = [...(list as readonly C[])].sort(
    (a, b) => a.monthlyMicros - b.monthlyMicros || a.id - b.id,
  );
  return { rows, columns: recordColumns(rows), priced: (i) => rows[i]! };
}

// pros and cons (D31): short sentences computed from the record's own numbers and its place in
// the matching set; nothing is said that the numbers do not show.

import { usdBudgetText, type BudgetText } from './budget-text.js';
import { formatDecimal, formatMemoryText } from './format.js';
import type { Candidate, ScoredCandidate } from './rank.js';
import { MEMORY_POINTS_OVERSIZED } from './score.js';
import type { ScoreCriteria } from './score.js';

export interface ProsCons {
  readonly pros: readonly string[];
  readonly cons: readonly string[];
}

/** Where a price sits in the ascending list of matching prices. */
export interface PricePosition {
  /** Matching options (records: an instance type in a region). */
  readonly total: number;
  /** Matching options strictly cheaper. */
  readonly cheaper: number;
  /** Matching options strictly dearer. */
  readonly dearer: number;
}

export function pricePosition(
  sortedMonthlyMicros: Float64Array,
  monthlyMicros: number,
): PricePosition {
  const total = sortedMonthlyMicros.length;
  const cheaper = lowerBound(sortedMonthlyMicros, monthlyMicros);
  const notDearer = upperBound(sortedMonthlyMicros, monthlyMicros);
  return { total, cheaper, dearer: total - notDearer };
}

/**
 * The sentences, in a fixed order. Pros: price position, memory, vCPU, budget, transfer, GPU.
 * Cons: price position, memory over 1.5x, vCPU shortfall, budget overrun.
 */
export function prosAndCons(
  scored: ScoredCandidate,
  criteria: ScoreCriteria,
  sortedMonthlyMicros: Float64Array,
  /** Budget sentences in the requested currency (D43); USD by default. */
  budgetText?: BudgetText,
): ProsCons {
  const c: Candidate = scored.candidate;
  const pros: string[] = [];
  const cons: string[] = [];

  const price = priceSentence(pricePosition(sortedMonthlyMicros, c.monthlyMicros));
  if (price?.kind === 'pro') pros.push(price.text);
  if (price?.kind === 'con') cons.push(price.text);

  const required = formatMemoryText(criteria.minMemoryMb);
  const headroom = c.memoryMb - criteria.minMemoryMb;
  pros.push(
    headroom === 0
      ? `${formatMemoryText(c.memoryMb)} memory: exactly the ${required} required`
      : `${formatMemoryText(c.memoryMb)} memory: ${formatMemoryText(headroom)} above the ${required} required`,
  );
  if (scored.parts.memoryPoints === MEMORY_POINTS_OVERSIZED) {
    cons.push(`Memory is more than 1.5x the ${required} required`);
  }

  if (scored.parts.vcpuShort) {
    cons.push(`${c.vcpu} vCPU, below the ${criteria.minVcpu} vCPU suggested`);
  } else {
    const verb = c.vcpu === criteria.minVcpu ? 'meeting' : 'above';
    pros.push(`${c.vcpu} vCPU, ${verb} the ${criteria.minVcpu} vCPU suggested`);
  }

  if (criteria.budgetMaxMicros !== undefined) {
    const text = budgetText ?? usdBudgetText(criteria.budgetMaxMicros);
    const budget = text.budget();
    if (scored.parts.overBudget) {
      cons.push(`${text.over(c.monthlyMicros)}/month over the ${budget} budget`);
    } else {
      pros.push(`${text.price(c.monthlyMicros)}/month, within the ${budget} budget`);
    }
  }

  if (c.transferTb > 0) {
    pros.push(`${formatDecimal(c.transferTb, 3)} TB monthly transfer included`);
  }
  if (c.gpuCount > 0) {
    const model = c.gpuType === null || c.gpuType.trim() === '' ? '' : `${c.gpuType.trim()} `;
    pros.push(`${c.gpuCount}x ${model}GPU`);
  }
  return { pros, cons };
}

/**
 * Price position, with position p = cheaper + 1 (ties share the better place), n = total:
 * n < 2 says nothing; cheaper = 0 is "Lowest monthly price of n matching options";
 * else 10p <= n "Within the cheapest 10% ..."; else 4p <= n "Within the cheapest 25% ...".
 * Without a pro, from the other end (q = dearer + 1): dearer = 0 is "Highest monthly price of n
 * matching options"; 4q <= n "Priced in the most expensive 25% of n matching options".
 */
function priceSentence(pos: PricePosition): { kind: 'pro' | 'con'; text: string } | null {
  const { total: n, cheaper, dearer } = pos;
  if (n < 2) return null;
  const options = `${n} matching options`;
  const p = cheaper + 1;
  if (cheaper === 0) return { kind: 'pro', text: `Lowest monthly price of ${options}` };
  if (p * 10 <= n) return { kind: 'pro', text: `Within the cheapest 10% of ${options}` };
  if (p * 4 <= n) return { kind: 'pro', text: `Within the cheapest 25% of ${options}` };
  const q = dearer + 1;
  if (dearer === 0) return { kind: 'con', text: `Highest monthly price of ${options}` };
  if (q * 4 <= n) return { kind: 'con', text: `Priced in the most expensive 25% of ${options}` };
  return null;
}

/** Count of entries strictly below `value` in an ascending array. */
function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Count of entries at or below `value` in an ascending array. */
function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// pros and cons (D31, D58): short sentences computed from the record's own numbers and from the
// list it is in; nothing is said that the numbers do not show. Money is the response's money:
// amounts compared with rank 1 are the displayed prices in the response currency.

import type { MoneyView } from '../catalog/money-view.js';
import { formatMonthlyMinor, type BudgetText } from './budget-text.js';
import { formatDecimal, formatMemoryText } from './format.js';
import type { Candidate, ScoredCandidate } from './rank.js';
import { MEMORY_POINTS_OVERSIZED } from './score.js';
import type { ScoreCriteria } from './score.js';

export interface ProsCons {
  readonly pros: readonly string[];
  readonly cons: readonly string[];
}

/** What the sentences of one recommendation compare with. */
export interface SentenceContext {
  readonly criteria: ScoreCriteria;
  /**
   * Monthly prices, ascending, of the candidates option counts count: those within budget_max
   * when one is given, else every candidate (D58).
   */
  readonly countedMonthlyMicros: readonly number[];
  /** The rank 1 record of the list. */
  readonly first: Candidate;
  /** Prices as the response shows them (D43). */
  readonly money: MoneyView;
  /** The budget's sentences in the response currency (D43); undefined exactly when the request
   *  has no budget (criteria.budgetMaxMicros). */
  readonly budgetText: BudgetText | undefined;
  /** A price observed at or before this instant (epoch ms) is stale (D57). */
  readonly staleAtOrBefore: number;
}

/** Where a price sits in the ascending list of counted prices. */
export interface PricePosition {
  /** Counted options (records: an instance type in a region). */
  readonly total: number;
  /** Counted options strictly cheaper. */
  readonly cheaper: number;
  /** Counted options strictly dearer. */
  readonly dearer: number;
}

export function pricePosition(
  sortedMonthlyMicros: readonly number[],
  monthlyMicros: number,
): PricePosition {
  const total = sortedMonthlyMicros.length;
  const cheaper = countBelow(sortedMonthlyMicros, monthlyMicros, false);
  const notDearer = countBelow(sortedMonthlyMicros, monthlyMicros, true);
  return { total, cheaper, dearer: total - notDearer };
}

/**
 * The sentences, in a fixed order. Pros: price position, memory, vCPU, budget, transfer, GPU.
 * Cons: dearer than rank 1, price position, memory over 1.5x, vCPU shortfall, budget overrun,
 * no local storage, stale price.
 */
export function prosAndCons(scored: ScoredCandidate, context: SentenceContext): ProsCons {
  const c: Candidate = scored.candidate;
  const { criteria, money } = context;
  const pros: string[] = [];
  const cons: string[] = [];

  const dearer = dearerThanFirst(c, context.first, money);
  if (dearer !== null) cons.push(dearer);

  // Over-budget records are outside the counted options: nothing is said about their place.
  if (!scored.parts.overBudget) {
    const within = criteria.budgetMaxMicros === undefined ? '' : ' within the budget';
    const price = priceSentence(
      pricePosition(context.countedMonthlyMicros, c.monthlyMicros),
      within,
    );
    if (price?.kind === 'pro') pros.push(price.text);
    if (price?.kind === 'con') cons.push(price.text);
  }

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

  const text = context.budgetText;
  if (text !== undefined) {
    const budget = text.budget;
    if (scored.parts.overBudget) {
      cons.push(`${text.over(c.monthlyMicros)}/month over the ${budget} budget`);
    } else {
      pros.push(`${text.price(c.monthlyMicros)}/month, within the ${budget} budget`);
    }
  }

  if (c.storageGb === 0) cons.push('No local storage (block storage is billed separately)');
  // D62: what the CPU asks of the workload.
  if (c.facts.cpuArchitecture === 'arm64') {
    cons.push('Arm (arm64) CPU: images for the whole stack must support Arm');
  }
  if (c.facts.cpuAllocation === 'burstable') {
    cons.push(
      'Burstable CPU: sustained load beyond the baseline is throttled or billed as extra credits',
    );
  }
  // D61: what the selected purchase option asks of the buyer.
  const terms = optionTerms(c);
  if (terms !== undefined) cons.push(terms);
  if (c.observedAt <= context.staleAtOrBefore) {
    cons.push(
      `Price observed on ${new Date(c.observedAt).toISOString().slice(0, 10)}; it may have changed since`,
    );
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
 * "<amount>/month more than rank 1 (+<percent>%)" when the displayed monthly price is above
 * rank 1's: the amount is the difference of the two displayed prices, the percent that amount
 * over rank 1's displayed price, rounded half up to one decimal (left out when rank 1 is free).
 */
function dearerThanFirst(c: Candidate, first: Candidate, money: MoneyView): string | null {
  const own = money.monthlyMinor(c.monthlyMicros);
  const base = money.monthlyMinor(first.monthlyMicros);
  if (own <= base) return null;
  const amount = `${formatMonthlyMinor(money, own - base)}/month more than rank 1`;
  if (base === 0n) return amount;
  // Tenths of a percent, rounded half up: (own - base) x 1000 / base.
  const tenths = ((own - base) * 2000n + base) / (2n * base);
  const percent = tenths === 0n ? '<0.1' : formatDecimal(Number(tenths) / 10, 1);
  return `${amount} (+${percent}%)`;
}

/**
 * Price position, with position p = cheaper + 1 (ties share the better place), n = total:
 * n < 2 says nothing; cheaper = 0 is "Cheapest of n matching options"; else 10p <= n "Priced
 * in the lowest 10% ..."; else 4p <= n "Priced in the lowest 25% ...". Without a pro, from the
 * other end (q = dearer + 1): dearer = 0 is "Highest monthly price of n matching options";
 * 4q <= n "Priced in the highest 25% of n matching options". `within` names the budget when
 * the count is limited to it. Only the cheapest is ever called cheapest.
 */
function priceSentence(
  pos: PricePosition,
  within: string,
): { kind: 'pro' | 'con'; text: string } | null {
  const { total: n, cheaper, dearer } = pos;
  if (n < 2) return null;
  const options = `${n} matching options${within}`;
  const p = cheaper + 1;
  if (cheaper === 0) return { kind: 'pro', text: `Cheapest of ${options}` };
  if (p * 10 <= n) return { kind: 'pro', text: `Priced in the lowest 10% of ${options}` };
  if (p * 4 <= n) return { kind: 'pro', text: `Priced in the lowest 25% of ${options}` };
  const q = dearer + 1;
  if (dearer === 0) return { kind: 'con', text: `Highest monthly price of ${options}` };
  if (q * 4 <= n) return { kind: 'con', text: `Priced in the highest 25% of ${options}` };
  return null;
}

/** Count of entries below `value` (or at or below it, with `orEqual`) in an ascending array. */
function countBelow(sorted: readonly number[], value: number, orEqual: boolean): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v < value || (orEqual && v === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** D61: the condition the record's purchase option comes with, as a con; none for on-demand. */
function optionTerms(c: Candidate): string | undefined {
  switch (c.purchaseOption) {
    case 'on_demand':
      return undefined;
    case 'spot':
      return c.spotAdvice === null
        ? 'Spot price: the instance can be interrupted when the provider needs the capacity back'
        : `Spot price: can be interrupted; AWS rates interruptions for this type here at ${c.spotAdvice.interruptionBand}`;
    case 'reserved_1y':
    case 'convertible_1y':
      return 'Requires a 1-year commitment, billed every hour of the term whether used or not';
    case 'reserved_3y':
    case 'convertible_3y':
      return 'Requires a 3-year commitment, billed every hour of the term whether used or not';
  }
}

// match_score (D28): memory points by how far memory exceeds the requirement, minus penalties
// for too few vCPU and for exceeding the budget, clamped to 0..100. Comparisons are exact:
// memory ratios in integer arithmetic, money in integer micro-dollars.

export const MEMORY_POINTS_CLOSE = 100; // r <= 1.2
export const MEMORY_POINTS_ROOMY = 90; // 1.2 < r <= 1.5
export const MEMORY_POINTS_OVERSIZED = 70; // r > 1.5
export const VCPU_SHORTFALL_PENALTY = 10;
export const OVER_BUDGET_PENALTY = 20;

export interface ScoreInput {
  readonly memoryMb: number;
  readonly vcpu: number;
  /** Monthly price in integer micro-dollars. */
  readonly monthlyMicros: number;
}

export interface ScoreCriteria {
  readonly minMemoryMb: number;
  readonly minVcpu: number;
  /** budget_max in integer micro-dollars; absent means no budget. */
  readonly budgetMaxMicros?: number;
}

export interface ScoreParts {
  readonly memoryPoints: number;
  /** vcpu < minVcpu. */
  readonly vcpuShort: boolean;
  /** monthly price > budget_max (strictly; a price equal to the budget is within it). */
  readonly overBudget: boolean;
  /** The match_score: the points minus the penalties, clamped to 0..100. */
  readonly score: number;
}

/**
 * Memory points for r = memoryMb / minMemoryMb, without division: r <= 1.2 is
 * 10 x memory <= 12 x min, and r <= 1.5 is 2 x memory <= 3 x min (all integers in MB).
 */
export function memoryPoints(memoryMb: number, minMemoryMb: number): number {
  if (memoryMb * 10 <= minMemoryMb * 12) return MEMORY_POINTS_CLOSE;
  if (memoryMb * 2 <= minMemoryMb * 3) return MEMORY_POINTS_ROOMY;
  return MEMORY_POINTS_OVERSIZED;
}

export function scoreParts(input: ScoreInput, criteria: ScoreCriteria): ScoreParts {
  const points = memoryPoints(input.memoryMb, criteria.minMemoryMb);
  const vcpuShort = input.vcpu < criteria.minVcpu;
  const overBudget =
    criteria.budgetMaxMicros !== undefined && input.monthlyMicros > criteria.budgetMaxMicros;
  return { memoryPoints: points, vcpuShort, overBudget, score: matchScore(input, criteria) };
}

/** The match_score alone (what ranking reads for every candidate; no object made). */
export function matchScore(input: ScoreInput, criteria: ScoreCriteria): number {
  const vcpuShort = input.vcpu < criteria.minVcpu;
  const overBudget =
    criteria.budgetMaxMicros !== undefined && input.monthlyMicros > criteria.budgetMaxMicros;
  const raw =
    memoryPoints(input.memoryMb, criteria.minMemoryMb) -
    (vcpuShort ? VCPU_SHORTFALL_PENALTY : 0) -
    (overBudget ? OVER_BUDGET_PENALTY : 0);
  return Math.min(100, Math.max(0, raw));
}

// D58's fits of a record and the tie-break value that orders records of equal match_score.
// Pure arithmetic on a record's numbers; the ranking reads tieBreakOf for many records, the
// answer fitsOf for the few it returns.
import type { InstanceRow } from '../catalog/records.js';
import type { ScoreCriteria } from './score.js';

/** Weights of the tie-break value (D58); plain constants, read for every candidate. */
const MEMORY_WEIGHT = 0.4;
const VCPU_WEIGHT = 0.3;
const PRICE_WEIGHT = 0.2;
const STORAGE_WEIGHT = 0.1;

/** storage_fit of a record without local storage (block storage is billed apart, D58). */
export const STORAGE_FIT_WITHOUT_LOCAL = 0.5;

/** D58's fits of one record, unrounded, and the tie-break value computed from them. */
export interface Fits {
  /** min_memory_mb / memory_mb: 1 is an exact fit, less is memory beyond the need. */
  readonly memory: number;
  /** min(1, vcpu / min_vcpu). */
  readonly vcpu: number;
  /** cheapest / monthly, cheapest over every candidate of the request; 1 for the cheapest. */
  readonly price: number;
  /** 1 with local storage (storage_gb > 0), 0.5 without. */
  readonly storage: number;
  /** 0.4 memory + 0.3 vcpu + 0.2 price + 0.1 storage, evaluated in that order. */
  readonly tieBreak: number;
}

export type FitInput = Pick<InstanceRow, 'memoryMb' | 'vcpu' | 'monthlyMicros' | 'storageGb'>;
export type FitCriteria = Pick<ScoreCriteria, 'minMemoryMb' | 'minVcpu'>;

/**
 * D58's fits of a candidate. `cheapestMonthlyMicros` is the lowest monthly price among the
 * request's candidates; a free record (monthly 0) is the cheapest, so its price fit is 1.
 */
export function fitsOf(c: FitInput, criteria: FitCriteria, cheapestMonthlyMicros: number): Fits {
  const memory = memoryFit(c, criteria);
  const vcpu = vcpuFit(c, criteria);
  const price = priceFit(c, cheapestMonthlyMicros);
  const storage = storageFit(c);
  return { memory, vcpu, price, storage, tieBreak: weighted(memory, vcpu, price, storage) };
}

/** fitsOf(...).tieBreak without making the object (ranking reads it for many candidates). */
export function tieBreakOf(
  c: FitInput,
  criteria: FitCriteria,
  cheapestMonthlyMicros: number,
): number {
  return weighted(
    memoryFit(c, criteria),
    vcpuFit(c, criteria),
    priceFit(c, cheapestMonthlyMicros),
    storageFit(c),
  );
}

const memoryFit = (c: FitInput, criteria: FitCriteria) => criteria.minMemoryMb / c.memoryMb;
const vcpuFit = (c: FitInput, criteria: FitCriteria) => Math.min(1, c.vcpu / criteria.minVcpu);
const priceFit = (c: FitInput, cheapest: number) =>
  c.monthlyMicros === 0 ? 1 : cheapest / c.monthlyMicros;
const storageFit = (c: FitInput) => (c.storageGb > 0 ? 1 : STORAGE_FIT_WITHOUT_LOCAL);

/** The tie-break value of four fits, in D58's order of terms. */
function weighted(memory: number, vcpu: number, price: number, storage: number): number {
  return (
    MEMORY_WEIGHT * memory + VCPU_WEIGHT * vcpu + PRICE_WEIGHT * price + STORAGE_WEIGHT * storage
  );
}

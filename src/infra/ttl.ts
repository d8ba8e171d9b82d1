/**
 * Shared argument check for CounterStore.increment, so every backend rejects the same inputs
 * (Redis's PEXPIRE needs a positive whole number of milliseconds; memory follows suit).
 * Returns the error to reject with, or undefined when `ttlMs` is valid.
 */
export function invalidTtlError(ttlMs: number): RangeError | undefined {
  if (Number.isSafeInteger(ttlMs) && ttlMs > 0) return undefined;
  return new RangeError(`ttlMs must be a positive whole number of milliseconds, got ${ttlMs}`);
}

import type { CounterStore } from '../infra/counter-store.js';

export const WINDOW_MS = 60_000;

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Whole seconds until the window resets, at least 1 (D10). */
  readonly resetSeconds: number;
}

/**
 * Fixed one-minute windows aligned to the clock minute (D8): the window's index is part of the
 * counter key, so a new minute starts a new counter and old ones expire on their own.
 * A counter-store failure rejects; the caller turns that into a 503 (fail closed, D11).
 */
export function createRateLimiter(counters: CounterStore, now: () => number = Date.now) {
  return async function consume(
    scope: string,
    client: string,
    limit: number,
    /** The request has no valid key (CounterStore.increment). */
    untrusted = false,
  ): Promise<RateDecision> {
    const at = now();
    const window = Math.floor(at / WINDOW_MS);
    const untilResetMs = (window + 1) * WINDOW_MS - at;
    // Keep the counter a little past its window so a slow clock on another replica still
    // finds it; the window index in the key stops it being reused.
    const count = await counters.increment(
      `rl:${scope}:${window}:${client}`,
      untilResetMs + 5_000,
      untrusted,
    );
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetSeconds: Math.max(1, Math.ceil(untilResetMs / 1000)),
    };
  };
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'ratelimit-limit': String(decision.limit),
    'ratelimit-remaining': String(decision.remaining),
    'ratelimit-reset': String(decision.resetSeconds),
  };
}

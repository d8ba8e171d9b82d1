// When and how long to wait before retrying an upstream GET. Pure functions: the HTTP client
// owns the clock and the deadline, this file only does the arithmetic.

/** Statuses worth another try: rate limiting and the server-side failures that usually pass. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

export interface BackoffOptions {
  /** Ceiling of the first retry's delay, in ms; doubles with each further retry. */
  readonly baseDelayMs: number;
  /** Largest ceiling any retry may get, in ms. */
  readonly maxDelayMs: number;
}

/**
 * Exponential backoff with full jitter (uniform in [0, min(max, base * 2^retryIndex)) ms), so
 * several syncs that failed together do not retry together. `retryIndex` is 0 for the first retry.
 * `random` returns a number in [0, 1), as Math.random does.
 */
export function backoffDelayMs(
  retryIndex: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  // Cap the exponent so a large index cannot overflow to Infinity before the min().
  const exponent = Math.min(Math.max(0, retryIndex), 30);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** exponent);
  return Math.floor(random() * Math.max(0, ceiling));
}

/**
 * Reads a `Retry-After` header (RFC 9110 section 10.2.3): either whole seconds or an HTTP-date.
 * Returns the wait in ms from `nowMs` (never negative), or undefined when the header is absent
 * or unreadable, in which case the caller falls back to its own backoff.
 */
export function parseRetryAfterMs(
  value: string | readonly string[] | undefined,
  nowMs: number,
): number | undefined {
  const raw = typeof value === 'string' ? value : value?.[0];
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : undefined;
  }
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a weekday name; this
  // rejects signed or decimal numbers, which Date.parse would otherwise read as a year.
  if (!/^[A-Za-z]{3,9},? /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

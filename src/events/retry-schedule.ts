// When a failed delivery is tried again (D42): exponential backoff from a base delay, capped,
// for 24 hours after the event; after that the delivery is given up.

export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** No wait between attempts is longer than this, so a recovered target hears soon enough. */
export const MAX_RETRY_DELAY_MS = 6 * 3_600_000;

/**
 * The time of the next attempt after `attempts` failed ones (1 or more), or null when it would
 * fall outside the retry window. `random` in [0, 1) spreads retries (+0..10 %) so targets that
 * come back are not hit by every queued delivery at once.
 */
export function nextAttemptAt(
  createdAt: number,
  failedAt: number,
  attempts: number,
  baseDelayMs: number,
  random: number = Math.random(),
): number | null {
  const exponent = Math.min(Math.max(attempts - 1, 0), 40);
  const delay = Math.min(baseDelayMs * 2 ** exponent, MAX_RETRY_DELAY_MS);
  const at = failedAt + Math.round(delay * (1 + random / 10));
  return at > createdAt + RETRY_WINDOW_MS ? null : at;
}

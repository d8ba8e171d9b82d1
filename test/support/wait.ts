/** Small waiting helpers for tests that watch real asynchronous systems (no fake timers). */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `attempt` every `intervalMs` until it resolves, and returns its value; rejects with the
 * last failure once `timeoutMs` has passed. A hang guard, not a timing assertion.
 */
export async function eventually<T>(
  attempt: () => Promise<T>,
  timeoutMs: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await sleep(intervalMs);
  }
}

/** Resolves when `condition()` holds (checked every `intervalMs`); rejects after `timeoutMs`. */
export function waitFor(
  condition: () => boolean,
  timeoutMs: number,
  intervalMs = 10,
): Promise<void> {
  return eventually(
    () =>
      condition()
        ? Promise.resolve()
        : Promise.reject(new Error(`condition not met in ${timeoutMs} ms`)),
    timeoutMs,
    intervalMs,
  );
}

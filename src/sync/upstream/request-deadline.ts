// One request's total time budget (all attempts, backoff waits and, for streams, the whole
// body), merged with the caller's AbortSignal.

import { UpstreamError } from './upstream-error.js';

export interface RequestDeadline {
  /** Aborts when the budget runs out or the caller aborts: pass it to every wait and request. */
  readonly signal: AbortSignal;
  /** Milliseconds left in the budget (0 once spent). */
  remainingMs(): number;
  /**
   * The UpstreamError for an abort of `signal`, or undefined while it has not aborted. Both
   * causes are UPSTREAM_TIMEOUT, the only code that fits "gave up waiting"; a caller that
   * aborted on purpose can tell by its own signal (`signal.aborted`) and the error's `cause`.
   */
  abortError(): UpstreamError | undefined;
  /** Stops the timer; call once the request has settled (or its stream has closed). */
  dispose(): void;
}

export function startDeadline(
  callerSignal: AbortSignal,
  totalTimeoutMs: number,
  target: string,
): RequestDeadline {
  const startedAt = performance.now();
  const budget = new AbortController();
  const timer = setTimeout(() => budget.abort(), totalTimeoutMs);
  const signal = AbortSignal.any([callerSignal, budget.signal]);
  return {
    signal,
    remainingMs: () => Math.max(0, totalTimeoutMs - (performance.now() - startedAt)),
    abortError() {
      if (budget.signal.aborted) {
        return new UpstreamError(
          'UPSTREAM_TIMEOUT',
          `request did not complete within ${totalTimeoutMs} ms (${target})`,
        );
      }
      if (callerSignal.aborted) {
        return new UpstreamError(
          'UPSTREAM_TIMEOUT',
          `request cancelled by the caller (${target})`,
          {
            cause: callerSignal.reason,
          },
        );
      }
      return undefined;
    },
    dispose: () => clearTimeout(timer),
  };
}

// Turns what undici and node:net throw into our closed UpstreamError vocabulary, and says
// whether another attempt could help. Classification is by the stable `code` property, never
// by message text.

import { UpstreamError } from './upstream-error.js';

/** An attempt's failure, with whether the retry loop may try again. */
export class AttemptFailure extends Error {
  override readonly name = 'AttemptFailure';
  constructor(
    readonly error: UpstreamError,
    readonly retryable: boolean,
    /** The upstream's own `Retry-After`, in ms, when it sent one. */
    readonly retryAfterMs?: number,
  ) {
    super(error.message, { cause: error });
  }
}

/** The timeouts an attempt runs under, for messages that name the limit that was hit. */
export interface AttemptLimits {
  readonly connectTimeoutMs: number;
  readonly firstByteTimeoutMs: number;
  readonly bodyIdleTimeoutMs: number;
}

/** Socket-level failures that a fresh connection may well not repeat. */
const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  // The body ended before Content-Length bytes arrived: a truncated transfer.
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

/**
 * Maps a thrown value from one attempt (connect, headers or body) to an AttemptFailure.
 * `target` names the request in messages (`GET /linode/types`). Aborts caused by our own
 * signals must be handled by the caller first: here an abort is just an unknown failure.
 */
export function classifyTransportError(
  err: unknown,
  target: string,
  limits: AttemptLimits,
): AttemptFailure {
  if (err instanceof AttemptFailure) return err;
  if (err instanceof UpstreamError) return new AttemptFailure(err, false);
  const code = findErrorCode(err);
  const fail = (upstreamCode: UpstreamError['code'], message: string, retryable: boolean) =>
    new AttemptFailure(
      new UpstreamError(upstreamCode, `${message} (${target})`, { cause: err }),
      retryable,
    );
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return fail(
        'UPSTREAM_TIMEOUT',
        `could not connect within ${limits.connectTimeoutMs} ms`,
        true,
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
      return fail('UPSTREAM_TIMEOUT', `no response within ${limits.firstByteTimeoutMs} ms`, true);
    case 'UND_ERR_BODY_TIMEOUT':
      return fail(
        'UPSTREAM_TIMEOUT',
        `response body stalled for ${limits.bodyIdleTimeoutMs} ms`,
        true,
      );
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return fail('UPSTREAM_TOO_LARGE', 'response body exceeds the size limit', false);
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
      return fail('UPSTREAM_NETWORK_ERROR', 'response body cut short', true);
    case undefined:
      return fail('UPSTREAM_NETWORK_ERROR', 'request failed', false);
    default:
      return fail(
        'UPSTREAM_NETWORK_ERROR',
        `network error ${code}`,
        TRANSIENT_NETWORK_CODES.has(code),
      );
  }
}

/**
 * The first string `code` on the error, its causes, or the errors of an AggregateError (Node's
 * happy-eyeballs connect reports one per address tried).
 */
export function findErrorCode(err: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof err !== 'object' || err === null) return undefined;
  const code: unknown = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code !== '' && code !== 'UND_ERR') return code;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = findErrorCode(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return findErrorCode((err as { cause?: unknown }).cause, depth + 1);
}

// The one error type an adapter raises. Its code lands in POST /sync's
// providers[].error_details.code (D23), so the codes are part of the API: keep them closed.

export const UPSTREAM_ERROR_CODES = [
  /** No answer within the connect, first-byte or total timeout. */
  'UPSTREAM_TIMEOUT',
  /** Connection refused or reset, DNS failure, body cut short. */
  'UPSTREAM_NETWORK_ERROR',
  /** A non-2xx status that retries did not cure. */
  'UPSTREAM_HTTP_ERROR',
  /** Malformed JSON, the wrong shape, or the wrong content type. */
  'UPSTREAM_INVALID_DATA',
  /** The body exceeded the configured maximum size. */
  'UPSTREAM_TOO_LARGE',
  /** A redirect to another host, which we never follow. */
  'UPSTREAM_REDIRECT_REFUSED',
] as const;
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly code: UpstreamErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

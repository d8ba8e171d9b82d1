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
  /** A redirect to another host, which we never follow, or too many redirects (a loop). */
  'UPSTREAM_REDIRECT_REFUSED',
] as const;
export type UpstreamErrorCode = (typeof UPSTREAM_ERROR_CODES)[number];

/**
 * What a client is told for each code (D4: the detail goes to the log, the client gets a coded
 * message). The detail (`message`) names upstream paths, byte offsets, worker and parser texts:
 * useful to an operator, not for a response.
 */
export const UPSTREAM_ERROR_MESSAGES: Readonly<Record<UpstreamErrorCode, string>> = {
  UPSTREAM_TIMEOUT: 'The upstream did not answer in time; the previous catalogue is unchanged',
  UPSTREAM_NETWORK_ERROR:
    'The upstream could not be reached or the connection failed; the previous catalogue is unchanged',
  UPSTREAM_HTTP_ERROR:
    'The upstream answered with an error status; the previous catalogue is unchanged',
  UPSTREAM_INVALID_DATA:
    "The upstream's data could not be used; the previous catalogue is unchanged",
  UPSTREAM_TOO_LARGE:
    'An upstream document exceeded the configured size limit; the previous catalogue is unchanged',
  UPSTREAM_REDIRECT_REFUSED:
    'The upstream redirected to another host, which is never followed; the previous catalogue is unchanged',
};

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  /** What a client may see; the code's fixed message unless the raiser wrote one for clients. */
  readonly publicMessage: string;
  constructor(
    readonly code: UpstreamErrorCode,
    message: string,
    options?: { cause?: unknown; publicMessage?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.publicMessage = options?.publicMessage ?? UPSTREAM_ERROR_MESSAGES[code];
  }
}

// One GET that follows redirects itself: at most MAX_REDIRECTS hops, and only within the base
// URL's origin (scheme, host and port). A redirect anywhere else is refused rather than
// followed, so a compromised or misconfigured upstream cannot point a sync at another host
// (or downgrade https to http).

import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { UpstreamError } from './upstream-error.js';
import { discardBody } from './byte-limit.js';
import { AttemptFailure } from './transport-errors.js';

export const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface SameOriginGet {
  readonly url: string;
  /** The only origin a redirect may lead to (`new URL(base).origin`). */
  readonly origin: string;
  /** Headers for each hop; the hop URL lets conditional-GET validators follow the redirect. */
  readonly headersFor: (hopUrl: string) => Record<string, string>;
  readonly signal: AbortSignal;
  readonly dispatcher: Dispatcher;
  /** Names the request in error messages (`GET /linode/types`). */
  readonly target: string;
}

export interface FinalResponse {
  /** The URL that gave the final (non-redirect) response. */
  readonly url: string;
  readonly response: Dispatcher.ResponseData;
}

/** First value of a header, trimmed; undefined when absent or empty. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * GETs `url`, following same-origin redirects. Throws AttemptFailure (not retryable) with
 * UPSTREAM_REDIRECT_REFUSED for another origin or too many hops, UPSTREAM_HTTP_ERROR for a
 * redirect without a usable Location. Transport errors propagate as thrown by undici.
 * Redirect bodies are discarded (destroyed) so their sockets are never left waiting.
 */
export async function getFollowingSameOriginRedirects(req: SameOriginGet): Promise<FinalResponse> {
  let current = req.url;
  for (let hop = 0; ; hop++) {
    const response = await request(current, {
      method: 'GET',
      dispatcher: req.dispatcher,
      signal: req.signal,
      headers: req.headersFor(current),
    });
    if (!REDIRECT_STATUSES.has(response.statusCode)) return { url: current, response };
    discardBody(response.body);
    const status = response.statusCode;
    const location = headerValue(response.headers.location);
    if (location === undefined) {
      throw refuse('UPSTREAM_HTTP_ERROR', `redirect ${status} without a Location (${req.target})`);
    }
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw refuse('UPSTREAM_HTTP_ERROR', `redirect ${status} to an invalid URL (${req.target})`);
    }
    if (next.origin !== req.origin) {
      throw refuse(
        'UPSTREAM_REDIRECT_REFUSED',
        `redirect ${status} to another origin (${next.origin}) refused (${req.target})`,
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw refuse(
        'UPSTREAM_REDIRECT_REFUSED',
        `more than ${MAX_REDIRECTS} redirects refused (${req.target})`,
        TOO_MANY_REDIRECTS,
      );
    }
    next.hash = '';
    current = next.href;
  }
}

/** The code's own message speaks of another host; a loop on the upstream's own host is not. */
const TOO_MANY_REDIRECTS = `The upstream answered with too many redirects (a redirect loop), more than ${MAX_REDIRECTS} are not followed; the previous catalogue is unchanged`;

function refuse(
  code: UpstreamError['code'],
  message: string,
  publicMessage?: string,
): AttemptFailure {
  return new AttemptFailure(
    new UpstreamError(code, message, publicMessage === undefined ? undefined : { publicMessage }),
    false,
  );
}

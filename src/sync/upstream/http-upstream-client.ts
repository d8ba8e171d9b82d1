// The upstream client: HTTP(S) through undici with timeouts, retries, a size cap, same-origin
// redirects and conditional GET; file:// through file-upstream-client.ts.
//
// Time limits (all in ms):
// - connect: TCP (and TLS) connection set-up, per attempt;
// - first byte: from the request being sent to the response headers, per attempt;
// - body idle: longest silence between two body chunks (defaults to the first-byte timeout);
//   not counted while our own consumer applies backpressure;
// - total: the whole call, all attempts and backoff waits included, and for getStream the
//   reading of the body too, so a slow drip cannot outlast it.
// Every one of them ends in UPSTREAM_TIMEOUT.
//
// Retries (idempotent GETs only): on 429, 500, 502, 503, 504, on network errors (refused,
// reset, closed, truncated body) and on per-attempt timeouts; up to `maxRetries` more attempts,
// with exponential backoff and full jitter, or the upstream's Retry-After when it sends one.
// A wait that would pass the total budget is not started: the call fails at once with the last
// error's code. getStream retries only until response headers arrive; once the body is handed
// over, a failure is an error on the stream.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { UpstreamError } from './upstream-error.js';
import { cappedStream, discardBody, readAllCapped } from './byte-limit.js';
import { createConditionalCache, validatorHeaders } from './conditional-cache.js';
import type { CachedDocument } from './conditional-cache.js';
import { createFileUpstreamClient } from './file-upstream-client.js';
import {
  decodeUtf8Body,
  isAcceptedJsonContentType,
  isAcceptedTextContentType,
  isAcceptedXmlContentType,
  parseJsonBody,
} from './json-body.js';
import { startDeadline } from './request-deadline.js';
import type { RequestDeadline } from './request-deadline.js';
import { backoffDelayMs, isRetryableStatus, parseRetryAfterMs } from './retry-policy.js';
import { getFollowingSameOriginRedirects, headerValue } from './same-origin-redirects.js';
import { AttemptFailure, classifyTransportError } from './transport-errors.js';
import type { AttemptLimits } from './transport-errors.js';
import { jsonByteCap } from './upstream-client.js';
import type { UpstreamClient } from './upstream-client.js';
import { checkUpstreamClientOptions } from './upstream-client-options.js';
import type { HttpUpstreamClientOptions } from './upstream-client-options.js';

/** An UpstreamClient that owns a connection pool: call close() when done with it. */
export interface ClosableUpstreamClient extends UpstreamClient {
  /** Releases pooled connections; requests still in flight fail. Safe to call twice. */
  close(): Promise<void>;
}

/** The User-Agent we send upstream, e.g. `cloudprice/0.1.0 (+https://github.com/cloudprice)`. */
export function buildUserAgent(version: string): string {
  return `cloudprice/${version} (+https://github.com/cloudprice)`;
}

/**
 * Chooses the implementation by the base URL's scheme: `http:`/`https:` → HTTP through undici,
 * `file:` → a local directory. Create one client per provider and keep it: the conditional-GET
 * memory and the connection pool live in the client. Throws TypeError/RangeError for bad options.
 */
export function createUpstreamClient(options: HttpUpstreamClientOptions): ClosableUpstreamClient {
  checkUpstreamClientOptions(options);
  const scheme = new URL(options.baseUrl).protocol;
  if (scheme === 'http:' || scheme === 'https:') return createHttpUpstreamClient(options);
  if (scheme === 'file:') {
    const files = createFileUpstreamClient(options);
    return {
      baseUrl: files.baseUrl,
      getJson: (pathAndQuery, signal) => files.getJson(pathAndQuery, signal),
      getText: (pathAndQuery, signal) => files.getText(pathAndQuery, signal),
      getStream: (pathAndQuery, signal) => files.getStream(pathAndQuery, signal),
      close: () => Promise.resolve(),
    };
  }
  throw new TypeError(`upstream base URL has an unsupported scheme: ${scheme}`);
}

const MIB = 1024 * 1024;

function createHttpUpstreamClient(options: HttpUpstreamClientOptions): ClosableUpstreamClient {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const streamCap = options.maxResponseBytes;
  const jsonCap = jsonByteCap(options);
  const limits: AttemptLimits = {
    connectTimeoutMs: options.connectTimeoutMs,
    firstByteTimeoutMs: options.firstByteTimeoutMs,
    bodyIdleTimeoutMs: options.bodyIdleTimeoutMs ?? options.firstByteTimeoutMs,
  };
  const backoff = {
    baseDelayMs: options.retryBaseDelayMs ?? 250,
    maxDelayMs: options.retryMaxDelayMs ?? 5000,
  };
  const agent = new Agent({
    connect: { timeout: limits.connectTimeoutMs },
    headersTimeout: limits.firstByteTimeoutMs,
    bodyTimeout: limits.bodyIdleTimeoutMs,
  });
  const cache = createConditionalCache({
    maxEntries: options.conditionalCacheEntries ?? 64,
    maxBodyBytes: options.conditionalCacheMaxBodyBytes ?? 5 * MIB,
  });
  let closing: Promise<void> | undefined;
  const xml = options.documentKind === 'xml';
  /** The content types a document is accepted with, and their name for an error message. */
  interface ContentTypeCheck {
    readonly accepts: (header: string | readonly string[] | undefined) => boolean;
    readonly expected: string;
  }
  const documentContentType: ContentTypeCheck = xml
    ? { accepts: isAcceptedXmlContentType, expected: 'XML' }
    : { accepts: isAcceptedJsonContentType, expected: 'JSON' };
  const textContentType: ContentTypeCheck = {
    accepts: isAcceptedTextContentType,
    expected: 'text',
  };
  const baseHeaders = {
    'user-agent': options.userAgent,
    accept: xml ? 'application/xml, text/xml' : 'application/json',
  };

  function urlFor(pathAndQuery: string): string {
    const relative = pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`;
    // Plain concatenation keeps the base path (`new URL('/x', base)` would drop it); the origin
    // check guards against a relative part that would re-parse as another authority.
    let url: URL | undefined;
    try {
      url = new URL(`${base.origin}${basePath}${relative}`);
    } catch {
      url = undefined;
    }
    if (url?.origin !== base.origin) {
      throw new UpstreamError('UPSTREAM_HTTP_ERROR', `invalid request path (GET ${pathAndQuery})`);
    }
    return url.href;
  }

  const tooLarge = (target: string, maxBytes: number) =>
    new UpstreamError('UPSTREAM_TOO_LARGE', `response exceeds ${maxBytes} bytes (${target})`);

  /** Throws for a non-2xx status, a declared oversize body or an unexpected content type. */
  function checkResponse(
    response: Dispatcher.ResponseData,
    target: string,
    maxBytes: number,
    acceptedContentType: ContentTypeCheck = documentContentType,
  ): void {
    const status = response.statusCode;
    if (status < 200 || status > 299) {
      const error = new UpstreamError(
        'UPSTREAM_HTTP_ERROR',
        `upstream answered HTTP ${status} (${target})`,
      );
      if (!isRetryableStatus(status)) throw new AttemptFailure(error, false);
      const retryAfterMs = parseRetryAfterMs(response.headers['retry-after'], Date.now());
      throw new AttemptFailure(error, true, retryAfterMs);
    }
    const declared = headerValue(response.headers['content-length']);
    if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
      throw new AttemptFailure(tooLarge(target, maxBytes), false);
    }
    if (!acceptedContentType.accepts(response.headers['content-type'])) {
      const shown = (headerValue(response.headers['content-type']) ?? 'none')
        .replace(/[^\x20-\x7e]/g, '?')
        .slice(0, 80);
      const error = new UpstreamError(
        'UPSTREAM_INVALID_DATA',
        `unexpected content type "${shown}", expected ${acceptedContentType.expected} (${target})`,
      );
      throw new AttemptFailure(error, false);
    }
  }

  async function withRetries<T>(
    target: string,
    deadline: RequestDeadline,
    attempt: () => Promise<T>,
  ): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        const early = deadline.abortError();
        if (early) throw early;
        return await attempt();
      } catch (err) {
        // Our own abort (total budget, or the caller) wins over whatever undici made of it.
        const aborted = deadline.abortError();
        if (aborted) throw aborted;
        const failure = classifyTransportError(err, target, limits);
        const attempts = retry + 1;
        if (!failure.retryable || retry >= options.maxRetries) {
          throw attempts > 1 ? withAttempts(failure.error, attempts) : failure.error;
        }
        const delayMs = failure.retryAfterMs ?? backoffDelayMs(retry, backoff);
        if (delayMs >= deadline.remainingMs()) {
          const why =
            failure.retryAfterMs === undefined ? 'the next retry' : `Retry-After ${delayMs} ms`;
          throw new UpstreamError(
            failure.error.code,
            `${failure.error.message}; not retried: ${why} would pass the ${options.totalTimeoutMs} ms total timeout`,
            { cause: failure.error },
          );
        }
        try {
          await sleep(delayMs, undefined, { signal: deadline.signal });
        } catch {
          throw deadline.abortError() ?? failure.error;
        }
      }
    }
  }

  /**
   * The whole body under the getJson cap, decoded, through the conditional-GET memory: a body
   * is remembered only once it decoded, so a bad one is never answered from memory.
   */
  async function getDecoded<T>(
    pathAndQuery: string,
    signal: AbortSignal,
    acceptedContentType: ContentTypeCheck,
    decode: (bytes: Buffer, target: string) => T,
  ): Promise<T> {
    const target = `GET ${pathAndQuery}`;
    const url = urlFor(pathAndQuery);
    const deadline = startDeadline(signal, options.totalTimeoutMs, target);
    try {
      return await withRetries(target, deadline, async () => {
        // The remembered copy each hop was asked about, so a 304 answers with that copy even
        // if the cache evicted it meanwhile.
        const asked = new Map<string, CachedDocument>();
        const { url: finalUrl, response } = await getFollowingSameOriginRedirects({
          url,
          origin: base.origin,
          signal: deadline.signal,
          dispatcher: agent,
          target,
          headersFor(hopUrl) {
            const doc = cache.get(hopUrl);
            if (doc !== undefined) asked.set(hopUrl, doc);
            return { ...baseHeaders, ...validatorHeaders(doc) };
          },
        });
        try {
          if (response.statusCode === 304) {
            const doc = asked.get(finalUrl);
            if (doc !== undefined) return decode(doc.body, target);
            const error = new UpstreamError(
              'UPSTREAM_HTTP_ERROR',
              `unexpected HTTP 304 (${target})`,
            );
            throw new AttemptFailure(error, false);
          }
          checkResponse(response, target, jsonCap, acceptedContentType);
          const bytes = await readAllCapped(response.body, jsonCap, () =>
            tooLarge(target, jsonCap),
          );
          const declared = headerValue(response.headers['content-length']);
          if (
            declared !== undefined &&
            /^\d+$/.test(declared) &&
            Number(declared) !== bytes.length
          ) {
            const error = new UpstreamError(
              'UPSTREAM_NETWORK_ERROR',
              `response body cut short (${target})`,
            );
            throw new AttemptFailure(error, true);
          }
          const value = decode(bytes, target);
          cache.remember(finalUrl, response.headers, bytes);
          return value;
        } finally {
          // Never leave a body half-read: that would hold its socket until a timeout.
          if (!response.body.readableEnded) discardBody(response.body);
        }
      });
    } finally {
      deadline.dispose();
    }
  }

  return {
    baseUrl: options.baseUrl,
    async getJson(pathAndQuery, signal) {
      return getDecoded(pathAndQuery, signal, documentContentType, parseJsonBody);
    },

    async getText(pathAndQuery, signal) {
      return getDecoded(pathAndQuery, signal, textContentType, decodeUtf8Body);
    },

    async getStream(pathAndQuery, signal): Promise<Readable> {
      const target = `GET ${pathAndQuery}`;
      const url = urlFor(pathAndQuery);
      const deadline = startDeadline(signal, options.totalTimeoutMs, target);
      try {
        const response = await withRetries(target, deadline, async () => {
          const { response } = await getFollowingSameOriginRedirects({
            url,
            origin: base.origin,
            signal: deadline.signal,
            dispatcher: agent,
            target,
            // Bulk files are too big to remember, so no validators are sent: always a 200.
            headersFor: () => baseHeaders,
          });
          try {
            checkResponse(response, target, streamCap);
          } catch (err) {
            discardBody(response.body);
            throw err;
          }
          return response;
        });
        return cappedStream(response.body, {
          maxBytes: streamCap,
          tooLarge: () => tooLarge(target, streamCap),
          mapError: (err) =>
            deadline.abortError() ?? classifyTransportError(err, target, limits).error,
          onClose: () => deadline.dispose(),
        });
      } catch (err) {
        deadline.dispose();
        throw err;
      }
    },

    close() {
      closing ??= agent.destroy();
      return closing;
    },
  };
}

function withAttempts(error: UpstreamError, attempts: number): UpstreamError {
  return new UpstreamError(error.code, `${error.message} after ${attempts} attempts`, {
    cause: error,
  });
}

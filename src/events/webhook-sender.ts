// One delivery attempt: resolve and check the target, connect to exactly that address, POST
// the signed body, and report what happened. Never throws; never waits longer than the timeout
// (twice: once to resolve, once for the request), and ends at once when its signal aborts.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { signMessage } from './signing.js';
import { TargetRefused, parseTargetUrl, resolveTarget } from './target-address.js';

export interface OutgoingMessage {
  readonly url: string;
  readonly secret: string;
  readonly messageId: string;
  readonly body: string;
}

export type SendOutcome =
  | { readonly ok: true; readonly status: number }
  | { readonly ok: false; readonly status: number | null; readonly error: string };

export interface SenderOptions {
  readonly timeoutMs: number;
  readonly allowPrivate: boolean;
  /** Seconds since the epoch for `webhook-timestamp`. */
  readonly nowSeconds?: () => number;
  /** Ends the attempt early (shutdown): the outcome is then a failure. */
  readonly signal?: AbortSignal;
}

/** `work`, or a rejection as soon as `signal` aborts (name resolution cannot be cancelled). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Bytes of a response body read at most (then the connection is dropped). */
const MAX_RESPONSE_BYTES = 64 * 1024;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export async function sendMessage(
  message: OutgoingMessage,
  options: SenderOptions,
): Promise<SendOutcome> {
  let target;
  try {
    target = await unlessAborted(
      resolveTarget(parseTargetUrl(message.url), options.allowPrivate, options.timeoutMs),
      options.signal,
    );
  } catch (error) {
    if (options.signal?.aborted === true) {
      return { ok: false, status: null, error: 'aborted before the request' };
    }
    const reason = error instanceof TargetRefused ? error.message : 'target check failed';
    return { ok: false, status: null, error: `target refused: ${reason}` };
  }
  // The connection's own lookup answers with the checked address only (TLS still verifies the
  // certificate against the URL's host name).
  const pinned = (_host: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    if (lookupOptions.all === true)
      callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const agent = new Agent({
    connect: { lookup: pinned, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connections: 1,
  });
  const timestamp = Math.floor((options.nowSeconds ?? (() => Date.now() / 1000))());
  try {
    const response = await request(target.url, {
      method: 'POST',
      dispatcher: agent,
      signal:
        options.signal === undefined
          ? AbortSignal.timeout(options.timeoutMs)
          : AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'cloudprice-webhooks/1',
        'webhook-id': message.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signMessage(
          message.secret,
          message.messageId,
          timestamp,
          message.body,
        ),
      },
      body: message.body,
    });
    await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    return response.statusCode >= 200 && response.statusCode < 300
      ? { ok: true, status: response.statusCode }
      : { ok: false, status: response.statusCode, error: `HTTP ${response.statusCode}` };
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, status: null, error: text.slice(0, 200) };
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

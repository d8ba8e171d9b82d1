// Every data call the page makes: the public API with X-API-Key, nothing else. Errors come back
// as ApiError with the envelope's code and message; a 401 also tells the app to ask for a key.
import type { components } from './api-types';
import { getKey } from './key';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait (429 and 503), from Retry-After. */
    readonly retryAfter?: number,
    /** The envelope's details: for INVALID_PARAMETER, which parameter and why (docs/api.md). */
    readonly details?: ErrorDetails,
  ) {
    super(message);
  }
}

interface ErrorDetails {
  readonly parameter?: string;
  readonly value?: unknown;
  readonly reason?: string;
  readonly retry_after?: number;
}

/** The envelope's details as the page reads them: typed where the API documents the field. */
function detailsOf(raw: Readonly<Record<string, unknown>> | undefined): ErrorDetails | undefined {
  if (raw === undefined) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const retry = raw['retry_after'];
  return {
    parameter: text(raw['parameter']),
    value: raw['value'],
    reason: text(raw['reason']),
    retry_after: typeof retry === 'number' ? retry : undefined,
  };
}

type Listener = () => void;
const unauthorizedListeners = new Set<Listener>();

/** Called on every 401: the app shows the key prompt and keeps the view (the URL) as it is. */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * A body as read: the API's envelope (its error part is the document's ErrorEnvelope), or
 * anything else (a proxy's page), so every field is optional.
 */
interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: Partial<components['schemas']['ErrorEnvelope']['error']>;
}

async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const key = getKey();
  if (key !== undefined) headers.set('X-API-Key', key);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Is it running?');
  }
  if (response.ok || (response.status === 503 && path === '/health')) return response;
  let body: Envelope = {};
  try {
    body = (await response.json()) as Envelope;
  } catch {
    // Not our envelope (a proxy's page): fall through to a generic message.
  }
  const header = Number(response.headers.get('retry-after'));
  const details = detailsOf(body.error?.details);
  const error = new ApiError(
    response.status,
    body.error?.code ?? `HTTP_${response.status}`,
    body.error?.message ?? `The server answered ${response.status}`,
    Number.isFinite(header) && header > 0 ? header : details?.retry_after,
    details,
  );
  if (response.status === 401) for (const listener of unauthorizedListeners) listener();
  throw error;
}

/** GET or POST JSON; resolves with the envelope's `data` (or the whole body without one). */
export async function apiJson<T>(path: string, body?: unknown): Promise<T> {
  const response = await request(path, jsonInit(body));
  const parsed = (await response.json()) as Envelope;
  return (parsed.data ?? parsed) as T;
}

/** A GET, or a POST of `body` as JSON. */
function jsonInit(body: unknown): RequestInit {
  return body === undefined
    ? {}
    : {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      };
}

/** The envelope's `data` with its `meta` (POST /recommend: query time, D43's exchange rate). */
export async function apiAnswer<T, M>(
  path: string,
  body?: unknown,
): Promise<{ data: T; meta?: M }> {
  const parsed = (await (await request(path, jsonInit(body))).json()) as { data: T; meta?: M };
  return { data: parsed.data, ...(parsed.meta !== undefined && { meta: parsed.meta }) };
}

export async function apiText(path: string): Promise<string> {
  const response = await request(path);
  return response.text();
}

/** A message a person can act on: what went wrong, and how long to wait when rate-limited. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong in the page. Reload to try again.';
  if (error.status === 429) {
    const wait = error.retryAfter ?? 60;
    return `Rate limit reached: ${error.message} Try again in ${wait} second${wait === 1 ? '' : 's'}.`;
  }
  if (error.status === 503 && error.retryAfter !== undefined) {
    return `${error.message} (${error.code}). Try again in ${error.retryAfter} seconds.`;
  }
  return `${error.message} (${error.code}${error.status > 0 ? `, HTTP ${error.status}` : ''})`;
}

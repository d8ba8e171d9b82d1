/** HTTP over real sockets to the replica processes, with the suite's key and client address. */
import type { Replica } from './replica-process.js';

export const REPLICA_API_KEY = 'scale-out-key-0123456789abcdef';
/**
 * The header the replicas trust for the client address (CLIENT_IP_HEADER). Each test sends its
 * own random address in it, so its rate-limit counters are its own: other suites and engineers
 * use the same Redis, and requests from 127.0.0.1 would otherwise share their counters.
 */
export const CLIENT_HEADER = 'x-test-client-ip';
/** Hang guard for one request; a sync through a slow upstream takes a few seconds. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface Reply<Body = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Body;
}

export interface InstanceJson {
  readonly instance_id: string;
  readonly region: { readonly region_code: string };
  readonly pricing: { readonly monthly_price: number };
}

export interface InstancesJson {
  readonly success: boolean;
  readonly data: {
    readonly instances: readonly InstanceJson[];
    readonly pagination: { readonly total: number };
    readonly metadata: { readonly cached: boolean };
  };
  readonly error?: { readonly code: string; readonly details?: Record<string, unknown> };
}

export interface SyncJson {
  readonly success: boolean;
  readonly data?: {
    readonly sync_id: string;
    readonly providers: readonly {
      readonly provider: string;
      readonly success: boolean;
      readonly pricing_synced: number;
    }[];
  };
  readonly error?: { readonly code: string };
}

export async function call<Body>(
  replica: Replica,
  path: string,
  client: string,
  init: { readonly method?: 'GET' | 'POST'; readonly json?: unknown } = {},
): Promise<Reply<Body>> {
  const headers: Record<string, string> = {
    'x-api-key': REPLICA_API_KEY,
    [CLIENT_HEADER]: client,
  };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${replica.url}${path}`, {
    method: init.method ?? 'GET',
    headers,
    ...(init.json !== undefined && { body: JSON.stringify(init.json) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Body,
  };
}

export function getInstances(
  replica: Replica,
  path: string,
  client: string,
): Promise<Reply<InstancesJson>> {
  return call<InstancesJson>(replica, path, client);
}

export function postSync(
  replica: Replica,
  providers: readonly string[],
  client: string,
  options: { readonly force?: boolean } = {},
): Promise<Reply<SyncJson>> {
  return call<SyncJson>(replica, '/sync', client, {
    method: 'POST',
    json: options.force === true ? { providers, force: true } : { providers },
  });
}

/** `<instance id>@<region code>` -> monthly price, for comparing a page with a document. */
export function monthlyPrices(body: InstancesJson): Map<string, number> {
  return new Map(
    body.data.instances.map((i) => [
      `${i.instance_id}@${i.region.region_code}`,
      i.pricing.monthly_price,
    ]),
  );
}

// What the MCP suites share: the backends they run on (SQLite with in-process counters;
// PostgreSQL with Redis), an app with a synced catalogue listening on a real port, and the SDK's
// own client connected to it over HTTP.
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { redisUnavailableReason, TEST_REDIS_URL } from '../support/infra-backends.js';
import { auth, createTestApp, TEST_API_KEY, type TestApp } from '../support/test-app.js';

/** The header the test apps trust for the client address: each test counts on its own. */
export const CLIENT_HEADER = 'x-test-client';

export interface McpBackend {
  readonly name: string;
  readonly unavailable: string | undefined;
  /** A fresh database (and the Redis URL) for one suite. */
  isolate(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

export async function mcpBackends(): Promise<McpBackend[]> {
  const backends: McpBackend[] = [];
  for (const store of await storeBackends()) {
    if (store.name === 'sqlite') {
      backends.push({
        name: 'sqlite',
        unavailable: store.skipReason,
        isolate: () => Promise.resolve({ env: {}, drop: () => Promise.resolve() }),
      });
    } else {
      const reasons = [store.skipReason, await redisUnavailableReason(TEST_REDIS_URL)];
      backends.push({
        name: 'postgres+redis',
        unavailable: reasons.filter((r) => r !== undefined).join('; ') || undefined,
        isolate: async () => {
          const db: IsolatedDatabase = await store.isolate();
          return {
            env: { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL },
            drop: () => db.drop(),
          };
        },
      });
    }
  }
  return backends;
}

export interface McpTestServer {
  readonly t: TestApp;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: URL;
  close(): Promise<void>;
}

/** The key and a client address of its own, for a request injected into the app. */
export function authed(): Record<string, string> {
  return { ...auth, [CLIENT_HEADER]: randomUUID() };
}

/** A test app on `env`, its catalogue synced from the test snapshots, listening on a port. */
export async function startMcpServer(env: Record<string, string>): Promise<McpTestServer> {
  const t = await createTestApp({ CLIENT_IP_HEADER: CLIENT_HEADER, ...env });
  const sync = await t.app.inject({
    method: 'POST',
    url: '/sync',
    headers: { ...auth, 'content-type': 'application/json', [CLIENT_HEADER]: randomUUID() },
    payload: JSON.stringify({ providers: ['provider_a', 'provider_b', 'provider_c'] }),
  });
  expect(sync.statusCode, sync.body).toBe(200);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return {
    t,
    url: new URL(`http://127.0.0.1:${address.port}/mcp`),
    close: () => t.close(),
  };
}

/** The SDK's client over Streamable HTTP, with the key (and a client address of its own). */
export async function connectClient(
  url: URL,
  options: { modern?: boolean; client?: string } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'cloudprice-test', version: '1.0.0' },
    options.modern === true ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: {
      headers: { 'x-api-key': TEST_API_KEY, [CLIENT_HEADER]: options.client ?? randomUUID() },
    },
  });
  await client.connect(transport);
  return client;
}

/** The data of an answer without its timing fields and cache flag (they differ per request). */
export function withoutTiming(data: unknown): unknown {
  return JSON.parse(JSON.stringify(data), (key, value: unknown) =>
    key === 'query_time_ms' || key === 'cached' ? undefined : value,
  );
}

/** One raw JSON-RPC POST to /mcp, as a client without the SDK sends it. */
export function rawPost(
  url: URL,
  body: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'x-api-key': TEST_API_KEY,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      [CLIENT_HEADER]: randomUUID(),
      ...headers,
    },
    body,
  });
}

/** The JSON-RPC message of a response, whether sent as JSON or as one server-sent event. */
export async function rpcMessage(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .join('');
    return JSON.parse(data) as Record<string, unknown>;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

// The checks every route must pass: authentication, rate limits, headers, CORS, 405 and the
// envelope. The routes come from the app itself (app.registeredRoutes, recorded by Fastify's
// onRoute hook), so a new route gets the key, header, CORS and 405 checks without being listed
// here, and fails until it has a case in CASES (a valid request, its status and its rate limit,
// as the specification states them) or is public by design and listed in PUBLIC.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../../src/http/route-table.js';
import {
  FIXED_NOW,
  OTHER_API_KEY,
  TEST_API_KEY,
  createTestApp,
  type TestApp,
} from '../support/test-app.js';

interface RouteCase {
  /** A valid request's URL; its path must match the route's pattern. */
  readonly url: string;
  readonly payload?: InjectOptions['payload'];
  readonly headers?: Record<string, string>;
  /** Requests per client per minute; undefined = unlimited. */
  readonly limit: number | undefined;
  /** The status a request with a valid key gets here (an empty catalogue: /health is 503). */
  readonly status: number;
  /** The Content-Type of that answer; JSON unless stated. */
  readonly type?: RegExp;
}

/** Keyed `METHOD /pattern`. A HEAD route Fastify adds beside a GET is checked with the GET's case. */
const CASES: Readonly<Record<string, RouteCase>> = {
  'GET /health': { url: '/health', limit: undefined, status: 503 },
  'GET /instances': { url: '/instances?limit=1', limit: 100, status: 200 },
  'GET /instance-types': { url: '/instance-types?limit=1', limit: 100, status: 200 },
  'GET /regions': { url: '/regions', limit: 100, status: 200 },
  // Unknown in an empty catalogue: 404 after the checks.
  'GET /instances/:id/history': { url: '/instances/1/history', limit: 100, status: 404 },
  'GET /changes': { url: '/changes?limit=1', limit: 100, status: 200 },
  // An empty providers list is refused after the checks: cheap, and never 401.
  'POST /sync': { url: '/sync', payload: { providers: [] }, limit: 10, status: 400 },
  'POST /recommend': {
    url: '/recommend',
    payload: { stack: ['nginx'], scale: 'small' },
    limit: 60,
    status: 200,
  },
  // A URL that is not http(s) is refused after the checks, before any address lookup.
  'POST /webhooks': {
    url: '/webhooks',
    payload: { url: 'ftp://x', events: [] },
    limit: 10,
    status: 400,
  },
  'GET /webhooks': { url: '/webhooks', limit: 10, status: 200 },
  'DELETE /webhooks/:id': { url: '/webhooks/wh_000000000000000000000000', limit: 10, status: 404 },
  'GET /openapi.json': { url: '/openapi.json', limit: undefined, status: 200 },
  // Each message counts (D66): a tools/call against the endpoint it mirrors (D59), any other
  // message, as this tools/list, against the /mcp protocol budget of 100 a minute.
  'POST /mcp': {
    url: '/mcp',
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    headers: { accept: 'application/json, text/event-stream' },
    limit: 100,
    status: 200,
    // The transport answers a request as an event stream carrying the JSON-RPC response.
    type: /^text\/event-stream/,
  },
};

/**
 * Public by design (D48): the web UI's files and the redirects to them hold no data, so they are
 * served without a key and without a rate limit. /health and /openapi.json are not here: they
 * need the key like every other route.
 */
const PUBLIC: readonly string[] = [
  'GET /',
  'HEAD /',
  'GET /ui',
  'HEAD /ui',
  'GET /ui/*',
  'HEAD /ui/*',
];

const keyOf = (route: RegisteredRoute) => `${route.method} ${route.url}`;
/** A URL the pattern matches: every parameter `1`, a wildcard `index.html`. */
const fill = (pattern: string) => pattern.replace(/:[^/]+/g, '1').replace(/\*$/, 'index.html');
const matches = (pattern: string, path: string) =>
  new RegExp(`^${pattern.replace(/:[^/]+/g, '[^/]+').replaceAll('.', '\\.')}$`).test(path);
const pathOf = (url: string) => url.split('?', 1)[0]!;

const probe = await createTestApp();
const REGISTERED: readonly RegisteredRoute[] = [...probe.app.registeredRoutes];
await probe.close();
const KEYS = REGISTERED.map(keyOf);
const caseOf = (route: RegisteredRoute) =>
  CASES[route.method === 'HEAD' ? `GET ${route.url}` : keyOf(route)];

const JSON_TYPE = /^application\/json/;
const EXPECTED_SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'access-control-allow-origin': '*',
};

interface Envelope {
  success: boolean;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('the route list', () => {
  it('is the app’s own, and holds every route the specification names', () => {
    expect(KEYS).toEqual(
      expect.arrayContaining([
        'GET /health',
        'GET /instances',
        'GET /instance-types',
        'GET /instances/:id/history',
        'GET /changes',
        'GET /regions',
        'POST /sync',
        'POST /recommend',
        'POST /webhooks',
        'GET /webhooks',
        'DELETE /webhooks/:id',
        'GET /openapi.json',
        'POST /mcp',
        'HEAD /instances',
      ]),
    );
  });

  it('has a case or a public exemption for every route, and none for a route that is gone', () => {
    const uncovered = REGISTERED.filter(
      (r) => caseOf(r) === undefined && !PUBLIC.includes(keyOf(r)),
    );
    expect(uncovered.map(keyOf), 'add each to CASES (or, if public by design, to PUBLIC)').toEqual(
      [],
    );
    expect(Object.keys(CASES).filter((key) => !KEYS.includes(key))).toEqual([]);
    expect(PUBLIC.filter((key) => !KEYS.includes(key))).toEqual([]);
    for (const [key, route] of Object.entries(CASES)) {
      expect(matches(key.split(' ')[1]!, pathOf(route.url)), key).toBe(true);
    }
  });

  it('exempts exactly the routes the app serves without a key', () => {
    expect(
      REGISTERED.filter((r) => r.public)
        .map(keyOf)
        .sort(),
    ).toEqual([...PUBLIC].sort());
  });
});

const GUARDED = REGISTERED.filter((r) => !PUBLIC.includes(keyOf(r)));

describe.each(GUARDED.map((route) => ({ ...route, name: keyOf(route) })))('$name', (route) => {
  const known = caseOf(route);
  const url = known?.url ?? fill(route.url);
  // Fastify answers HEAD with the GET's status and headers, and no body.
  const hasBody = route.method !== 'HEAD';
  let t: TestApp;
  let client = 0;
  // Each test gets its own client address so counters never leak between tests.
  const from = () => `10.0.0.${++client}`;
  const send = (headers: Record<string, string>, remoteAddress = from()) =>
    t.app.inject({
      method: route.method as InjectOptions['method'],
      url,
      ...(hasBody && known?.payload !== undefined && { payload: known.payload }),
      headers: { ...(known?.headers ?? {}), ...headers },
      remoteAddress,
    });
  // POST /mcp refuses in JSON-RPC (D66): the envelope's error is the error's `data`.
  const jsonRpc = route.url === '/mcp';
  const errorOf = (response: Awaited<ReturnType<typeof send>>): Envelope['error'] =>
    jsonRpc
      ? response.json<{ error: { data: Envelope['error'] } }>().error.data
      : response.json<Envelope>().error;
  const expectError = (response: Awaited<ReturnType<typeof send>>, error: Envelope['error']) => {
    expect(String(response.headers['content-type'])).toMatch(JSON_TYPE);
    if (!hasBody) return;
    if (jsonRpc) {
      expect(response.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: `${error.code}: ${error.message}`, data: error },
      });
    } else {
      expect(response.json<Envelope>()).toEqual({ success: false, error });
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has a case in CASES', () => {
    expect(known, `${route.name}: add a valid request, status and limit to CASES`).toBeDefined();
  });

  it('refuses a request without a key with 401 UNAUTHORIZED', async () => {
    const response = await send({});
    expect(response.statusCode).toBe(401);
    expectError(response, { code: 'UNAUTHORIZED', message: 'API key is missing or invalid' });
  });

  it('refuses a wrong key of the same length and of another length alike', async () => {
    const sameLength = TEST_API_KEY.replace(/.$/, (c) => (c === 'f' ? 'e' : 'f'));
    for (const key of [sameLength, 'short', TEST_API_KEY + 'x']) {
      const response = await send({ 'x-api-key': key });
      expect(response.statusCode).toBe(401);
      expectError(response, { code: 'UNAUTHORIZED', message: 'API key is missing or invalid' });
    }
  });

  it('sends the security headers, CORS and a request id on success and on error', async () => {
    const answers: [Awaited<ReturnType<typeof send>>, RegExp][] = [[await send({}), JSON_TYPE]];
    if (known !== undefined) {
      answers.push([await send({ 'x-api-key': TEST_API_KEY }), known.type ?? JSON_TYPE]);
    }
    for (const [response, type] of answers) {
      expect(response.headers).toMatchObject(EXPECTED_SECURITY_HEADERS);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(String(response.headers['access-control-expose-headers'])).toContain(
        'RateLimit-Remaining',
      );
      expect(String(response.headers['content-type'])).toMatch(type);
    }
  });

  it('answers a CORS preflight 204 without a key', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url,
      headers: {
        origin: 'https://dash.example.com',
        'access-control-request-method': route.method,
      },
    });
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['access-control-allow-headers'])).toContain('X-API-Key');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('answers a method the path does not serve with 405 METHOD_NOT_ALLOWED and Allow', async () => {
    const served = REGISTERED.filter((r) => r.url === route.url).map((r) => r.method);
    const wrong = ['PUT', 'PATCH', 'DELETE', 'POST'].find((m) => !served.includes(m))!;
    const response = await t.app.inject({
      method: wrong as InjectOptions['method'],
      url,
      headers: { 'x-api-key': TEST_API_KEY },
      remoteAddress: from(),
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe([...new Set(served)].sort().join(', '));
    expect(response.headers).toMatchObject(EXPECTED_SECURITY_HEADERS);
    expect(response.json<Envelope>()).toEqual({
      success: false,
      error: {
        code: 'METHOD_NOT_ALLOWED',
        message: `Method ${wrong} is not allowed on ${pathOf(url)}`,
      },
    });
  });

  // The checks below send a valid request, which only the route's case knows.
  if (known === undefined) return;
  const { limit, status } = known;

  it('accepts every configured key', async () => {
    for (const key of [TEST_API_KEY, OTHER_API_KEY]) {
      const response = await send({ 'x-api-key': key });
      expect(response.statusCode).toBe(status);
    }
  });

  if (limit === undefined || limit > 20) {
    it('limits failed authentication to 20 a minute per client, sparing valid keys', async () => {
      const client = from();
      for (let i = 0; i < 20; i++) expect((await send({}, client)).statusCode).toBe(401);
      const refused = await send({ 'x-api-key': 'wrong-key-wrong-key' }, client);
      expect(refused.statusCode).toBe(429);
      if (hasBody) {
        expect(errorOf(refused)).toMatchObject({
          code: 'RATE_LIMIT_EXCEEDED',
          details: { limit: 20, window: '1m' },
        });
      }
      expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(status);
    });
  } else {
    it('counts unauthenticated requests against the route limit first (rate limit before auth)', async () => {
      const client = from();
      for (let i = 0; i < limit; i++) expect((await send({}, client)).statusCode).toBe(401);
      const refused = await send({}, client);
      expect(refused.statusCode).toBe(429);
      if (hasBody) expect(errorOf(refused).details).toMatchObject({ limit });
    });
  }

  if (limit !== undefined) {
    it(`allows ${limit} requests a minute per client, then 429 with Retry-After`, async () => {
      const client = from();
      let last = await send({ 'x-api-key': TEST_API_KEY }, client);
      for (let i = 2; i <= limit; i++) {
        expect(last.statusCode, `request ${i - 1}`).toBe(status);
        last = await send({ 'x-api-key': TEST_API_KEY }, client);
      }
      expect(last.statusCode).toBe(status);
      expect(last.headers['ratelimit-limit']).toBe(String(limit));
      expect(last.headers['ratelimit-remaining']).toBe('0');
      const refused = await send({ 'x-api-key': TEST_API_KEY }, client);
      expect(refused.statusCode).toBe(429);
      // FIXED_NOW is one second into its minute: 59 s to go.
      expect(refused.headers['retry-after']).toBe('59');
      expectError(refused, {
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Too many requests, please try again later.',
        details: { limit, window: '1m', retry_after: 59 },
      });
      // Another client is counted apart, and the next minute starts afresh.
      expect((await send({ 'x-api-key': TEST_API_KEY })).statusCode).toBe(status);
      t.setNow(FIXED_NOW + 60_000);
      expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(status);
      t.setNow(FIXED_NOW);
    });
  } else {
    it('is not rate limited', async () => {
      const client = from();
      for (let i = 0; i < 120; i++) {
        expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(status);
      }
    });
  }
});

describe.each(PUBLIC.filter((key) => KEYS.includes(key)))('%s (public)', (key) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is served without a key', async () => {
    const [method, pattern] = key.split(' ') as [InjectOptions['method'], string];
    const response = await t.app.inject({ method, url: fill(pattern) });
    expect(response.statusCode).not.toBe(401);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

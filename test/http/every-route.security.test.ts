// The checks every route must pass: authentication, rate limits, headers and the envelope.
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FIXED_NOW,
  OTHER_API_KEY,
  TEST_API_KEY,
  createTestApp,
  type TestApp,
} from '../support/test-app.js';

interface RouteCase {
  readonly name: string;
  readonly request: InjectOptions;
  /** Requests per client per minute; undefined = unlimited. */
  readonly limit: number | undefined;
  /** The status a request with a valid key gets here (an empty catalogue: /health is 503). */
  readonly status: number;
}

const ROUTES: readonly RouteCase[] = [
  {
    name: 'GET /health',
    request: { method: 'GET', url: '/health' },
    limit: undefined,
    status: 503,
  },
  {
    name: 'GET /instances',
    request: { method: 'GET', url: '/instances?limit=1' },
    limit: 100,
    status: 200,
  },
  {
    name: 'GET /instance-types',
    request: { method: 'GET', url: '/instance-types?limit=1' },
    limit: 100,
    status: 200,
  },
  // Unknown in an empty catalogue: 404 after the checks.
  {
    name: 'GET /instances/{id}/history',
    request: { method: 'GET', url: '/instances/1/history' },
    limit: 100,
    status: 404,
  },
  {
    name: 'GET /changes',
    request: { method: 'GET', url: '/changes?limit=1' },
    limit: 100,
    status: 200,
  },
  // An empty providers list is refused after the checks: cheap, and never 401.
  {
    name: 'POST /sync',
    request: { method: 'POST', url: '/sync', payload: { providers: [] } },
    limit: 10,
    status: 400,
  },
  {
    name: 'POST /recommend',
    request: { method: 'POST', url: '/recommend', payload: { stack: ['nginx'], scale: 'small' } },
    limit: 60,
    status: 200,
  },
  // A URL that is not http(s) is refused after the checks, before any address lookup.
  {
    name: 'POST /webhooks',
    request: { method: 'POST', url: '/webhooks', payload: { url: 'ftp://x', events: [] } },
    limit: 10,
    status: 400,
  },
  {
    name: 'GET /webhooks',
    request: { method: 'GET', url: '/webhooks' },
    limit: 10,
    status: 200,
  },
  {
    name: 'DELETE /webhooks/{id}',
    request: { method: 'DELETE', url: '/webhooks/wh_000000000000000000000000' },
    limit: 10,
    status: 404,
  },
  {
    name: 'GET /openapi.json',
    request: { method: 'GET', url: '/openapi.json' },
    limit: undefined,
    status: 200,
  },
];

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

describe.each(ROUTES)('$name', (route) => {
  let t: TestApp;
  let client = 0;
  // Each test gets its own client address so counters never leak between tests.
  const from = () => `10.0.0.${++client}`;
  const send = (headers: Record<string, string>, remoteAddress = from()) =>
    t.app.inject({
      ...route.request,
      headers: { ...(route.request.headers ?? {}), ...headers },
      remoteAddress,
    });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a request without a key with 401 UNAUTHORIZED', async () => {
    const response = await send({});
    expect(response.statusCode).toBe(401);
    expect(response.json<Envelope>()).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: 'API key is missing or invalid' },
    });
  });

  it('refuses a wrong key of the same length and of another length alike', async () => {
    const sameLength = TEST_API_KEY.replace(/.$/, (c) => (c === 'f' ? 'e' : 'f'));
    for (const key of [sameLength, 'short', TEST_API_KEY + 'x']) {
      const response = await send({ 'x-api-key': key });
      expect(response.statusCode).toBe(401);
      expect(response.json<Envelope>().error.message).toBe('API key is missing or invalid');
    }
  });

  it('accepts every configured key', async () => {
    for (const key of [TEST_API_KEY, OTHER_API_KEY]) {
      const response = await send({ 'x-api-key': key });
      expect(response.statusCode).toBe(route.status);
    }
  });

  it('sends the security headers, CORS and a request id on success and on error', async () => {
    for (const response of [await send({ 'x-api-key': TEST_API_KEY }), await send({})]) {
      expect(response.headers).toMatchObject(EXPECTED_SECURITY_HEADERS);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(String(response.headers['access-control-expose-headers'])).toContain(
        'RateLimit-Remaining',
      );
      expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    }
  });

  it('answers a CORS preflight 204 without a key', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: route.request.url as string,
      headers: {
        origin: 'https://dash.example.com',
        'access-control-request-method': String(route.request.method),
      },
    });
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['access-control-allow-headers'])).toContain('X-API-Key');
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  if (route.limit === undefined || route.limit > 20) {
    it('limits failed authentication to 20 a minute per client, sparing valid keys', async () => {
      const client = from();
      for (let i = 0; i < 20; i++) expect((await send({}, client)).statusCode).toBe(401);
      const refused = await send({ 'x-api-key': 'wrong-key-wrong-key' }, client);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<Envelope>().error).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
        details: { limit: 20, window: '1m' },
      });
      expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(route.status);
    });
  } else {
    it('counts unauthenticated requests against the route limit first (rate limit before auth)', async () => {
      const client = from();
      for (let i = 0; i < route.limit!; i++) expect((await send({}, client)).statusCode).toBe(401);
      const refused = await send({}, client);
      expect(refused.statusCode).toBe(429);
      expect(refused.json<Envelope>().error.details).toMatchObject({ limit: route.limit });
    });
  }

  if (route.limit !== undefined) {
    const limit = route.limit;
    it(`allows ${limit} requests a minute per client, then 429 with Retry-After`, async () => {
      const client = from();
      let last = await send({ 'x-api-key': TEST_API_KEY }, client);
      for (let i = 2; i <= limit; i++) {
        expect(last.statusCode, `request ${i - 1}`).toBe(route.status);
        last = await send({ 'x-api-key': TEST_API_KEY }, client);
      }
      expect(last.statusCode).toBe(route.status);
      expect(last.headers['ratelimit-limit']).toBe(String(limit));
      expect(last.headers['ratelimit-remaining']).toBe('0');
      const refused = await send({ 'x-api-key': TEST_API_KEY }, client);
      expect(refused.statusCode).toBe(429);
      // FIXED_NOW is one second into its minute: 59 s to go.
      expect(refused.headers['retry-after']).toBe('59');
      expect(refused.json<Envelope>()).toEqual({
        success: false,
        error: {
          code: 'RATE_LIMIT_EXCEEDED',
          message: 'Too many requests, please try again later.',
          details: { limit, window: '1m', retry_after: 59 },
        },
      });
      // Another client is counted apart, and the next minute starts afresh.
      expect((await send({ 'x-api-key': TEST_API_KEY })).statusCode).toBe(route.status);
      t.setNow(FIXED_NOW + 60_000);
      expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(route.status);
      t.setNow(FIXED_NOW);
    });
  } else {
    it('is not rate limited', async () => {
      const client = from();
      for (let i = 0; i < 120; i++) {
        expect((await send({ 'x-api-key': TEST_API_KEY }, client)).statusCode).toBe(route.status);
      }
    });
  }
});

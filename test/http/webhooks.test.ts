// POST/GET/DELETE /webhooks (D42) against a real app and SQLite file: what a client sees, the
// secret shown once, the address checks, and the deliveries a sync queues in its transaction.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Envelope {
  success: boolean;
  data: Record<string, unknown>;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

describe('/webhooks', () => {
  let t: TestApp;
  let client = 0;
  // Each request its own client address: the 10-a-minute budget is not what these test.
  const send = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: auth,
      remoteAddress: `10.1.0.${++client}`,
      ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
    });

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates a subscription, shows its secret once, lists it without and deletes it', async () => {
    const created = await send('POST', '/webhooks', {
      url: 'https://93.184.215.14/hooks/cloudprice',
      events: ['price.changed', 'sync.completed', 'price.changed'],
      filter: { provider: 'provider_b', region: 'icn' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const hook = created.json<Envelope>().data;
    expect(Object.keys(hook).sort()).toEqual(
      ['id', 'url', 'events', 'filter', 'created_at', 'secret'].sort(),
    );
    expect(hook['id']).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(hook['url']).toBe('https://93.184.215.14/hooks/cloudprice');
    // Documented order, each once.
    expect(hook['events']).toEqual(['sync.completed', 'price.changed']);
    expect(hook['filter']).toEqual({ provider: 'provider_b', region: 'icn' });
    expect(Date.parse(String(hook['created_at']))).toBeGreaterThan(0);
    expect(hook['secret']).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const listed = await send('GET', '/webhooks');
    expect(listed.statusCode).toBe(200);
    const { secret: _secret, ...withoutSecret } = hook;
    expect(listed.json<Envelope>().data).toEqual({ webhooks: [withoutSecret] });
    expect(listed.body).not.toContain(String(hook['secret']));

    const deleted = await send('DELETE', `/webhooks/${String(hook['id'])}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    const again = await send('DELETE', `/webhooks/${String(hook['id'])}`);
    expect(again.statusCode).toBe(404);
    expect(again.json<Envelope>().error.code).toBe('NOT_FOUND');
    expect((await send('GET', '/webhooks')).json<Envelope>().data).toEqual({ webhooks: [] });
  });

  it.each([
    ['no body', undefined, 'MISSING_PARAMETER', 'url'],
    ['no events', { url: 'https://93.184.215.14/' }, 'MISSING_PARAMETER', 'events'],
    [
      'not http',
      { url: 'ftp://93.184.215.14/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    ['not a URL', { url: 'hooks', events: ['sync.failed'] }, 'INVALID_PARAMETER', 'url'],
    [
      'credentials in the URL',
      { url: 'https://a:b@93.184.215.14/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    [
      'loopback',
      { url: 'http://127.0.0.1:9/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    [
      'localhost',
      { url: 'http://localhost/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    ['private', { url: 'http://10.2.3.4/', events: ['sync.failed'] }, 'INVALID_PARAMETER', 'url'],
    [
      'link-local',
      { url: 'http://169.254.169.254/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    [
      'IPv6 loopback',
      { url: 'http://[::1]/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    [
      'IPv4-mapped private',
      { url: 'http://[::ffff:192.168.1.1]/', events: ['sync.failed'] },
      'INVALID_PARAMETER',
      'url',
    ],
    ['empty events', { url: 'https://93.184.215.14/', events: [] }, 'INVALID_PARAMETER', 'events'],
    [
      'unknown event',
      { url: 'https://93.184.215.14/', events: ['price.up'] },
      'INVALID_PARAMETER',
      'events',
    ],
    [
      'unknown provider',
      { url: 'https://93.184.215.14/', events: ['sync.failed'], filter: { provider: 'aws' } },
      'INVALID_PARAMETER',
      'filter.provider',
    ],
    [
      'unknown region',
      { url: 'https://93.184.215.14/', events: ['sync.failed'], filter: { region: 'mars' } },
      'INVALID_PARAMETER',
      'filter.region',
    ],
    [
      'unknown field',
      { url: 'https://93.184.215.14/', events: ['sync.failed'], secret: 'mine' },
      'INVALID_PARAMETER',
      'secret',
    ],
  ])('refuses %s with 400 %s naming %s', async (_label, body, code, parameter) => {
    const response = await send('POST', '/webhooks', body);
    expect(response.statusCode).toBe(400);
    const error = response.json<Envelope>().error;
    expect(error.code).toBe(code);
    expect(error.details).toMatchObject({ parameter });
    expect((await send('GET', '/webhooks')).json<Envelope>().data).toEqual({ webhooks: [] });
  });

  it('says which methods a webhook path has (405 with Allow)', async () => {
    const response = await send('PUT', '/webhooks/wh_x');
    expect(response.statusCode).toBe(405);
    expect(response.headers['allow']).toBe('DELETE');
  });

  it('lets a browser page delete a webhook: the CORS preflight allows DELETE', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/webhooks/wh_000000000000000000000000',
      headers: {
        origin: 'https://dash.example.com',
        'access-control-request-method': 'DELETE',
      },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-methods'])
      .split(',')
      .map((method) => method.trim());
    expect(allowed).toContain('DELETE');
    expect(allowed).toEqual(expect.arrayContaining(['GET', 'POST', 'OPTIONS']));
  });

  it('queues sync.completed and price.changed in the sync that changed prices', async () => {
    const store = t.services.store.webhooks;
    const { webhook } = await createThrough(send, ['sync.completed', 'price.changed'], {
      provider: 'provider_a',
    });
    const other = await createThrough(send, ['sync.completed'], { provider: 'provider_b' });
    const sync = await send('POST', '/sync', { providers: ['provider_a'] });
    expect(sync.statusCode).toBe(200);
    const queued = await store.deliveries({ limit: 10 });
    // The first sync adds every record: one price.changed part and one sync.completed, both
    // for the provider_a subscriber only.
    expect(queued.map((d) => [d.webhookId, d.eventType, d.status, d.attempts]).sort()).toEqual(
      [
        [webhook, 'price.changed', 'pending', 0],
        [webhook, 'sync.completed', 'pending', 0],
      ].sort(),
    );
    expect(await store.deliveries({ limit: 10, webhookId: other.webhook })).toEqual([]);
    // Deleting the subscription drops its queue.
    expect((await send('DELETE', `/webhooks/${webhook}`)).statusCode).toBe(204);
    expect(await store.deliveries({ limit: 10, webhookId: webhook })).toEqual([]);
  });
});

describe('/webhooks with WEBHOOK_ALLOW_PRIVATE=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterAll(() => t.close());

  it('accepts loopback and private targets', async () => {
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/', 'http://10.2.3.4/']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: auth,
        payload: { url, events: ['sync.failed'] },
      });
      expect(response.statusCode, url).toBe(201);
    }
  });
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/hook',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/',
  ])('still refuses the link-local or metadata target %s (400 INVALID_PARAMETER)', async (url) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks',
      headers: auth,
      remoteAddress: `10.9.0.${url.length}`,
      payload: { url, events: ['sync.failed'] },
    });
    expect(response.statusCode).toBe(400);
    const error = response.json<Envelope>().error;
    expect(error.code).toBe('INVALID_PARAMETER');
    expect(error.details).toMatchObject({ parameter: 'url' });
    expect(error.message).toMatch(/link-local or cloud metadata/);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/webhooks',
      headers: auth,
      remoteAddress: `10.9.1.${url.length}`,
    });
    const urls = (listed.json<Envelope>().data['webhooks'] as { url: string }[]).map((h) => h.url);
    expect(urls).not.toContain(new URL(url).href);
  });
});

async function createThrough(
  send: (method: 'POST', url: string, payload: unknown) => Promise<LightMyRequestResponse>,
  events: string[],
  filter: Record<string, string>,
): Promise<{ webhook: string }> {
  const response = await send('POST', '/webhooks', {
    url: 'https://93.184.215.14/hook',
    events,
    filter,
  });
  expect(response.statusCode).toBe(201);
  return { webhook: String(response.json<Envelope>().data['id']) };
}

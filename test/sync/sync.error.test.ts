// POST /sync refusals (D13, D14, D21, D23): every body error, unsupported names, content types,
// and every requested provider failing (500 SYNC_FAILED with the per-provider results).
// provider_a and provider_c point at closed ports (refused at once); provider_b reads the
// bundled snapshot, so a request naming it can still succeed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

interface Envelope {
  success: boolean;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

interface ProviderResult {
  provider: string;
  success: boolean;
  regions_synced: number;
  instances_synced: number;
  pricing_synced: number;
  duration_ms: number;
  error?: string;
  error_details?: { code: string; message: string };
}

const SUPPORTED = ['provider_a', 'provider_b', 'provider_c'];

describe('POST /sync errors', () => {
  let t: TestApp;
  let minute = 0;

  beforeAll(async () => {
    t = await createTestApp({
      PROVIDER_A_URL: await closedPortUrl(),
      PROVIDER_C_URL: await closedPortUrl(),
      UPSTREAM_CONNECT_TIMEOUT: '500ms',
      UPSTREAM_FIRST_BYTE_TIMEOUT: '1s',
      UPSTREAM_TOTAL_TIMEOUT: '3s',
      UPSTREAM_MAX_RETRIES: '0',
    });
  });
  afterAll(() => t.close());

  /** Each request in a new rate-limit window, so the 10-a-minute limit never interferes. */
  async function post(payload: string | undefined, headers: Record<string, string> = {}) {
    minute += 1;
    t.setNow(FIXED_NOW + minute * 60_000);
    return t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: {
        ...auth,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload }),
    });
  }
  const envelope = (response: { json: <T>() => T }) => response.json<Envelope>();

  it.each([
    ['providers is a string', '{"providers":"provider_a"}', 'providers'],
    ['providers is an object', '{"providers":{"0":"provider_a"}}', 'providers'],
    ['providers is a number', '{"providers":1}', 'providers'],
    ['providers is null', '{"providers":null}', 'providers'],
    ['providers is empty', '{"providers":[]}', 'providers'],
    ['providers holds a number', '{"providers":[1]}', 'providers'],
    ['providers holds null', '{"providers":[null]}', 'providers'],
    ['providers holds a name and a number', '{"providers":["provider_b",2]}', 'providers'],
    ['providers holds a nested array', '{"providers":[["provider_b"]]}', 'providers'],
    ['providers holds an object', '{"providers":[{"name":"provider_b"}]}', 'providers'],
    ['force is a string', '{"force":"true"}', 'force'],
    ['force is a number', '{"force":1}', 'force'],
    ['force is null', '{"force":null}', 'force'],
    [
      'force is not a boolean beside valid providers',
      '{"providers":["provider_b"],"force":"no"}',
      'force',
    ],
  ])('refuses a body where %s with 400 INVALID_PARAMETER', async (_what, payload, parameter) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    const body = envelope(response);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.details?.['parameter']).toBe(parameter);
    expect(typeof body.error.message).toBe('string');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('echoes a structured value by its JSON type name, not the structure (D17a)', async () => {
    const response = await post('{"providers":{"deep":{"deeper":[1,2,3]}}}');
    expect(envelope(response).error.details?.['value']).toBe('object');
  });

  it('refuses unknown names with UNSUPPORTED_PROVIDERS, listing each once and the three supported', async () => {
    const response = await post(
      '{"providers":["provider_x","provider_b","aws","provider_x","Provider_B","provider_b "]}',
    );
    expect(response.statusCode).toBe(400);
    const body = envelope(response);
    expect(body.error.code).toBe('UNSUPPORTED_PROVIDERS');
    expect(body.error.details).toEqual({
      unsupported: ['provider_x', 'aws', 'Provider_B', 'provider_b '],
      supported: SUPPORTED,
    });
  });

  it('refuses a single unknown name with exactly that name in details.unsupported', async () => {
    const response = await post('{"providers":["linode"]}');
    expect(response.statusCode).toBe(400);
    expect(envelope(response).error.details).toEqual({
      unsupported: ['linode'],
      supported: SUPPORTED,
    });
  });

  it('cuts a very long unknown name in the echo to 100 characters', async () => {
    const response = await post(JSON.stringify({ providers: ['p'.repeat(500)] }));
    expect(response.statusCode).toBe(400);
    const unsupported = envelope(response).error.details?.['unsupported'] as string[];
    expect(unsupported).toHaveLength(1);
    expect(unsupported[0]).toHaveLength(100);
  });

  it.each([
    ['a JSON array', '["provider_b"]'],
    ['a JSON string', '"provider_b"'],
    ['JSON null', 'null'],
    ['malformed JSON', '{"providers":["provider_b"'],
  ])('refuses a body that is %s with 400 INVALID_JSON', async (_what, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(envelope(response).error.code).toBe('INVALID_JSON');
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['application/jsonx', { 'content-type': 'application/jsonx' }],
  ])('refuses a body sent as %s with 400 INVALID_CONTENT_TYPE', async (_type, headers) => {
    const response = await post('{"providers":["provider_b"]}', headers);
    expect(response.statusCode).toBe(400);
    expect(envelope(response).error.code).toBe('INVALID_CONTENT_TYPE');
  });

  it('refuses a body without any Content-Type with 400 INVALID_CONTENT_TYPE', async () => {
    minute += 1;
    t.setNow(FIXED_NOW + minute * 60_000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: '{"providers":["provider_b"]}',
    });
    expect(response.statusCode).toBe(400);
    expect(envelope(response).error.code).toBe('INVALID_CONTENT_TYPE');
  });

  it('refuses a body over 10 KB with 413 PAYLOAD_TOO_LARGE before syncing anything', async () => {
    const before = (await t.services.store.providerStates()).map((s) => s.latestRun);
    const response = await post(
      JSON.stringify({ providers: ['provider_b'], pad: 'x'.repeat(11_000) }),
    );
    expect(response.statusCode).toBe(413);
    expect(envelope(response).error.code).toBe('PAYLOAD_TOO_LARGE');
    const after = (await t.services.store.providerStates()).map((s) => s.latestRun);
    expect(after).toEqual(before);
  });

  it('accepts application/json with a charset parameter and force true', async () => {
    const response = await post('{"providers":["provider_b"],"force":true}', {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(response.statusCode).toBe(200);
    const data = response.json<{ data: { providers: ProviderResult[] } }>().data;
    expect(data.providers.map((p) => [p.provider, p.success])).toEqual([['provider_b', true]]);
  });

  it('answers 500 SYNC_FAILED with every provider result in details when all requested fail', async () => {
    const response = await post('{"providers":["provider_c","provider_a","provider_c"]}');
    expect(response.statusCode).toBe(500);
    const body = envelope(response);
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('SYNC_FAILED');
    expect(body.error.message).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+/);
    const providers = body.error.details?.['providers'] as ProviderResult[];
    // Duplicates count once; results follow the request's order.
    expect(providers.map((p) => p.provider)).toEqual(['provider_c', 'provider_a']);
    for (const result of providers) {
      expect(result).toMatchObject({
        success: false,
        regions_synced: 0,
        instances_synced: 0,
        pricing_synced: 0,
        error_details: { code: 'UPSTREAM_NETWORK_ERROR' },
      });
      expect(Number.isInteger(result.duration_ms)).toBe(true);
      expect(result.error).toBe(result.error_details?.message);
      expect(result.error).not.toMatch(/\n\s+at /);
    }
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 500 SYNC_FAILED for the default provider (no body) when it fails', async () => {
    const response = await post(undefined);
    expect(response.statusCode).toBe(500);
    const body = envelope(response);
    expect(body.error.code).toBe('SYNC_FAILED');
    const providers = body.error.details?.['providers'] as ProviderResult[];
    expect(providers.map((p) => [p.provider, p.success])).toEqual([['provider_a', false]]);
  });

  it('answers 200 with data.success false when only some requested providers fail', async () => {
    const response = await post('{"providers":["provider_a","provider_b"]}');
    expect(response.statusCode).toBe(200);
    const data = response.json<{
      success: boolean;
      data: { success: boolean; providers: ProviderResult[]; summary: Record<string, number> };
    }>();
    expect(data.success).toBe(true);
    expect(data.data.success).toBe(false);
    expect(data.data.providers.map((p) => [p.provider, p.success])).toEqual([
      ['provider_a', false],
      ['provider_b', true],
    ]);
    expect(data.data.summary).toMatchObject({
      total_providers: 2,
      successful_providers: 1,
      failed_providers: 1,
    });
    const failed = data.data.providers[0]!;
    expect(failed.error_details?.code).toBe('UPSTREAM_NETWORK_ERROR');
    expect(failed.error).toEqual(expect.any(String));
    // A successful result carries no error fields at all.
    expect(data.data.providers[1]).not.toHaveProperty('error');
    expect(data.data.providers[1]).not.toHaveProperty('error_details');
  });
});

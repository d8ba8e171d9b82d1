// D65: Google Cloud (provider_d) is served only when PROVIDERS enables it. With PROVIDERS=all it
// appears wherever a provider does (/instances, /regions and its cities, /health, the
// UNSUPPORTED_PROVIDERS `supported` list); with the default setting it is refused like an unknown
// provider. The catalogue is the test copy of its bundled snapshot (test/fixtures/snapshots/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXTURE_SNAPSHOTS, type TestApp } from '../support/test-app.js';

const ALL = ['provider_a', 'provider_b', 'provider_c', 'provider_d'];
const DEFAULT = ['provider_a', 'provider_b', 'provider_c'];

interface InstanceJson {
  instance_id: string;
  provider: { name: string; display_name: string };
  region: { region_code: string; region_name: string; city: string };
  vcpu: number;
  memory_mb: number;
  instance_family: string;
  pricing: { hourly_price: number; monthly_price: number; observed_at: string };
  cpu: { architecture: string | null; allocation: string | null };
  benchmark: { coremark: number } | null;
}

async function get<T>(t: TestApp, url: string): Promise<{ status: number; body: T }> {
  const response = await t.app.inject({ url, headers: auth });
  return { status: response.statusCode, body: response.json<T>() };
}

async function syncAll(t: TestApp, providers: string[]): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sync',
    headers: auth,
    payload: { providers },
  });
  expect(response.statusCode, response.body).toBe(200);
  const results = response.json<{ data: { providers: { provider: string; success: boolean }[] } }>()
    .data.providers;
  expect(
    results.every((r) => r.success),
    response.body,
  ).toBe(true);
}

for (const backend of await storeBackends()) {
  describeStoreBackend('provider_d with PROVIDERS=all', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url, PROVIDERS: 'all' });
      await syncAll(t, ALL);
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('lists Tokyo e2-medium at its recorded price, with 2 vCPUs as Google counts them', async () => {
      const { status, body } = await get<{ data: { instances: InstanceJson[] } }>(
        t,
        '/instances?provider=provider_d&region=asia-northeast1&q=e2-medium',
      );
      expect(status).toBe(200);
      const record = body.data.instances.find((i) => i.instance_id === 'e2-medium');
      expect(record).toMatchObject({
        provider: { name: 'provider_d', display_name: 'Google Cloud' },
        region: { region_code: 'asia-northeast1', region_name: 'Tokyo', city: 'tokyo' },
        vcpu: 2,
        memory_mb: 4096,
        instance_family: 'general',
        // Recorded 0.04298286 USD/hour; x 730 = 31.3774878 -> 31.38.
        pricing: {
          hourly_price: 0.043,
          monthly_price: 31.38,
          observed_at: '2026-07-30T06:13:17.000Z',
        },
        cpu: { architecture: 'x86_64', allocation: 'burstable' },
        benchmark: { coremark: 14529 },
      });
    });

    it('lists only the types Google offers in a region (c3d is priced in Tokyo, offered in Singapore)', async () => {
      const tokyo = await get<{ data: { instances: InstanceJson[] } }>(
        t,
        '/instances?provider=provider_d&region=asia-northeast1&limit=100',
      );
      const ids = tokyo.body.data.instances.map((i) => i.instance_id);
      expect(ids).toContain('e2-standard-2');
      expect(ids).not.toContain('c3d-standard-4');
      const singapore = await get<{ data: { instances: InstanceJson[] } }>(
        t,
        '/instances?provider=provider_d&region=asia-southeast1&q=c3d-standard-4',
      );
      expect(singapore.body.data.instances.map((i) => i.instance_id)).toEqual(['c3d-standard-4']);
      expect(singapore.body.data.instances[0]?.instance_family).toBe('general');
    });

    it('names its five regions and their cities in /regions', async () => {
      const { status, body } = await get<{
        data: {
          regions: {
            provider: string;
            region_code: string;
            region_name: string;
            city: string;
            country_code: string;
            instances: number;
          }[];
          cities: { city: string; regions: { provider: string; region_code: string }[] }[];
          providers: { name: string; display_name: string; block_storage: string | null }[];
        };
      }>(t, '/regions');
      expect(status).toBe(200);
      const ours = body.data.regions.filter((r) => r.provider === 'provider_d');
      expect(ours.map((r) => [r.region_code, r.region_name, r.city, r.country_code])).toEqual([
        ['asia-northeast1', 'Tokyo', 'tokyo', 'JP'],
        ['asia-northeast3', 'Seoul', 'seoul', 'KR'],
        ['asia-northeast2', 'Osaka', 'osaka', 'JP'],
        ['asia-southeast1', 'Singapore', 'singapore', 'SG'],
        ['asia-east2', 'Hong Kong', 'hong-kong', 'HK'],
      ]);
      expect(ours.every((r) => r.instances > 0)).toBe(true);
      for (const city of body.data.cities) {
        expect(city.regions.filter((r) => r.provider === 'provider_d')).toHaveLength(1);
      }
      expect(body.data.providers.map((p) => p.name)).toEqual(ALL);
      expect(body.data.providers[3]).toEqual({
        name: 'provider_d',
        display_name: 'Google Cloud',
        block_storage: 'Persistent Disk',
      });
    });

    it('filters by city across all four providers', async () => {
      const { status, body } = await get<{ data: { instances: InstanceJson[] } }>(
        t,
        '/instances?city=hong-kong&provider=provider_d&limit=5',
      );
      expect(status).toBe(200);
      expect(body.data.instances.length).toBeGreaterThan(0);
      expect(body.data.instances.every((i) => i.region.region_code === 'asia-east2')).toBe(true);
    });

    it('shows its provenance in /health', async () => {
      const response = await t.app.inject({ url: '/health', headers: auth });
      const providers = response.json<{
        components: {
          providers: {
            name: string;
            data_source: { kind: string; observed_at: string; source: string } | null;
          }[];
        };
      }>().components.providers;
      expect(providers.map((p) => p.name)).toEqual(ALL);
      expect(providers[3]?.data_source).toMatchObject({
        kind: 'snapshot',
        observed_at: '2026-07-30T06:13:17.000Z',
      });
      expect(providers[3]?.data_source?.source).toContain('Google Cloud Billing Catalog API');
    });

    it('names Google Cloud in the MCP tools the assistant is shown', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...auth, accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const data = /^data: (.*)$/m.exec(response.body)?.[1];
      const tools = (
        JSON.parse(data!) as {
          result: {
            tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
          };
        }
      ).result.tools;
      const provider = tools.find((tool) => tool.name === 'search_instances')!.inputSchema
        .properties['provider'] as { description: string };
      expect(provider.description).toContain('provider_d (Google Cloud)');
      const providers = tools.find((tool) => tool.name === 'recommend')!.inputSchema.properties[
        'providers'
      ] as { description: string; items: { enum: string[] } };
      expect(providers.description).toContain('provider_d (Google Cloud)');
      expect(providers.items.enum).toEqual(ALL);
    });

    it('lists it as supported when a sync names an unknown provider', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_x'] },
      });
      expect(response.statusCode).toBe(400);
      expect(
        response.json<{ error: { code: string; details: { supported: string[] } } }>().error,
      ).toMatchObject({ code: 'UNSUPPORTED_PROVIDERS', details: { supported: ALL } });
    });
  });
}

describe('provider_d with the default PROVIDERS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses provider_d in /instances like an unknown provider, allowing the three', async () => {
    const response = await t.app.inject({ url: '/instances?provider=provider_d', headers: auth });
    expect(response.statusCode).toBe(400);
    const error = response.json<{ error: { code: string; details: { allowed: string[] } } }>()
      .error;
    expect(error.code).toBe('INVALID_PARAMETER');
    expect(error.details.allowed).toEqual(DEFAULT);
    const unknown = await t.app.inject({ url: '/instances?provider=provider_x', headers: auth });
    expect(unknown.json<{ error: { code: string } }>().error.code).toBe(error.code);
  });

  it('refuses it in POST /sync, and leaves it out of /regions and /health', async () => {
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_d'] },
    });
    expect(sync.statusCode).toBe(400);
    expect(
      sync.json<{ error: { details: { unsupported: string[]; supported: string[] } } }>().error
        .details,
    ).toEqual({ unsupported: ['provider_d'], supported: DEFAULT });
    const regions = await get<{
      data: { providers: { name: string }[]; regions: { provider: string }[] };
    }>(t, '/regions');
    expect(regions.body.data.providers.map((p) => p.name)).toEqual(DEFAULT);
    expect(regions.body.data.regions.some((r) => r.provider === 'provider_d')).toBe(false);
    const health = await t.app.inject({ url: '/health', headers: auth });
    expect(
      health
        .json<{ components: { providers: { name: string }[] } }>()
        .components.providers.map((p) => p.name),
    ).toEqual(DEFAULT);
  });
});

// Turning provider_d off again (PROVIDERS back to the default) keeps its rows in the database;
// the service starts and answers as if it had never been enabled.
for (const backend of await storeBackends()) {
  describeStoreBackend('provider_d disabled after it was served', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let recordId = 0;
    beforeAll(async () => {
      database = await backend.isolate();
      const all = await createTestApp({ DATABASE_URL: database.url, PROVIDERS: 'all' });
      await syncAll(all, ['provider_b', 'provider_d']);
      const listed = await get<{ data: { instances: { id: number }[] } }>(
        all,
        '/instances?provider=provider_d&limit=1',
      );
      recordId = listed.body.data.instances[0]!.id;
      const hook = await all.app.inject({
        method: 'POST',
        url: '/webhooks',
        headers: auth,
        payload: {
          url: 'https://93.184.215.14/hooks/gcp',
          events: ['price.changed'],
          filter: { provider: 'provider_d' },
        },
      });
      expect(hook.statusCode, hook.body).toBe(201);
      await all.close();
      t = await createTestApp({ DATABASE_URL: database.url });
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('lists, counts and feeds only the providers it serves', async () => {
      const instances = await get<{
        data: { instances: { provider: { name: string } }[]; pagination: { total: number } };
      }>(t, '/instances?limit=100');
      expect(instances.status).toBe(200);
      expect(instances.body.data.instances.every((i) => i.provider.name === 'provider_b')).toBe(
        true,
      );
      const changes = await get<{ data: { changes: { provider: string }[] } }>(
        t,
        '/changes?since=2020-01-01T00:00:00Z&limit=100',
      );
      expect(changes.status).toBe(200);
      expect(changes.body.data.changes.length).toBeGreaterThan(0);
      expect(changes.body.data.changes.some((c) => c.provider === 'provider_d')).toBe(false);
      const health = await t.app.inject({ url: '/health', headers: auth });
      expect(
        health
          .json<{ components: { providers: { name: string }[] } }>()
          .components.providers.map((p) => p.name),
      ).toEqual(DEFAULT);
    });

    it('still lists a webhook subscribed to provider_d (it gets no events)', async () => {
      const hooks = await get<{ data: { webhooks: { filter: { provider?: string } }[] } }>(
        t,
        '/webhooks',
      );
      expect(hooks.status).toBe(200);
      expect(hooks.body.data.webhooks.map((h) => h.filter)).toEqual([{ provider: 'provider_d' }]);
    });

    it('answers a provider_d record id as unknown', async () => {
      const history = await t.app.inject({ url: `/instances/${recordId}/history`, headers: auth });
      expect(history.statusCode).toBe(404);
    });
  });
}

// PROVIDER_D_URL may point at an HTTP(S) mirror of the snapshot layout: read live, the figures
// are observed when fetched (D37), and the same rules apply.
describe('provider_d from an HTTP mirror of its snapshot', () => {
  let upstream: FakeUpstream;
  let t: TestApp;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    for (const file of ['machine-types.json', 'prices.json']) {
      upstream.setJson(
        `/gcp/${file}`,
        JSON.parse(readFileSync(path.join(FIXTURE_SNAPSHOTS, 'provider_d', file), 'utf8')),
      );
    }
    t = await createTestApp({ PROVIDERS: 'provider_d', PROVIDER_D_URL: `${upstream.url}/gcp` });
    await syncAll(t, ['provider_d']);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('lists the offered types of the mirror, observed live', async () => {
    const { body } = await get<{ data: { instances: InstanceJson[] } }>(
      t,
      '/instances?region=asia-northeast1&q=e2-medium',
    );
    expect(
      body.data.instances.map((i) => [i.instance_id, i.vcpu, i.pricing.monthly_price]),
    ).toEqual([['e2-medium', 2, 31.38]]);
    const health = await t.app.inject({ url: '/health', headers: auth });
    const [source] = health
      .json<{ components: { providers: { data_source: { kind: string } }[] } }>()
      .components.providers.map((p) => p.data_source);
    expect(source?.kind).toBe('live');
    expect(upstream.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/gcp/machine-types.json', '/gcp/prices.json']),
    );
  });
});

// Issue 23 item 1: a provider is one folder registered in one list. A test-only provider
// (test/support/test-provider/), added to the list the configuration is loaded with and served
// by a local HTTP server, syncs and is served by every endpoint, on every backend, beside the
// three real ones, with no other change anywhere.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROVIDERS, defaultProviders } from '../../src/providers/registry.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import {
  TEST_PROVIDER_NAME,
  testProvider,
  type TestUpstreamOffer,
} from '../support/test-provider/provider.js';

const OFFERS: TestUpstreamOffer[] = [
  {
    id: 'tc.small',
    region: 'tc-tokyo',
    vcpu: 2,
    memory_mb: 4096,
    storage_gb: 0,
    family: 'general',
    hourly_micros: 10_000,
  },
  {
    id: 'tc.small',
    region: 'tc-seoul',
    vcpu: 2,
    memory_mb: 4096,
    storage_gb: 0,
    family: 'general',
    hourly_micros: 12_000,
  },
  {
    id: 'tc.large',
    region: 'tc-tokyo',
    vcpu: 8,
    memory_mb: 32768,
    storage_gb: 200,
    family: 'compute',
    hourly_micros: 90_000,
  },
];

interface InstanceJson {
  id: number;
  instance_id: string;
  region: { region_code: string; city: string };
  provider: { name: string; display_name: string };
  field_notes: Record<string, string>;
}

for (const backend of await storeBackends()) {
  describeStoreBackend('a test-only provider registered like the real ones', backend, () => {
    let database: IsolatedDatabase;
    let upstream: FakeUpstream;
    let t: TestApp;
    let client = 0;
    const request = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      t.app.inject({
        method,
        url,
        headers: {
          ...auth,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
        remoteAddress: `10.23.${Math.floor(++client / 200)}.${client % 200}`,
      });
    const getJson = async <T>(url: string): Promise<T> => {
      const response = await request('GET', url);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    };

    beforeAll(async () => {
      database = await backend.isolate();
      upstream = await startFakeUpstream();
      upstream.setJson('/test/catalog.json', { offers: OFFERS });
      t = await createTestApp(
        { DATABASE_URL: database.url, PROVIDER_TEST_URL: `${upstream.url}/test` },
        [...PROVIDERS, testProvider],
      );
      const sync = await request('POST', '/sync', {
        providers: ['provider_b', TEST_PROVIDER_NAME],
      });
      expect(sync.statusCode, sync.body).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
      await upstream?.close();
      await database?.drop();
    });

    it('syncs from its own upstream server', () => {
      expect(upstream.requests.map((r) => r.path)).toContain('/test/catalog.json');
    });

    it('GET /instances lists, filters and notes its records', async () => {
      const body = await getJson<{ data: { instances: InstanceJson[] } }>(
        `/instances?provider=${TEST_PROVIDER_NAME}&sort_by=price&order=asc`,
      );
      expect(
        body.data.instances.map((r) => [r.instance_id, r.region.region_code, r.region.city]),
      ).toEqual([
        ['tc.small', 'tc-tokyo', 'tokyo'],
        ['tc.small', 'tc-seoul', 'seoul'],
        ['tc.large', 'tc-tokyo', 'tokyo'],
      ]);
      expect(body.data.instances[0]!.provider).toEqual({
        id: expect.any(Number) as number,
        name: TEST_PROVIDER_NAME,
        display_name: 'Test Cloud',
      });
      expect(body.data.instances[0]!.field_notes).toEqual({ storage_gb: 'not_included' });
      expect(body.data.instances[2]!.field_notes).toEqual({});
      const byRegion = await getJson<{ data: { instances: InstanceJson[] } }>(
        '/instances?region=tc-seoul',
      );
      expect(byRegion.data.instances.map((r) => r.instance_id)).toEqual(['tc.small']);
    });

    it('GET /instances as CSV carries its rows', async () => {
      const response = await request('GET', `/instances?format=csv&provider=${TEST_PROVIDER_NAME}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body.split('\r\n').filter((l) => l.includes('tc.'))).toHaveLength(3);
    });

    it('GET /instance-types pivots its types over its regions', async () => {
      const body = await getJson<{ data: { instance_types: { instance_id: string }[] } }>(
        `/instance-types?provider=${TEST_PROVIDER_NAME}&regions=tc-tokyo,tc-seoul`,
      );
      expect(body.data.instance_types.map((r) => r.instance_id).sort()).toEqual([
        'tc.large',
        'tc.small',
      ]);
    });

    it('GET /regions lists its regions under their cities', async () => {
      const body = await getJson<{
        data: {
          providers: { name: string; display_name: string; block_storage: string | null }[];
          regions: { provider: string; region_code: string; instances: number }[];
          cities: { city: string; regions: { provider: string; region_code: string }[] }[];
        };
      }>('/regions');
      expect(body.data.providers.at(-1)).toEqual({
        name: TEST_PROVIDER_NAME,
        display_name: 'Test Cloud',
        block_storage: null,
      });
      const ours = body.data.regions.filter((r) => r.provider === TEST_PROVIDER_NAME);
      expect(ours.map((r) => [r.region_code, r.instances])).toEqual([
        ['tc-tokyo', 2],
        ['tc-seoul', 1],
      ]);
      const tokyo = body.data.cities.find((c) => c.city === 'tokyo');
      expect(tokyo?.regions).toContainEqual({
        provider: TEST_PROVIDER_NAME,
        region_code: 'tc-tokyo',
      });
    });

    it('POST /recommend ranks its types when asked for it alone', async () => {
      const response = await request('POST', '/recommend', {
        stack: ['nginx'],
        scale: 'small',
        providers: [TEST_PROVIDER_NAME],
      });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<{
        data: { recommendations: { provider: string; instance: string; region_code: string }[] };
      }>();
      const ranked = body.data.recommendations;
      expect(ranked.length).toBeGreaterThan(0);
      expect(new Set(ranked.map((r) => r.provider))).toEqual(new Set([TEST_PROVIDER_NAME]));
      expect(ranked[0]).toMatchObject({ instance: 'tc.small', region_code: 'tc-tokyo' });
    });

    it('GET /instances/{id}/history and GET /changes include it', async () => {
      const list = await getJson<{ data: { instances: InstanceJson[] } }>(
        `/instances?provider=${TEST_PROVIDER_NAME}`,
      );
      const id = list.data.instances[0]!.id;
      const history = await getJson<{ data: { provider: string } }>(`/instances/${id}/history`);
      expect(JSON.stringify(history)).toContain(TEST_PROVIDER_NAME);
      const changes = await getJson<{
        data: { changes: { kind: string; instance: { provider: string; instance_id: string } }[] };
      }>(`/changes?since=2000-01-01&provider=${TEST_PROVIDER_NAME}`);
      expect(
        changes.data.changes
          .map((c) => [c.kind, c.instance.provider, c.instance.instance_id])
          .sort(),
      ).toEqual([
        ['added', TEST_PROVIDER_NAME, 'tc.large'],
        ['added', TEST_PROVIDER_NAME, 'tc.small'],
        ['added', TEST_PROVIDER_NAME, 'tc.small'],
      ]);
    });

    it('GET /health reports it with its live source', async () => {
      // provider_a and provider_c were never synced here: degraded, 503, same body.
      const response = await request('GET', '/health');
      expect(response.statusCode, response.body).toBe(503);
      const body = response.json<{
        status: string;
        components: {
          providers: {
            name: string;
            status: string;
            data_source: { kind: string; source: string } | null;
          }[];
        };
      }>();
      expect(body.status).toBe('degraded');
      expect(body.components.providers.map((p) => p.name)).toEqual([
        ...defaultProviders().map((p) => p.name),
        TEST_PROVIDER_NAME,
      ]);
      const ours = body.components.providers.find((p) => p.name === TEST_PROVIDER_NAME);
      expect(ours?.status).toBe('healthy');
      expect(ours?.data_source?.kind).toBe('live');
      expect(ours?.data_source?.source).toMatch(/^Test Cloud API, live/);
    });

    it('MCP search_instances finds its records', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          ...auth,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'search_instances', arguments: { provider: TEST_PROVIDER_NAME } },
        }),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).not.toContain('"isError":true');
      expect(response.body).toContain('tc.small');
      expect(response.body).toContain('tc.large');
    });

    it('is in the OpenAPI enums of the app built with it', async () => {
      const doc = await getJson<{
        components: { schemas: Record<string, unknown> };
        paths: Record<string, unknown>;
      }>('/openapi.json');
      const text = JSON.stringify(doc);
      expect(text).toContain(
        `"enum":["provider_a","provider_b","provider_c","${TEST_PROVIDER_NAME}"]`,
      );
    });

    it('refuses an unregistered provider as before, naming the registered ones', async () => {
      const response = await request('GET', '/instances?provider=provider_x');
      expect(response.statusCode).toBe(400);
      const body = response.json<{ error: { details: { allowed: string[] } } }>();
      expect(body.error.details.allowed).toEqual([
        ...defaultProviders().map((p) => p.name),
        TEST_PROVIDER_NAME,
      ]);
    });
  });
}

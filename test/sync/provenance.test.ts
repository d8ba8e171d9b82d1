// D37: where every listed price comes from. A sync from a snapshot stores the date its figures
// were observed upstream (from the snapshot's metadata.json) on every record it writes and shows
// the snapshot's provenance in /health; a live sync stores the time it fetched; a snapshot
// without provenance is refused; no file path of the server reaches a response.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderName } from '../../src/catalog/model.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXTURE_SNAPSHOTS, type TestApp } from '../support/test-app.js';

interface DataSource {
  kind: string;
  observed_at: string;
  source: string;
}

interface HealthBody {
  components: {
    providers: Array<{ name: ProviderName; data_source: DataSource | null }>;
  };
}

interface InstancesBody {
  data: {
    instances: Array<{ provider: { name: ProviderName }; pricing: { observed_at: string } }>;
  };
}

const RECORDED: Record<ProviderName, string> = {
  provider_a: '2024-07-11T00:00:00.000Z',
  provider_b: '2025-12-18T00:00:00.000Z',
  provider_c: '2025-04-04T22:41:22.000Z',
};

async function sync(t: TestApp, providers: ProviderName[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sync',
    headers: auth,
    payload: { providers },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    data: { providers: Array<{ provider: string; success: boolean; error?: string }> };
  }>().data.providers;
}

async function get<T>(t: TestApp, url: string): Promise<{ text: string; body: T }> {
  const response = await t.app.inject({ method: 'GET', url, headers: auth });
  return { text: response.body, body: response.json<T>() };
}

describe('provenance of snapshot syncs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('shows no data_source before the first sync', async () => {
    const { body } = await get<HealthBody>(t, '/health');
    expect(body.components.providers.map((p) => p.data_source)).toEqual([null, null, null]);
  });

  it('stores the recording date on every record and names the recording in /health', async () => {
    const results = await sync(t, ['provider_a', 'provider_b', 'provider_c']);
    expect(results.map((r) => [r.provider, r.success, r.error])).toEqual([
      ['provider_a', true, undefined],
      ['provider_b', true, undefined],
      ['provider_c', true, undefined],
    ]);

    const health = await get<HealthBody>(t, '/health');
    for (const provider of health.body.components.providers) {
      expect(provider.data_source, provider.name).toMatchObject({
        kind: 'snapshot',
        observed_at: RECORDED[provider.name],
      });
    }
    const sources = Object.fromEntries(
      health.body.components.providers.map((p) => [p.name, p.data_source?.source ?? '']),
    );
    expect(sources['provider_a']).toMatch(/Linode API v4.*2024-07-11.*confirmed unchanged/);
    expect(sources['provider_b']).toMatch(/Osaka \(itm\) availability inferred/);
    expect(sources['provider_c']).toMatch(/ec2\.shop.*2025-04-04 22:41:22 UTC/);
    expect(health.text).not.toContain(FIXTURE_SNAPSHOTS);
    expect(health.text).not.toContain('file:');

    for (const provider of ['provider_a', 'provider_b', 'provider_c'] as const) {
      const page = await get<InstancesBody>(t, `/instances?provider=${provider}&limit=100`);
      expect(page.body.data.instances.length, provider).toBeGreaterThan(0);
      const dates = new Set(page.body.data.instances.map((i) => i.pricing.observed_at));
      expect([...dates], provider).toEqual([RECORDED[provider]]);
    }
  });
});

describe('provenance of a live sync', () => {
  let t: TestApp;
  let fake: FakeUpstream;

  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp({ PROVIDER_B_URL: `${fake.url}/provider_b` });
  });

  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('stores the time it fetched, and says live', async () => {
    const before = Date.now();
    const [result] = await sync(t, ['provider_b']);
    const after = Date.now();
    expect(result?.success).toBe(true);
    const health = await get<HealthBody>(t, '/health');
    const source = health.body.components.providers.find((p) => p.name === 'provider_b')
      ?.data_source as DataSource;
    expect(source).toMatchObject({
      kind: 'live',
      source: expect.stringMatching(/Vultr API v2, live/) as unknown,
    });
    const observed = Date.parse(source.observed_at);
    expect(observed).toBeGreaterThanOrEqual(before);
    expect(observed).toBeLessThanOrEqual(after);
    const page = await get<InstancesBody>(t, '/instances?provider=provider_b&limit=100');
    expect(new Set(page.body.data.instances.map((i) => i.pricing.observed_at))).toEqual(
      new Set([source.observed_at]),
    );
  });
});

describe('a snapshot without provenance', () => {
  let t: TestApp | undefined;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-no-metadata-'));
    await cp(path.join(FIXTURE_SNAPSHOTS, 'provider_a'), path.join(dir, 'provider_a'), {
      recursive: true,
    });
    await rm(path.join(dir, 'provider_a', 'metadata.json'));
  });

  afterEach(async () => {
    await t?.close();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is refused: its prices would have no date (D37)', async () => {
    t = await createTestApp({
      PROVIDER_A_URL: pathToFileURL(path.join(dir, 'provider_a', '/')).href,
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a'] },
    });
    // Every requested provider failed: 500 SYNC_FAILED with the per-provider results.
    expect(response.statusCode).toBe(500);
    const [result] = response.json<{
      error: { details: { providers: Array<{ success: boolean; error: string }> } };
    }>().error.details.providers;
    expect(result).toMatchObject({ success: false });
    expect(result?.error).toMatch(/metadata\.json/);
    expect(result?.error).not.toContain(dir);
    const page = await get<{ data: { pagination: { total: number } } }>(t, '/instances');
    expect(page.body.data.pagination.total).toBe(0);
  });
});

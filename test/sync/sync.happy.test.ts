// POST /sync that works (spec 4.3, D15, D20 to D24): the response shape, the catalogue it
// leaves behind, the /instances cache it clears, vanished instances, and concurrent requests.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';
import { waitFor } from '../support/wait.js';
import { countSyncRuns, readPricing } from './catalog-file.js';

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

interface SyncBody {
  success: boolean;
  data: {
    sync_id: string;
    success: boolean;
    started_at: string;
    completed_at: string;
    total_duration_ms: number;
    providers: ProviderResult[];
    summary: {
      total_providers: number;
      successful_providers: number;
      failed_providers: number;
      total_regions: number;
      total_instances: number;
      total_pricing: number;
    };
  };
}

interface InstancesBody {
  data: {
    instances: Array<{
      instance_id: string;
      provider: { name: string };
      region: { region_code: string };
      pricing: { available: number };
    }>;
    pagination: { total: number; has_more: boolean };
    metadata: { cached: boolean; last_sync: string | null };
  };
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SYNC_ID = /^sync_(\d+)_[a-z0-9]{8,}$/;
const ALL = ['provider_a', 'provider_b', 'provider_c'] as const;

/** A client of one test app whose every request lands in a fresh rate-limit window. */
function client(t: () => TestApp) {
  let minute = 0;
  const fresh = () => {
    minute += 1;
    t().setNow(FIXED_NOW + minute * 60_000);
  };
  return {
    async sync(body?: unknown) {
      fresh();
      const response = await t().app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.json<SyncBody>() };
    },
    async instances(query: string) {
      fresh();
      const response = await t().app.inject({
        method: 'GET',
        url: `/instances${query}`,
        headers: auth,
      });
      expect(response.statusCode).toBe(200);
      return response.json<InstancesBody>();
    },
  };
}

/** Every available record of a provider, through the API (all pages). */
async function listAll(api: ReturnType<typeof client>, provider: string) {
  const rows: InstancesBody['data']['instances'] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.instances(`?provider=${provider}&limit=100&offset=${offset}`);
    rows.push(...page.data.instances);
    if (!page.data.pagination.has_more) return rows;
  }
}

/** The report's invariants (spec 4.3, D2, D21): shapes, sums and times. */
function expectWellFormedReport(body: SyncBody, requested: readonly string[]) {
  expect(body.success).toBe(true);
  const data = body.data;
  const id = SYNC_ID.exec(data.sync_id);
  expect(id, data.sync_id).not.toBeNull();
  expect(data.started_at).toMatch(ISO_MS);
  expect(data.completed_at).toMatch(ISO_MS);
  const started = Date.parse(data.started_at);
  const completed = Date.parse(data.completed_at);
  expect(completed).toBeGreaterThanOrEqual(started);
  // The id's epoch milliseconds are the run's start.
  expect(Math.abs(Number(id![1]) - started)).toBeLessThan(1000);
  expect(Number.isInteger(data.total_duration_ms)).toBe(true);
  expect(data.total_duration_ms).toBe(completed - started);
  expect(data.providers.map((p) => p.provider)).toEqual(requested);
  for (const p of data.providers) {
    for (const n of [p.regions_synced, p.instances_synced, p.pricing_synced, p.duration_ms]) {
      expect(Number.isInteger(n) && n >= 0).toBe(true);
    }
  }
  const sum = (key: 'regions_synced' | 'instances_synced' | 'pricing_synced') =>
    data.providers.reduce((n, p) => n + p[key], 0);
  const succeeded = data.providers.filter((p) => p.success).length;
  expect(data.summary).toEqual({
    total_providers: requested.length,
    successful_providers: succeeded,
    failed_providers: requested.length - succeeded,
    total_regions: sum('regions_synced'),
    total_instances: sum('instances_synced'),
    total_pricing: sum('pricing_synced'),
  });
  expect(data.success).toBe(succeeded === requested.length);
}

describe('POST /sync from the bundled snapshots (file://)', () => {
  let t: TestApp;
  const api = client(() => t);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('syncs provider_a alone when there is no body, and /instances then lists it', async () => {
    const before = await api.instances('');
    expect(before.data.pagination.total).toBe(0);
    expect(before.data.metadata.last_sync).toBeNull();

    const { status, body } = await api.sync();
    expect(status).toBe(200);
    expectWellFormedReport(body, ['provider_a']);
    const [result] = body.data.providers;
    expect(result).toMatchObject({ provider: 'provider_a', success: true, regions_synced: 3 });
    expect(result).not.toHaveProperty('error');
    expect(result!.instances_synced).toBeGreaterThan(0);
    expect(result!.pricing_synced).toBeGreaterThanOrEqual(result!.instances_synced);

    const rows = await listAll(api, 'provider_a');
    expect(rows).toHaveLength(result!.pricing_synced);
    expect(new Set(rows.map((r) => r.instance_id)).size).toBe(result!.instances_synced);
    expect(new Set(rows.map((r) => r.region.region_code))).toEqual(
      new Set(['ap-northeast', 'ap-south', 'ap-southeast']),
    );
    const other = await api.instances('?provider=provider_b');
    expect(other.data.pagination.total).toBe(0);

    // last_sync is the run's time: inside the request's own window.
    const lastSync = (await api.instances('?limit=1')).data.metadata.last_sync;
    expect(lastSync).toMatch(ISO_MS);
    expect(Date.parse(lastSync!)).toBeGreaterThanOrEqual(Date.parse(body.data.started_at));
    expect(Date.parse(lastSync!)).toBeLessThanOrEqual(Date.parse(body.data.completed_at));
  });

  it('syncs all three providers, each counted in the summary', async () => {
    const { status, body } = await api.sync({ providers: [...ALL] });
    expect(status).toBe(200);
    expectWellFormedReport(body, ALL);
    for (const result of body.data.providers) {
      expect(result.error_details, `${result.provider}: ${result.error}`).toBeUndefined();
      expect(result.success).toBe(true);
      expect(result.pricing_synced).toBeGreaterThan(0);
      const rows = await listAll(api, result.provider);
      expect(rows).toHaveLength(result.pricing_synced);
      expect(new Set(rows.map((r) => r.region.region_code)).size).toBe(result.regions_synced);
    }
    expect(body.data.success).toBe(true);
  });

  it('counts a provider named twice once, in the order first named', async () => {
    const { status, body } = await api.sync({
      providers: ['provider_b', 'provider_a', 'provider_b', 'provider_a'],
      force: false,
    });
    expect(status).toBe(200);
    expectWellFormedReport(body, ['provider_b', 'provider_a']);
    expect(body.data.summary.total_providers).toBe(2);
  });

  it('gives every run a new sync_id', async () => {
    const first = await api.sync({ providers: ['provider_b'] });
    const second = await api.sync({ providers: ['provider_b'] });
    expect(first.body.data.sync_id).not.toBe(second.body.data.sync_id);
  });

  it('drops cached /instances responses when a sync succeeds (D20)', async () => {
    const query = '?provider=provider_b&sort_by=vcpu&limit=7';
    expect((await api.instances(query)).data.metadata.cached).toBe(false);
    expect((await api.instances(query)).data.metadata.cached).toBe(true);
    const { body } = await api.sync({ providers: ['provider_b'] });
    expect(body.data.success).toBe(true);
    const after = await api.instances(query);
    expect(after.data.metadata.cached).toBe(false);
    expect(Date.parse(after.data.metadata.last_sync!)).toBeGreaterThanOrEqual(
      Date.parse(body.data.started_at),
    );
  });
});

describe('POST /sync against an upstream that changes (fake upstream for provider_a)', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  const api = client(() => t);
  const typesPath = '/provider_a/linode/types';
  const original = JSON.parse(
    readFileSync(
      new URL('../fixtures/snapshots/provider_a/linode/types.json', import.meta.url),
      'utf8',
    ),
  ) as { data: Array<{ id: string }>; page: number; pages: number; results: number };
  const gone = 'g6-standard-2';

  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp({
      PROVIDER_A_URL: `${fake.url}/provider_a`,
      PROVIDER_B_URL: `${fake.url}/provider_b`,
    });
    const { body } = await api.sync({ providers: ['provider_a', 'provider_b'] });
    expect(body.data.success).toBe(true);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const dbFile = () => t.services.config.databaseUrl;

  it('keeps an instance that vanished upstream as available = 0, and revives it when it returns', async () => {
    expect(original.data.some((type) => type.id === gone)).toBe(true);
    const listed = async () => (await listAll(api, 'provider_a')).map((r) => r.instance_id);
    expect(await listed()).toContain(gone);
    const storedBefore = readPricing(dbFile(), 'provider_a').filter((r) => r.instanceId === gone);
    expect(storedBefore.length).toBeGreaterThan(0);
    expect(storedBefore.every((r) => r.available === 1)).toBe(true);

    const without = original.data.filter((type) => type.id !== gone);
    fake.setJson(typesPath, { ...original, data: without, results: without.length });
    const removed = await api.sync({ providers: ['provider_a'] });
    expect(removed.status).toBe(200);
    expect(removed.body.data.providers[0]).toMatchObject({ success: true });
    expect(await listed()).not.toContain(gone);
    const storedGone = readPricing(dbFile(), 'provider_a').filter((r) => r.instanceId === gone);
    // The same rows, kept with their prices, now unavailable (D15).
    expect(
      storedGone.map((r) => [r.regionCode, r.hourlyMicros, r.monthlyMicros, r.available]),
    ).toEqual(storedBefore.map((r) => [r.regionCode, r.hourlyMicros, r.monthlyMicros, 0]));
    // Nothing else was marked unavailable.
    const others = readPricing(dbFile(), 'provider_a').filter((r) => r.instanceId !== gone);
    expect(others.every((r) => r.available === 1)).toBe(true);
    expect(others).toHaveLength(removed.body.data.providers[0]!.pricing_synced);

    fake.setJson(typesPath, original);
    const back = await api.sync({ providers: ['provider_a'] });
    expect(back.body.data.providers[0]).toMatchObject({ success: true });
    expect(await listed()).toContain(gone);
    const storedBack = readPricing(dbFile(), 'provider_a').filter((r) => r.instanceId === gone);
    expect(storedBack.map((r) => [r.regionCode, r.available])).toEqual(
      storedBefore.map((r) => [r.regionCode, 1]),
    );
  });

  it('shares one run between two concurrent requests for the same provider (D24)', async () => {
    // A slow first response keeps the first run going while the second request arrives.
    fake.setFault('/provider_a/regions', { kind: 'slow-drip', intervalMs: 1, times: 1 });
    fake.clearRequests();
    const runsBefore = countSyncRuns(dbFile(), 'provider_a');

    const first = api.sync({ providers: ['provider_a'] });
    await waitFor(
      () => fake.requests.some((r) => r.path.startsWith('/provider_a/regions')),
      10_000,
    );
    const second = api.sync({ providers: ['provider_a'] });
    const [a, b] = await Promise.all([first, second]);

    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const resultA = a.body.data.providers[0]!;
    const resultB = b.body.data.providers[0]!;
    expect(resultA.success).toBe(true);
    expect(resultB).toEqual(resultA);
    // The upstream saw one run's requests, and the history holds one run.
    const paths = fake.requests.map((r) => r.path.split('?')[0]);
    expect(paths.filter((p) => p === '/provider_a/regions')).toHaveLength(1);
    expect(paths.filter((p) => p === typesPath)).toHaveLength(1);
    expect(countSyncRuns(dbFile(), 'provider_a')).toBe(runsBefore + 1);
  });

  it('starts a new run for a request that comes after the previous one finished', async () => {
    fake.clearRequests();
    const runsBefore = countSyncRuns(dbFile(), 'provider_a');
    await api.sync({ providers: ['provider_a'] });
    await api.sync({ providers: ['provider_a'] });
    expect(fake.requests.filter((r) => r.path.startsWith('/provider_a/regions'))).toHaveLength(2);
    expect(countSyncRuns(dbFile(), 'provider_a')).toBe(runsBefore + 2);
  });

  it('drops the /instances cache as soon as one provider is stored, not when the slowest ends', async () => {
    // Regression: the cache used to be cleared once the whole request had finished, so a slow
    // provider kept another's fresh data hidden behind cached responses meanwhile.
    const query = '?provider=provider_a&limit=100';
    await api.instances(query);
    expect((await api.instances(query)).data.metadata.cached).toBe(true);
    const without = original.data.filter((type) => type.id !== gone);
    fake.setJson(typesPath, { ...original, data: without, results: without.length });
    fake.setFault('/provider_b/regions', { kind: 'slow-drip', intervalMs: 2, times: 1 });
    fake.clearRequests();
    const runsBefore = countSyncRuns(dbFile(), 'provider_a');
    let finished = false;
    const request = api.sync({ providers: ['provider_b', 'provider_a'] }).finally(() => {
      finished = true;
    });
    try {
      await waitFor(() => countSyncRuns(dbFile(), 'provider_a') === runsBefore + 1, 10_000);
      const drip = fake.requests.find((r) => r.path.startsWith('/provider_b/regions'));
      expect(drip?.closedEarly).toBe(false);
      const during = await api.instances(query);
      expect(finished).toBe(false);
      expect(during.data.metadata.cached).toBe(false);
      expect(during.data.instances.map((r) => r.instance_id)).not.toContain(gone);
    } finally {
      const { body } = await request;
      fake.setJson(typesPath, original);
      expect(body.data.success).toBe(true);
    }
  });

  it('reports SYNC_ABORTED for a sync cut short by a shutdown, and keeps the catalogue', async () => {
    const before = readPricing(dbFile(), 'provider_b');
    fake.setFault('/provider_b/', { kind: 'hang' });
    fake.clearRequests();
    try {
      const request = api.sync({ providers: ['provider_b'] });
      await waitFor(() => fake.requests.some((r) => r.path.startsWith('/provider_b/')), 10_000);
      t.services.sync.abortAll();
      const { status, body } = await request;
      expect(status).toBe(500);
      const envelope = body as unknown as {
        error: { code: string; details: { providers: ProviderResult[] } };
      };
      expect(envelope.error.code).toBe('SYNC_FAILED');
      expect(envelope.error.details.providers[0]?.error_details?.code).toBe('SYNC_ABORTED');
      expect(readPricing(dbFile(), 'provider_b')).toEqual(before);
    } finally {
      fake.setFault('/provider_b/', null);
    }
    // The service still syncs after an abort (the next sync gets a fresh signal).
    const { body } = await api.sync({ providers: ['provider_b'] });
    expect(body.data.success).toBe(true);
  });
});

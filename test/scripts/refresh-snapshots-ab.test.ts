// The provider_a and provider_b snapshot refresh, run against a real local server playing the
// live APIs (several pages each): it must write single-page documents the file:// upstream and
// the adapters read back, and fail loudly, writing nothing, when the upstream cannot be read.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshProviderA } from '../../src/providers/provider-a/snapshot/refresh.js';
import { refreshProviderB } from '../../src/providers/provider-b/snapshot/refresh.js';
import { createProviderAAdapter } from '../../src/providers/provider-a/adapter.js';
import { createProviderBAdapter } from '../../src/providers/provider-b/adapter.js';
import type { ProviderAdapter } from '../../src/catalog/offers.js';
import type { UpstreamClient } from '../../src/sync/upstream/upstream-client.js';
import { createUpstreamClient } from '../../src/sync/upstream/http-upstream-client.js';
import { closedPortUrl, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';

let fake: FakeUpstream;
let outDir: string;

beforeEach(async () => {
  fake = await startFakeUpstream();
  outDir = await mkdtemp(path.join(tmpdir(), 'cloudprice-refresh-'));
});
afterEach(async () => {
  await fake.close();
  await rm(outDir, { recursive: true, force: true });
});

const now = new Date('2026-11-22T03:04:05Z');

async function readBack(
  dir: string,
  makeAdapter: (client: UpstreamClient) => ProviderAdapter,
): Promise<{ offers: number; ids: Set<string> }> {
  const client = createUpstreamClient({
    baseUrl: pathToFileURL(`${dir}/`).href,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 5 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
  try {
    const catalog = await makeAdapter(client).fetchCatalog(new AbortController().signal);
    return { offers: catalog.offers.length, ids: new Set(catalog.offers.map((o) => o.instanceId)) };
  } finally {
    await client.close();
  }
}

function linodeType(id: string): Record<string, unknown> {
  return {
    id,
    label: `Linode ${id}`,
    class: 'standard',
    vcpus: 2,
    memory: 4096,
    disk: 81920,
    transfer: 4000,
    network_out: 4000,
    gpus: 0,
    price: { hourly: 0.036, monthly: 24 },
    region_prices: [],
  };
}

function vultrPlan(id: string): Record<string, unknown> {
  return {
    id,
    vcpu_count: 1,
    ram: 1024,
    disk: 25,
    bandwidth: 1024,
    monthly_cost: 5,
    hourly_cost: 0.007,
    type: 'vc2',
    locations: ['icn', 'nrt'],
  };
}

describe('refreshProviderA', () => {
  it('merges every page into single-page snapshot files that the adapter reads back', async () => {
    const regions = [
      { id: 'ap-northeast', capabilities: ['Linodes'], status: 'ok' },
      { id: 'us-east', capabilities: ['Linodes'], status: 'ok' },
    ];
    fake.setJson('/live-a/regions?page=1&page_size=500', {
      data: regions,
      page: 1,
      pages: 1,
      results: 2,
    });
    const types = ['t1', 't2', 't3'].map(linodeType);
    fake.setJson('/live-a/linode/types?page=1&page_size=500', {
      data: types.slice(0, 2),
      page: 1,
      pages: 2,
      results: 3,
    });
    fake.setJson('/live-a/linode/types?page=2&page_size=500', {
      data: types.slice(2),
      page: 2,
      pages: 2,
      results: 3,
    });

    const result = await refreshProviderA(outDir, { baseUrl: `${fake.url}/live-a`, now });

    expect(result.offers).toBe(3);
    const dir = path.join(outDir, 'provider_a');
    const written: unknown = JSON.parse(
      await readFile(path.join(dir, 'linode', 'types.json'), 'utf8'),
    );
    expect(written).toMatchObject({ page: 1, pages: 1, results: 3 });
    expect((written as { data: unknown[] }).data).toEqual(types);
    const metadata: unknown = JSON.parse(await readFile(path.join(dir, 'metadata.json'), 'utf8'));
    expect(metadata).toMatchObject({
      provider: 'provider_a',
      data_source: {
        observed_at: now.toISOString(),
        source: expect.stringMatching(/Linode/) as unknown,
      },
      observed_at: now.toISOString(),
    });
    const back = await readBack(dir, (client) => createProviderAAdapter({ client }));
    expect(back).toEqual({ offers: 3, ids: new Set(['t1', 't2', 't3']) });
  });

  it('fails with a message naming the provider and the error code, and writes nothing', async () => {
    const baseUrl = await closedPortUrl();
    await expect(refreshProviderA(outDir, { baseUrl, now })).rejects.toThrow(
      /provider_a snapshot refresh failed .*UPSTREAM_NETWORK_ERROR/,
    );
    expect(await readdir(outDir)).toEqual([]);
  });

  it('refuses to write data the adapter cannot parse', async () => {
    fake.setJson('/live-a/regions', {
      data: [{ id: 'ap-northeast', capabilities: ['Linodes'] }],
      page: 1,
      pages: 1,
      results: 1,
    });
    fake.setFault('/live-a/linode/types', { kind: 'wrong-shape' });
    await expect(refreshProviderA(outDir, { baseUrl: `${fake.url}/live-a`, now })).rejects.toThrow(
      /UPSTREAM_INVALID_DATA/,
    );
    expect(await readdir(outDir)).toEqual([]);
  });
});

describe('refreshProviderB', () => {
  it('follows the cursor and writes single-page snapshot files that the adapter reads back', async () => {
    const meta = (next: string) => ({ total: 3, links: { next, prev: '' } });
    fake.setJson('/live-b/regions?per_page=500', {
      regions: [{ id: 'icn' }, { id: 'nrt' }],
      meta: meta(''),
    });
    const plans = ['p1', 'p2', 'p3'].map(vultrPlan);
    fake.setJson('/live-b/plans?per_page=500', {
      plans: plans.slice(0, 2),
      meta: meta('Y3Vyc29y'),
    });
    fake.setJson('/live-b/plans?per_page=500&cursor=Y3Vyc29y', {
      plans: plans.slice(2),
      meta: meta(''),
    });

    const result = await refreshProviderB(outDir, { baseUrl: `${fake.url}/live-b`, now });

    expect(result.offers).toBe(6);
    const dir = path.join(outDir, 'provider_b');
    const written: unknown = JSON.parse(await readFile(path.join(dir, 'plans.json'), 'utf8'));
    expect(written).toEqual({ plans, meta: { total: 3, links: { next: '', prev: '' } } });
    const back = await readBack(dir, (client) => createProviderBAdapter({ client }));
    expect(back).toEqual({ offers: 6, ids: new Set(['p1', 'p2', 'p3']) });
  });

  it('fails with a message naming the provider and the error code, and writes nothing', async () => {
    const baseUrl = await closedPortUrl();
    await expect(refreshProviderB(outDir, { baseUrl, now })).rejects.toThrow(
      /provider_b snapshot refresh failed .*UPSTREAM_NETWORK_ERROR/,
    );
    expect(await readdir(outDir)).toEqual([]);
  });
});

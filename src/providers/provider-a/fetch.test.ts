import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/support/fake-upstream.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { createProviderAAdapter } from './adapter.js';
import { fetchLinodeCollection, LINODE_MAX_PAGES } from './fetch.js';

let fake: FakeUpstream;
let client: ClosableUpstreamClient;

// A fresh server per test: routes set with setJson cannot be removed, and they win over files.
beforeEach(async () => {
  fake = await startFakeUpstream();
  client = createUpstreamClient({
    baseUrl: `${fake.url}/provider_a`,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 5 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
});
afterEach(async () => {
  await client.close();
  await fake.close();
});

const signal = new AbortController().signal;

function linodeType(id: string): Record<string, unknown> {
  return {
    id,
    label: `Type ${id}`,
    class: 'standard',
    vcpus: 1,
    memory: 2048,
    disk: 51200,
    transfer: 2000,
    network_out: 2000,
    gpus: 0,
    price: { hourly: 0.018, monthly: 12 },
    region_prices: [],
  };
}

// Linode's ids of our three cities: Tokyo 2, Osaka, Singapore (region-map.ts).
const regionRecords = [
  { id: 'ap-northeast', capabilities: ['Linodes'], status: 'ok' },
  { id: 'jp-osa', capabilities: ['Linodes', 'GPU Linodes'], status: 'ok' },
  { id: 'ap-south', capabilities: ['Linodes'], status: 'ok' },
];

/** Serves `records` at `path` split into pages of `size`, each keyed by its exact query. */
function servePages(path: string, records: unknown[], size: number): void {
  const pages = Math.ceil(records.length / size);
  for (let page = 1; page <= pages; page += 1) {
    fake.setJson(`/provider_a${path}?page=${page}&page_size=500`, {
      data: records.slice((page - 1) * size, page * size),
      page,
      pages,
      results: records.length,
    });
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('provider_a fetch over HTTP', () => {
  it('reads every page of both collections and lists every type', async () => {
    servePages('/regions', regionRecords, 2);
    servePages('/linode/types', ['t1', 't2', 't3', 't4', 't5'].map(linodeType), 2);

    const catalog = await createProviderAAdapter({ client }).fetchCatalog(signal);

    expect(new Set(catalog.offers.map((o) => o.instanceId))).toEqual(
      new Set(['t1', 't2', 't3', 't4', 't5']),
    );
    expect(catalog.offers).toHaveLength(15);
    expect(catalog.regionCodes).toEqual(['ap-northeast', 'ap-south', 'ap-southeast']);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/provider_a/regions?page=1&page_size=500',
      '/provider_a/regions?page=2&page_size=500',
      '/provider_a/linode/types?page=1&page_size=500',
      '/provider_a/linode/types?page=2&page_size=500',
      '/provider_a/linode/types?page=3&page_size=500',
    ]);
  });

  it('reads the bundled snapshot served as files: one page per collection', async () => {
    const catalog = await createProviderAAdapter({ client }).fetchCatalog(signal);
    expect(catalog.offers.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails when a later page is not the page asked for (past-the-end answers)', async () => {
    const records = ['t1', 't2', 't3'].map(linodeType);
    // Every query gets page 1 of 2: the walk must not loop or accept it as page 2.
    fake.setJson('/provider_a/linode/types', { data: records, page: 1, pages: 2, results: 6 });
    const code = await codeOf(fetchLinodeCollection(client, '/linode/types', signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
    expect(fake.requests).toHaveLength(2);
  });

  it(`refuses a collection of more than ${LINODE_MAX_PAGES} pages without walking it`, async () => {
    fake.setJson('/provider_a/linode/types', {
      data: [linodeType('t1')],
      page: 1,
      pages: LINODE_MAX_PAGES + 1,
      results: LINODE_MAX_PAGES + 1,
    });
    const code = await codeOf(fetchLinodeCollection(client, '/linode/types', signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
    expect(fake.requests).toHaveLength(1);
  });

  it('fails when the pages hold fewer records than `results` says', async () => {
    fake.setJson('/provider_a/linode/types', {
      data: [linodeType('t1')],
      page: 1,
      pages: 1,
      results: 2,
    });
    expect(await codeOf(fetchLinodeCollection(client, '/linode/types', signal))).toBe(
      'UPSTREAM_INVALID_DATA',
    );
  });

  it('fails when the collection changes between pages', async () => {
    fake.setJson('/provider_a/linode/types?page=1&page_size=500', {
      data: [linodeType('t1')],
      page: 1,
      pages: 2,
      results: 2,
    });
    fake.setJson('/provider_a/linode/types?page=2&page_size=500', {
      data: [linodeType('t2')],
      page: 2,
      pages: 3,
      results: 3,
    });
    expect(await codeOf(fetchLinodeCollection(client, '/linode/types', signal))).toBe(
      'UPSTREAM_INVALID_DATA',
    );
  });

  it('turns a document of the wrong shape into UPSTREAM_INVALID_DATA', async () => {
    fake.setFault('/provider_a/regions', { kind: 'wrong-shape' });
    const code = await codeOf(createProviderAAdapter({ client }).fetchCatalog(signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
  });

  it('passes the client error through (a 404 stays UPSTREAM_HTTP_ERROR)', async () => {
    fake.setFault('/provider_a/linode/types', { kind: 'status', status: 404 });
    const code = await codeOf(createProviderAAdapter({ client }).fetchCatalog(signal));
    expect(code).toBe('UPSTREAM_HTTP_ERROR');
  });
});

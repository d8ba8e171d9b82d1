import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/support/fake-upstream.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { createProviderBAdapter } from './adapter.js';
import { fetchVultrCollection, VULTR_MAX_PAGES } from './fetch.js';

let fake: FakeUpstream;
let client: ClosableUpstreamClient;

// A fresh server per test: routes set with setJson cannot be removed, and they win over files.
beforeEach(async () => {
  fake = await startFakeUpstream();
  client = createUpstreamClient({
    baseUrl: `${fake.url}/provider_b`,
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

function plan(id: string): Record<string, unknown> {
  return {
    id,
    vcpu_count: 1,
    ram: 1024,
    disk: 25,
    disk_count: 1,
    bandwidth: 1024,
    monthly_cost: 5,
    hourly_cost: 0.007,
    type: 'vc2',
    locations: ['icn', 'nrt', 'itm'],
  };
}

function page(key: 'plans' | 'regions', records: unknown[], next: string): unknown {
  return { [key]: records, meta: { total: 99, links: { next, prev: '' } } };
}

const FIRST = '/provider_b/plans?per_page=500';
const after = (cursor: string) => `${FIRST}&cursor=${encodeURIComponent(cursor)}`;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamError) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('provider_b fetch over HTTP', () => {
  it('follows meta.links.next through every page of both collections', async () => {
    fake.setJson(
      '/provider_b/regions?per_page=500',
      page('regions', [{ id: 'icn' }, { id: 'nrt' }], 'cmVnaW9ucy0y'),
    );
    fake.setJson(
      '/provider_b/regions?per_page=500&cursor=cmVnaW9ucy0y',
      page('regions', [{ id: 'itm' }, { id: 'sgp' }], ''),
    );
    // A real-looking base64 cursor with `=` padding, which must be URL-encoded.
    fake.setJson(FIRST, page('plans', [plan('p1'), plan('p2')], 'bmV4dF9fdmMyLTJjLTJnYg=='));
    fake.setJson(after('bmV4dF9fdmMyLTJjLTJnYg=='), page('plans', [plan('p3')], 'c2Vjb25k'));
    fake.setJson(after('c2Vjb25k'), page('plans', [plan('p4')], ''));

    const catalog = await createProviderBAdapter({ client }).fetchCatalog(signal);

    expect(new Set(catalog.offers.map((o) => o.instanceId))).toEqual(
      new Set(['p1', 'p2', 'p3', 'p4']),
    );
    expect(catalog.offers).toHaveLength(12);
    expect(catalog.regionCodes).toEqual(['icn', 'nrt', 'itm']);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/provider_b/regions?per_page=500',
      '/provider_b/regions?per_page=500&cursor=cmVnaW9ucy0y',
      FIRST,
      `${FIRST}&cursor=bmV4dF9fdmMyLTJjLTJnYg%3D%3D`,
      `${FIRST}&cursor=c2Vjb25k`,
    ]);
  });

  it('reads the bundled snapshot served as files: one page per collection', async () => {
    const catalog = await createProviderBAdapter({ client }).fetchCatalog(signal);
    expect(catalog.offers.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails on a cursor that comes back (a loop) instead of walking forever', async () => {
    fake.setJson(FIRST, page('plans', [plan('p1')], 'A'));
    fake.setJson(after('A'), page('plans', [plan('p2')], 'B'));
    fake.setJson(after('B'), page('plans', [plan('p3')], 'A'));
    const code = await codeOf(fetchVultrCollection(client, 'plans', signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
    expect(fake.requests).toHaveLength(3);
  });

  it(`stops after ${VULTR_MAX_PAGES} pages when the cursor never ends`, async () => {
    fake.setJson(FIRST, page('plans', [plan('p0')], 'c1'));
    for (let n = 1; n <= VULTR_MAX_PAGES + 5; n += 1) {
      fake.setJson(after(`c${n}`), page('plans', [plan(`p${n}`)], `c${n + 1}`));
    }
    const code = await codeOf(fetchVultrCollection(client, 'plans', signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
    expect(fake.requests).toHaveLength(VULTR_MAX_PAGES);
  });

  it('turns a document of the wrong shape into UPSTREAM_INVALID_DATA', async () => {
    fake.setFault('/provider_b/plans', { kind: 'wrong-shape' });
    const code = await codeOf(createProviderBAdapter({ client }).fetchCatalog(signal));
    expect(code).toBe('UPSTREAM_INVALID_DATA');
  });

  it('passes the client error through (a 404 stays UPSTREAM_HTTP_ERROR)', async () => {
    fake.setFault('/provider_b/regions', { kind: 'status', status: 404 });
    const code = await codeOf(createProviderBAdapter({ client }).fetchCatalog(signal));
    expect(code).toBe('UPSTREAM_HTTP_ERROR');
  });
});

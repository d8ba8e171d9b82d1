// provider_c end to end: the bundled snapshot read through the real upstream client, from a
// file:// directory and over HTTP from the fake upstream, through real worker threads.
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/support/fake-upstream.js';
import { readAwsPriceFile } from './snapshot/aws-price-file.js';
import type { Ec2RegionCode } from './snapshot/records.js';
import type { ProviderCatalog } from '../../catalog/offers.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import { createProviderCAdapter, type ProviderCAdapterOptions } from './adapter.js';

const SNAPSHOT = fileURLToPath(new URL('../../../data/snapshots/provider_c/', import.meta.url));
/** What the fake upstream serves by default: the test copy, a subset of the same records. */
const FIXTURE = fileURLToPath(
  new URL('../../../test/fixtures/snapshots/provider_c/', import.meta.url),
);
const EC2 = '/offers/v1.0/aws/AmazonEC2/current';
const OUR_REGIONS: readonly Ec2RegionCode[] = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-east-1',
];

function client(baseUrl: string): ClosableUpstreamClient {
  return createUpstreamClient({
    baseUrl,
    connectTimeoutMs: 2_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 64 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
}

function sync(options: ProviderCAdapterOptions): Promise<ProviderCatalog> {
  return createProviderCAdapter(options).fetchCatalog(AbortSignal.timeout(25_000));
}

async function rejection(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof UpstreamError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('provider_c adapter on the bundled snapshot (file://)', () => {
  let catalog: ProviderCatalog;
  const workers: Worker[] = [];

  beforeAll(async () => {
    const files = client(pathToFileURL(SNAPSHOT).href);
    catalog = await sync({ client: files, onWorker: (w) => workers.push(w) });
    await files.close();
  });

  it('syncs all five regions, one worker each, every worker stopped afterwards', () => {
    expect(catalog.provider).toBe('provider_c');
    expect(catalog.regionCodes).toEqual(OUR_REGIONS);
    expect(workers).toHaveLength(5);
    expect(workers.every((w) => w.threadId === -1)).toBe(true);
    expect(catalog.skippedRecords).toBe(0);
  });

  it('lists every recorded type of each region once, but the accelerators (D35) and g2', async () => {
    const recorded = await readAwsPriceFile();
    for (const region of OUR_REGIONS) {
      const listed = catalog.offers.filter((o) => o.regionCode === region).map((o) => o.instanceId);
      const expected = recorded
        .filter((r) => r.region === region && !/^(inf|trn|vt\d|g2\.)/.test(r.instanceType))
        .map((r) => r.instanceType)
        .sort();
      expect(listed).toEqual(expected);
    }
    expect(catalog.offers).toHaveLength(2479);
  });

  it('lists the bare-metal sizes, which the offer files keep in their own product family', () => {
    const metal = catalog.offers.find(
      (o) => o.regionCode === 'ap-northeast-1' && o.instanceId === 'm5.metal',
    );
    expect(metal).toMatchObject({ vcpu: 96, memoryMb: 393_216, hourlyMicros: 5_952_000 });
  });

  it('carries prices seen in other public sources exactly (upstream-formats.md §3.6)', () => {
    const tokyo = (id: string) =>
      catalog.offers.find((o) => o.regionCode === 'ap-northeast-1' && o.instanceId === id);
    expect(tokyo('t4g.small')?.hourlyMicros).toBe(21_600);
    expect(tokyo('t4g.medium')?.hourlyMicros).toBe(43_200);
    expect(tokyo('t2.micro')?.hourlyMicros).toBe(15_200);
    // Monthly = hourly x 730 in whole cents (money.ts): 11.096 -> 11.10.
    expect(tokyo('t2.micro')?.monthlyMicros).toBe(11_100_000);
  });

  it('maps specs into our units and families', () => {
    const tokyo = (id: string) =>
      catalog.offers.find((o) => o.regionCode === 'ap-northeast-1' && o.instanceId === id);
    expect(tokyo('g4dn.xlarge')).toMatchObject({
      vcpu: 4,
      memoryMb: 16_384,
      storageGb: 125,
      networkSpeedGbps: 25,
      gpuCount: 1,
      gpuType: 'NVIDIA T4',
      family: 'gpu',
      transferTb: 0,
    });
    // AWS's own words: "Low to Moderate" (a class, docs/api.md), "Up to 12500 Megabit".
    expect(tokyo('t2.micro')).toMatchObject({ vcpu: 1, memoryMb: 1024, networkSpeedGbps: 0.3 });
    expect(tokyo('m6i.large')).toMatchObject({ networkSpeedGbps: 12.5, family: 'general' });
    expect(tokyo('m4.large')).toMatchObject({ networkSpeedGbps: 0.5, family: 'general' });
    // The recording holds no network figure for previous-generation types: 0 (not_recorded).
    expect(tokyo('c1.medium')).toMatchObject({ networkSpeedGbps: 0, family: 'compute' });
    // "4 X 940 GB NVMe SSD", as AWS writes it for g6.
    expect(tokyo('g6.12xlarge')).toMatchObject({ storageGb: 3760, gpuCount: 4, family: 'gpu' });
    expect(tokyo('c7g.xlarge')?.family).toBe('compute');
    expect(tokyo('r7i.2xlarge')).toMatchObject({ family: 'memory', memoryMb: 65_536 });
    expect(tokyo('i4i.large')).toMatchObject({ family: 'storage', storageGb: 468 });
    expect(tokyo('g5g.xlarge')).toMatchObject({
      gpuCount: 1,
      gpuType: 'NVIDIA T4G',
      family: 'gpu',
    });
  });
});

describe('provider_c adapter over HTTP (fake upstream)', () => {
  let fake: FakeUpstream;
  let http: ClosableUpstreamClient;
  const base = () => '/provider_c';

  // A fresh server per test: documents set with setJson stay until the server closes.
  beforeEach(async () => {
    fake = await startFakeUpstream();
    http = client(`${fake.url}/provider_c`);
  });

  afterEach(async () => {
    await http.close();
    await fake.close();
  });

  it('gives the same catalogue as the file:// snapshot, walking index -> region index -> files', async () => {
    const files = client(pathToFileURL(FIXTURE).href);
    const fromFiles = await sync({ client: files });
    await files.close();
    const overHttp = await sync({ client: http });
    expect(overHttp).toEqual(fromFiles);
    expect(fake.requests.map((r) => r.path)).toEqual([
      `${base()}/offers/v1.0/aws/index.json`,
      `${base()}${EC2}/region_index.json`,
      ...OUR_REGIONS.map((r) => `${base()}${EC2}/${r}/index.json`),
    ]);
  });

  it('syncs only the regions the region index lists', async () => {
    fake.setJson(`${base()}${EC2}/region_index.json`, {
      regions: {
        'ap-northeast-2': {
          regionCode: 'ap-northeast-2',
          currentVersionUrl: `${EC2}/ap-northeast-2/index.json`,
        },
        'us-east-1': { regionCode: 'us-east-1', currentVersionUrl: `${EC2}/us-east-1/index.json` },
      },
    });
    const catalog = await sync({ client: http });
    expect(catalog.regionCodes).toEqual(['ap-northeast-2']);
    expect(new Set(catalog.offers.map((o) => o.regionCode))).toEqual(new Set(['ap-northeast-2']));
  });

  it('reads our region from the upstream region the region map names', async () => {
    const catalog = await sync({
      client: http,
      regionMap: { 'ap-east-1': 'ap-northeast-1', 'ap-northeast-1': 'ap-east-1' },
    });
    const tokyoFile = catalog.offers.filter((o) => o.regionCode === 'ap-east-1');
    // ap-east-1 is now fed by the Tokyo file: Tokyo's t4g.small price (Hong Kong's is 0.0232).
    expect(tokyoFile.find((o) => o.instanceId === 't4g.small')?.hourlyMicros).toBe(21_600);
    expect(tokyoFile.some((o) => o.instanceId === 't2.micro')).toBe(true);
  });

  it('fails with UPSTREAM_INVALID_DATA when no region of ours is listed', async () => {
    fake.setJson(`${base()}${EC2}/region_index.json`, {
      regions: { 'us-east-1': { currentVersionUrl: `${EC2}/us-east-1/index.json` } },
    });
    expect((await rejection(sync({ client: http }))).code).toBe('UPSTREAM_INVALID_DATA');
  });

  it.each([
    [
      'an offer index without AmazonEC2',
      '/offers/v1.0/aws/index.json',
      { offers: { AmazonS3: {} } },
    ],
    ['a region index without regions', `${EC2}/region_index.json`, { formatVersion: 'v1.0' }],
    [
      'a region entry without a URL',
      `${EC2}/region_index.json`,
      { regions: { 'ap-northeast-1': { regionCode: 'ap-northeast-1' } } },
    ],
    [
      'a region URL that leaves the base',
      `${EC2}/region_index.json`,
      { regions: { 'ap-northeast-1': { currentVersionUrl: '/offers/../../../etc/passwd.json' } } },
    ],
    [
      'a CSV region file',
      `${EC2}/region_index.json`,
      { regions: { 'ap-northeast-1': { currentVersionUrl: `${EC2}/ap-northeast-1/index.csv` } } },
    ],
  ])('fails with UPSTREAM_INVALID_DATA on %s', async (_name, path, body) => {
    fake.setJson(`${base()}${path}`, body);
    expect((await rejection(sync({ client: http }))).code).toBe('UPSTREAM_INVALID_DATA');
  });

  it('fails with UPSTREAM_INVALID_DATA on a malformed region file, with the worker stopped', async () => {
    fake.setFault(`${base()}${EC2}/ap-northeast-2/index.json`, { kind: 'malformed-json' });
    const workers: Worker[] = [];
    const error = await rejection(sync({ client: http, onWorker: (w) => workers.push(w) }));
    expect(error.code).toBe('UPSTREAM_INVALID_DATA');
    expect(error.message).toMatch(/ap-northeast-2/);
    expect(workers).toHaveLength(2);
    expect(workers.every((w) => w.threadId === -1)).toBe(true);
  });

  it('fails with UPSTREAM_INVALID_DATA on a region file that is valid JSON but no offer file', async () => {
    fake.setJson(`${base()}${EC2}/ap-northeast-1/index.json`, {
      products: {},
      terms: { Reserved: {} },
    });
    expect((await rejection(sync({ client: http }))).message).toMatch(/not an offer file/);
  });

  it('fails with UPSTREAM_INVALID_DATA on an offer file with no listable instance', async () => {
    fake.setJson(`${base()}${EC2}/ap-northeast-1/index.json`, {
      products: {},
      terms: { OnDemand: {} },
    });
    expect((await rejection(sync({ client: http }))).message).toMatch(
      /no on-demand Linux instance/,
    );
  });

  it('passes a connection reset mid-file on as a network error, with the worker stopped', async () => {
    fake.setFault(`${base()}${EC2}/ap-northeast-1/index.json`, { kind: 'reset', when: 'mid-body' });
    const workers: Worker[] = [];
    const error = await rejection(sync({ client: http, onWorker: (w) => workers.push(w) }));
    expect(error.code).toBe('UPSTREAM_NETWORK_ERROR');
    expect(workers.every((w) => w.threadId === -1)).toBe(true);
  });

  it('stops on abort mid-file with UPSTREAM_TIMEOUT, with the worker stopped', async () => {
    fake.setFault(`${base()}${EC2}/ap-northeast-1/index.json`, {
      kind: 'slow-drip',
      intervalMs: 2,
    });
    const workers: Worker[] = [];
    const controller = new AbortController();
    const pending = createProviderCAdapter({
      client: http,
      onWorker: (w) => workers.push(w),
    }).fetchCatalog(controller.signal);
    const outcome = rejection(pending);
    await expect.poll(() => workers.length, { timeout: 10_000 }).toBe(1);
    controller.abort(new Error('shutdown'));
    expect((await outcome).code).toBe('UPSTREAM_TIMEOUT');
    expect(workers.every((w) => w.threadId === -1)).toBe(true);
  });
});

// The bundled snapshot (data/snapshots/provider_c; that it is exactly what its generator writes
// is pinned in test/data/snapshots-generated.test.ts). The refresh script, pointed at the snapshot as
// if it were the live API (it cannot reach AWS here), must produce a trimmed snapshot that syncs
// to the same catalogue.
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshProviderC } from './snapshot/refresh.js';
import type { ProviderCatalog } from '../../catalog/offers.js';
import { createUpstreamClient } from '../../sync/upstream/http-upstream-client.js';
import { createProviderCAdapter } from './adapter.js';

const SNAPSHOT = fileURLToPath(new URL('../../../data/snapshots/provider_c/', import.meta.url));
const FIXTURE = fileURLToPath(
  new URL('../../../test/fixtures/snapshots/provider_c/', import.meta.url),
);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

async function syncFrom(dir: string): Promise<ProviderCatalog> {
  const client = createUpstreamClient({
    baseUrl: pathToFileURL(dir).href,
    connectTimeoutMs: 5_000,
    firstByteTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRetries: 0,
    maxResponseBytes: 16 * 1024 * 1024,
    userAgent: 'cloudprice-test',
  });
  try {
    return await createProviderCAdapter({ client }).fetchCatalog(AbortSignal.timeout(25_000));
  } finally {
    await client.close();
  }
}

describe('provider_c bundled snapshot', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cloudprice-provider-c-'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  // No reader limits the files' size: the adapter streams them (UPSTREAM_MAX_BYTES, 1 GiB by
  // default, is the only cap), as it streams AWS's 100-450 MB live files. The bound is ours: a
  // fresh install parses all of them in its first fill (target: filled within 5 s) and ships
  // them in the image. With the Reserved terms they hold 11.8 MiB (4.0 MiB on-demand only).
  it('keeps the region files within 16 MiB in all and names its source, date and licence', async () => {
    const files = await listFiles(SNAPSHOT);
    let total = 0;
    for (const file of files.filter((f) => f.endsWith('/index.json'))) {
      total += (await stat(path.join(SNAPSHOT, file))).size;
    }
    expect(total).toBeLessThan(16 * 1024 * 1024);
    const metadata: unknown = JSON.parse(
      await readFile(path.join(SNAPSHOT, 'metadata.json'), 'utf8'),
    );
    expect(metadata).toMatchObject({
      provider: 'provider_c',
      data_source: { observed_at: '2025-04-04T22:41:22Z' },
      dated_recordings: 'recordings.json',
      observed_at: '2025-04-04T22:41:22Z',
      records: 2506,
      listed: 2479,
    });
    // Provenance per purchase option (D37, D61): every option of the offer files is from the
    // ec2.shop recording of AWS's 2025-04-04 files (MIT), with the count of figures written.
    const ec2Shop = {
      observed_at: '2025-04-04T22:41:22Z',
      licence: 'MIT',
      attribution: 'AWS EC2 prices as recorded by ec2.shop (github.com/yeo/ec2.shop, MIT)',
      notice: 'DATA-LICENSE.md',
    };
    expect(metadata).toMatchObject({
      purchase_options: {
        on_demand: { ...ec2Shop, region_prices: 2506 },
        reserved_1y: { ...ec2Shop, region_prices: 2356, offer_term: /^Reserved, 4NA7Y494T4: / },
        reserved_3y: { ...ec2Shop, region_prices: 2357, offer_term: /^Reserved, BPH4J8HBKS: / },
        convertible_1y: { ...ec2Shop, region_prices: 2352, offer_term: /^Reserved, 7NE97W5U4E: / },
        convertible_3y: { ...ec2Shop, region_prices: 2352, offer_term: /^Reserved, Z2E3P23VKM: / },
      },
    });
    expect(JSON.stringify(metadata)).toMatch(/live sync .* replaces/);
    expect(JSON.stringify(metadata)).toContain('ec2.shop');
    // The MIT notice of the 2025 recording, and CC BY-SA while the 2024 recording ships.
    const notice = await readFile(path.join(SNAPSHOT, 'DATA-LICENSE.md'), 'utf8');
    expect(notice).toContain(
      'AWS EC2 prices as recorded by ec2.shop (github.com/yeo/ec2.shop, MIT)',
    );
    expect(notice).toContain('Copyright (c) 2024 Vinh Nguyen');
    expect(notice).toContain('Permission is hereby granted, free of charge');
    expect(notice).toMatch(/four No Upfront\s+Reserved prices/);
    expect(notice).toContain('Spare Cores (sc-data), CC BY-SA 4.0');
    expect(notice).toContain('https://creativecommons.org/licenses/by-sa/4.0/');
  });

  it('refreshes into a trimmed snapshot that syncs to the same catalogue', async () => {
    const out = path.join(work, 'refreshed');
    // From the test copy (the same layout, a few hundred records): the code path is the same.
    const summary = await refreshProviderC(out, pathToFileURL(FIXTURE).href);
    expect(summary.regions.map((r) => r.regionCode)).toEqual([
      'ap-northeast-1',
      'ap-northeast-2',
      'ap-northeast-3',
      'ap-southeast-1',
      'ap-east-1',
    ]);
    const [original, refreshed] = await Promise.all([syncFrom(FIXTURE), syncFrom(out)]);
    expect(refreshed).toEqual(original);
    // Trimmed: no neighbours; the kept products' Reserved terms stay (their No Upfront prices
    // are purchase options, D61), so the refreshed catalogue above has them too.
    const tokyo = await readFile(
      path.join(out, 'offers/v1.0/aws/AmazonEC2/current/ap-northeast-1/index.json'),
      'utf8',
    );
    expect(tokyo).not.toMatch(/"Windows"|"Dedicated"/);
    expect(tokyo).toMatch(/"PurchaseOption" : "No Upfront"/);
    expect(refreshed.offers.some((o) => o.optionPrices?.reserved_1y !== undefined)).toBe(true);
    expect(tokyo).toMatch(/"sku" : "/);
  });

  it('leaves the target untouched when the refresh fails', async () => {
    const out = path.join(work, 'refreshed');
    const before = await listFiles(out);
    await expect(
      refreshProviderC(out, pathToFileURL(path.join(work, 'nothing')).href),
    ).rejects.toThrow();
    expect(await listFiles(out)).toEqual(before);
  });
});

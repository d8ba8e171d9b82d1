// provider_d's purchase options (D61) read live: the adapter over a real local HTTP server serving
// the pricing-file layout (machine-types.json and prices.json, as PROVIDER_D_URL points at a
// mirror), through the real upstream client. Spot and committed use come from the same rows as
// on-demand; a bad option price costs only that option; a file without option columns gives
// on-demand only; and a sync through the app serves them as `pricing.options`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../src/catalog/offers.js';
import { createProviderDAdapter } from '../../src/providers/provider-d/adapter.js';
import { createUpstreamClient } from '../../src/sync/upstream/http-upstream-client.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXTURE_SNAPSHOTS, type TestApp } from '../support/test-app.js';

type PriceRow = Record<string, unknown>;
interface PricesDoc {
  regions: { id: string; prices: PriceRow[] }[];
}

const fixture = (file: string): unknown =>
  JSON.parse(readFileSync(path.join(FIXTURE_SNAPSHOTS, 'provider_d', file), 'utf8'));
const prices = () => fixture('prices.json') as PricesDoc;
const row = (doc: PricesDoc, region: string, id: string): PriceRow => {
  const found = doc.regions.find((r) => r.id === region)?.prices.find((p) => p['id'] === id);
  if (found === undefined) throw new Error(`${region} ${id} not in the fixture`);
  return found;
};

describe('provider_d options from an HTTP mirror of the pricing-file layout', () => {
  let upstream: FakeUpstream;
  const read = async (
    doc: PricesDoc,
  ): Promise<ProviderCatalog & { invalidOptionPrices?: number }> => {
    upstream.setJson('/gcp/machine-types.json', fixture('machine-types.json'));
    upstream.setJson('/gcp/prices.json', doc);
    const client = createUpstreamClient({
      baseUrl: `${upstream.url}/gcp`,
      connectTimeoutMs: 2_000,
      firstByteTimeoutMs: 2_000,
      totalTimeoutMs: 10_000,
      maxRetries: 0,
      maxResponseBytes: 16 * 1024 * 1024,
      userAgent: 'cloudprice-test',
    });
    try {
      return await createProviderDAdapter({ client }).fetchCatalog(AbortSignal.timeout(10_000));
    } finally {
      await client.close();
    }
  };
  const offer = (catalog: ProviderCatalog, id: string, region = 'asia-northeast1') =>
    catalog.offers.find((o) => o.instanceId === id && o.regionCode === region);

  beforeAll(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.clearRequests());
  afterAll(async () => {
    await upstream?.close();
  });

  it('reads spot and committed use beside on-demand, monthly = hourly x 730 in cents', async () => {
    const catalog = await read(prices());
    expect(offer(catalog, 'e2-standard-2')).toMatchObject({
      hourlyMicros: 85_966,
      monthlyMicros: 62_750_000,
      optionPrices: {
        spot: { hourlyMicros: 51_584, monthlyMicros: 37_660_000 },
        reserved_1y: { hourlyMicros: 54_158, monthlyMicros: 39_540_000 },
        reserved_3y: { hourlyMicros: 38_685, monthlyMicros: 28_240_000 },
      },
    });
    // Spot is priced per region; committed use is not sold for f1-micro.
    expect(offer(catalog, 'e2-standard-2', 'asia-east2')?.optionPrices?.spot?.hourlyMicros).toBe(
      19_416,
    );
    expect(offer(catalog, 'f1-micro')?.optionPrices).toEqual({
      spot: { hourlyMicros: 828, monthlyMicros: 600_000 },
    });
    expect(upstream.requests.map((r) => r.path).sort()).toEqual([
      '/gcp/machine-types.json',
      '/gcp/prices.json',
    ]);
  });

  it('refuses a hostile option price alone, keeping the row and its other options', async () => {
    const doc = prices();
    row(doc, 'asia-northeast1', 'e2-standard-2')['hour_spot'] = 'NaN';
    row(doc, 'asia-northeast1', 'e2-standard-2')['cud_3y_hour'] = { usd: '0.03' };
    row(doc, 'asia-northeast1', 'e2-medium')['cud_1y_hour'] = '9'.repeat(400);
    row(doc, 'asia-east2', 'e2-standard-2')['hour_spot'] = '0.000000';
    const catalog = await read(doc);
    expect(Object.keys(offer(catalog, 'e2-standard-2')?.optionPrices ?? {})).toEqual([
      'reserved_1y',
    ]);
    expect(offer(catalog, 'e2-standard-2')?.hourlyMicros).toBe(85_966);
    expect(offer(catalog, 'e2-medium')?.optionPrices?.reserved_1y).toBeUndefined();
    expect(offer(catalog, 'e2-medium')?.optionPrices?.spot).toBeDefined();
    expect(offer(catalog, 'e2-standard-2', 'asia-east2')?.optionPrices?.spot).toBeUndefined();
    expect(catalog.invalidOptionPrices).toBe(4);
    expect(catalog.skippedRecords).toBe(0);
  });

  it('lists on-demand only from a file without option columns', async () => {
    const doc = prices();
    for (const region of doc.regions) {
      region.prices = region.prices.map(({ id, offered, hour }) => ({ id, offered, hour }));
    }
    const catalog = await read(doc);
    expect(catalog.offers.length).toBeGreaterThan(30);
    expect(catalog.offers.every((o) => o.optionPrices === undefined)).toBe(true);
    expect(catalog.invalidOptionPrices).toBeUndefined();
  });
});

describe('provider_d options synced live through the app', () => {
  let upstream: FakeUpstream;
  let t: TestApp;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    upstream.setJson('/gcp/machine-types.json', fixture('machine-types.json'));
    upstream.setJson('/gcp/prices.json', prices());
    t = await createTestApp({ PROVIDERS: 'provider_d', PROVIDER_D_URL: `${upstream.url}/gcp` });
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_d'] },
    });
    expect(sync.statusCode, sync.body).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('serves the options as pricing.options and by purchase_option, observed live', async () => {
    const response = await t.app.inject({
      url: '/instances?region=asia-northeast1&q=e2-standard-2&purchase_option=reserved_1y',
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [record] = response.json<{
      data: {
        instances: {
          instance_id: string;
          pricing: {
            purchase_option: string;
            monthly_price: number;
            options: Record<string, { hourly_price: number; monthly_price: number }>;
          };
        }[];
      };
    }>().data.instances;
    expect(record?.instance_id).toBe('e2-standard-2');
    expect(record?.pricing).toMatchObject({ purchase_option: 'reserved_1y', monthly_price: 39.54 });
    expect(Object.keys(record?.pricing.options ?? {})).toEqual([
      'on_demand',
      'spot',
      'reserved_1y',
      'reserved_3y',
    ]);
    expect(record?.pricing.options['spot']).toMatchObject({
      hourly_price: 0.0516,
      monthly_price: 37.66,
    });
  });
});

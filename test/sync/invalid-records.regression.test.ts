// Issue 35 item 2: records that failed validation were removed. A live-format AWS Tokyo offer
// file with its prices in CNY instead of USD synced with success and `skipped_records: 697`,
// Tokyo went from 698 records to 1, /changes and the webhooks got 697 `removed`, and /health
// stayed healthy. Now an entry that failed validation but names its type keeps its stored record
// as it was (it is not gone upstream, D15), a sync whose skipped entries exceed 10% of those
// seen (over the provider or in one region) fails with UPSTREAM_INVALID_DATA and applies
// nothing, and /health reports a provider whose last sync skipped records as degraded.
// A real local upstream server plays provider_a and provider_c; every storage backend runs it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
const fixture = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/snapshots/${path}`, import.meta.url), 'utf8')) as T;

interface OfferFile {
  products: Record<string, { sku: string; attributes: Record<string, string> }>;
  terms: {
    OnDemand: Record<
      string,
      Record<string, { priceDimensions: Record<string, { pricePerUnit: Record<string, string> }> }>
    >;
  };
}
const TOKYO_PATH = '/provider_c/offers/v1.0/aws/AmazonEC2/current/ap-northeast-1/index.json';
const TOKYO_FILE = fixture<OfferFile>(
  'provider_c/offers/v1.0/aws/AmazonEC2/current/ap-northeast-1/index.json',
);
const TYPES_PATH = '/provider_a/linode/types';
const TYPES = fixture<Json & { data: Json[] }>('provider_a/linode/types.json');

interface ProviderResult {
  success: boolean;
  error_details?: { code: string; message: string };
  skipped_records?: { count: number; reasons: Record<string, number> };
}
interface ProviderHealth {
  name: string;
  status: string;
  sync_status: string;
  error?: string;
  skipped_records?: number;
}
interface Row {
  instance_id: string;
  region: { region_code: string };
  pricing: { hourly_price: number };
}

/** The Tokyo offer file with the on-demand price of every SKU `pick` selects in CNY. */
function tokyoInCny(pick: (sku: string, index: number) => boolean): OfferFile {
  const file = structuredClone(TOKYO_FILE);
  Object.keys(file.terms.OnDemand)
    .sort()
    .forEach((sku, index) => {
      if (!pick(sku, index)) return;
      for (const term of Object.values(file.terms.OnDemand[sku] ?? {})) {
        for (const dimension of Object.values(term.priceDimensions)) {
          // What a live file of a China-priced partition looks like: the same figure, in CNY.
          dimension.pricePerUnit = { CNY: String(Number(dimension.pricePerUnit['USD']) * 7.2) };
        }
      }
    });
  return file;
}

/** The Tokyo offer file with `change` applied to the attributes of the SKUs `pick` selects. */
function tokyoWith(
  pick: (index: number) => boolean,
  change: (attributes: Record<string, unknown>) => void,
): OfferFile {
  const file = structuredClone(TOKYO_FILE);
  Object.keys(file.products)
    .sort()
    .forEach((sku, index) => {
      const product = file.products[sku];
      if (product !== undefined && pick(index)) change(product.attributes);
    });
  return file;
}

for (const backend of await storeBackends()) {
  describeStoreBackend('records that fail validation (issue 35 item 2)', backend, () => {
    let database: IsolatedDatabase;
    let fake: FakeUpstream;
    let t: TestApp;
    let minute = 0;
    const fresh = () => {
      minute += 1;
      t.setNow(FIXED_NOW + minute * 60_000);
    };

    async function sync(provider: string): Promise<ProviderResult> {
      fresh();
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: [provider] },
      });
      const json = response.json<{
        data?: { providers: ProviderResult[] };
        error?: { details: { providers: ProviderResult[] } };
      }>();
      return (json.data?.providers ?? json.error?.details.providers)![0]!;
    }

    /** provider's available records as `id@region -> hourly price`. */
    async function records(provider: string): Promise<Map<string, number>> {
      const rows = new Map<string, number>();
      for (let offset = 0; ; offset += 100) {
        fresh();
        const response = await t.app.inject({
          url: `/instances?provider=${provider}&limit=100&offset=${offset}`,
          headers: auth,
        });
        const page = response.json<{ data: { instances: Row[] } }>().data.instances;
        for (const row of page) {
          rows.set(`${row.instance_id}@${row.region.region_code}`, row.pricing.hourly_price);
        }
        if (page.length < 100) return rows;
      }
    }

    async function changeKinds(since: string, provider: string): Promise<string[]> {
      fresh();
      const query = new URLSearchParams({ since, provider, limit: '500' });
      const response = await t.app.inject({ url: `/changes?${query.toString()}`, headers: auth });
      return response
        .json<{ data: { changes: { kind: string }[] } }>()
        .data.changes.map((c) => c.kind);
    }

    async function health(provider: string): Promise<ProviderHealth> {
      fresh();
      const response = await t.app.inject({ url: '/health', headers: auth });
      const body = response.json<{ components: { providers: ProviderHealth[] } }>();
      return body.components.providers.find((p) => p.name === provider)!;
    }

    /** Serves `body` at `path` for one sync of `provider`, then restores and resyncs it clean. */
    async function withUpstream<T>(
      path: string,
      body: unknown,
      original: unknown,
      run: () => Promise<T>,
    ): Promise<T> {
      fake.setJson(path, body);
      try {
        return await run();
      } finally {
        fake.setJson(path, original);
      }
    }

    beforeAll(async () => {
      database = await backend.isolate();
      fake = await startFakeUpstream();
      t = await createTestApp({
        DATABASE_URL: database.url,
        PROVIDER_A_URL: `${fake.url}/provider_a`,
        PROVIDER_C_URL: `${fake.url}/provider_c`,
        METRICS_PORT: '0',
      });
      expect((await sync('provider_a')).success).toBe(true);
      expect((await sync('provider_c')).success).toBe(true);
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
      await database.drop();
    });

    it('provider_c: a Tokyo file priced in CNY fails the sync and changes nothing', async () => {
      const before = await records('provider_c');
      expect(
        [...before.keys()].filter((k) => k.endsWith('@ap-northeast-1')).length,
      ).toBeGreaterThan(50);
      const since = new Date().toISOString();
      // Every price but the first in CNY, as in the review's live file (708 of 709).
      const result = await withUpstream(
        TOKYO_PATH,
        tokyoInCny((_, i) => i > 0),
        TOKYO_FILE,
        () => sync('provider_c'),
      );
      expect(result.success, JSON.stringify(result)).toBe(false);
      expect(result.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
      expect(result.error_details?.message).toContain('ap-northeast-1');
      expect(result.skipped_records?.count).toBeGreaterThan(50);
      expect(await records('provider_c')).toEqual(before);
      expect(await changeKinds(since, 'provider_c')).toEqual([]);
      const degraded = await health('provider_c');
      expect(degraded.status).toBe('degraded');
      expect(degraded.sync_status).toBe('failed');
      expect(degraded.error).toContain('failed validation');
      expect(degraded.skipped_records).toBe(result.skipped_records?.count);

      expect((await sync('provider_c')).success).toBe(true);
      const healthy = await health('provider_c');
      expect([healthy.status, healthy.error, healthy.skipped_records]).toEqual([
        'healthy',
        undefined,
        undefined,
      ]);
    });

    it('provider_c: two prices in CNY keep their records and prices, and /health says so', async () => {
      const before = await records('provider_c');
      const since = new Date().toISOString();
      const result = await withUpstream(
        TOKYO_PATH,
        tokyoInCny((_, i) => i < 2),
        TOKYO_FILE,
        () => sync('provider_c'),
      );
      expect(result.success, JSON.stringify(result)).toBe(true);
      expect(result.skipped_records).toEqual({ count: 2, reasons: { invalid_type: 2 } });
      expect(await records('provider_c')).toEqual(before);
      expect(await changeKinds(since, 'provider_c')).toEqual([]);
      const degraded = await health('provider_c');
      expect(degraded.status).toBe('degraded');
      expect(degraded.sync_status).toBe('success');
      expect(degraded.skipped_records).toBe(2);
      expect(degraded.error).toMatch(/skipped 2 upstream records that failed validation/);

      expect((await sync('provider_c')).success).toBe(true);
      expect((await health('provider_c')).status).toBe('healthy');
    });

    it('provider_c: a renamed field in a third of Tokyo fails; in two products it keeps them', async () => {
      const before = await records('provider_c');
      const since = new Date().toISOString();
      const renamed = (pick: (index: number) => boolean) =>
        tokyoWith(pick, (attributes) => {
          attributes['memorySize'] = attributes['memory'];
          delete attributes['memory'];
        });
      const many = await withUpstream(
        TOKYO_PATH,
        renamed((i) => i % 3 === 0),
        TOKYO_FILE,
        () => sync('provider_c'),
      );
      expect(many.success, JSON.stringify(many)).toBe(false);
      expect(many.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
      expect(await records('provider_c')).toEqual(before);

      const few = await withUpstream(
        TOKYO_PATH,
        renamed((i) => i < 2),
        TOKYO_FILE,
        () => sync('provider_c'),
      );
      expect(few.success, JSON.stringify(few)).toBe(true);
      expect(few.skipped_records?.count).toBe(2);
      expect(await records('provider_c')).toEqual(before);
      expect(await changeKinds(since, 'provider_c')).toEqual([]);
      expect((await sync('provider_c')).success).toBe(true);
    });

    it('provider_a: a field whose type changed keeps those types everywhere; in many types it fails', async () => {
      const before = await records('provider_a');
      const since = new Date().toISOString();
      const retyped = (count: number) => ({
        ...TYPES,
        data: TYPES.data.map((type, i) =>
          i < count ? { ...type, memory: String(type['memory']) } : type,
        ),
      });
      // 3 of 42 entries (5 regions, 37 types): under 10%, the three types keep their records.
      const few = await withUpstream(TYPES_PATH, retyped(3), TYPES, () => sync('provider_a'));
      expect(few.success, JSON.stringify(few)).toBe(true);
      expect(few.skipped_records).toEqual({ count: 3, reasons: { invalid_type: 3 } });
      expect(await records('provider_a')).toEqual(before);
      expect(await changeKinds(since, 'provider_a')).toEqual([]);
      expect((await health('provider_a')).skipped_records).toBe(3);

      // 10 of 42: the provider fails, nothing is applied.
      const many = await withUpstream(TYPES_PATH, retyped(10), TYPES, () => sync('provider_a'));
      expect(many.success, JSON.stringify(many)).toBe(false);
      expect(many.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
      expect(many.error_details?.message).toContain('10 of 42');
      expect(await records('provider_a')).toEqual(before);
      expect(await changeKinds(since, 'provider_a')).toEqual([]);
      expect((await sync('provider_a')).success).toBe(true);
      expect((await health('provider_a')).status).toBe('healthy');
    });
  });
}

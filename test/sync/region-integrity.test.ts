// Issue 22 item 1: one malformed upstream record used to hide a whole region with success: true.
// The apply marked every record of the provider unavailable before re-marking what the new
// catalogue held, and a region record that failed its schema (provider_a), or a region its
// region index left out (provider_c), was simply not in the new catalogue. Now a sync replaces
// only the regions its catalogue covers; a region is removed only when the upstream says it is
// gone (absent from its region list, no record of it skipped, no offer naming it), and even
// then a region of ours left with no available records fails the provider with
// UPSTREAM_INVALID_DATA unless force is true. Skipped records are counted in the result.
// A real local upstream server plays provider_a and provider_c; every storage backend runs it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
const fixture = (path: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/snapshots/${path}`, import.meta.url), 'utf8'),
  ) as Json & { data: Json[]; regions: Record<string, Json> };
const A_REGIONS = fixture('provider_a/regions.json');
const C_INDEX_PATH = '/provider_c/offers/v1.0/aws/AmazonEC2/current/region_index.json';
const C_INDEX = fixture('provider_c/offers/v1.0/aws/AmazonEC2/current/region_index.json');

interface ProviderResult {
  success: boolean;
  error_details?: { code: string; message: string };
  skipped_records?: { count: number; reasons: Record<string, number> };
}
interface Change {
  kind: string;
  instance: { region_code: string };
}

for (const backend of await storeBackends()) {
  describeStoreBackend('region-level integrity (issue 22 item 1)', backend, () => {
    let database: IsolatedDatabase;
    let fake: FakeUpstream;
    let t: TestApp;
    let minute = 0;
    const fresh = () => {
      minute += 1;
      t.setNow(FIXED_NOW + minute * 60_000);
    };

    async function sync(provider: string, body: Json = {}) {
      fresh();
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: [provider], ...body },
      });
      const json = response.json<{
        data?: { providers: ProviderResult[]; completed_at: string };
        error?: { details: { providers: ProviderResult[] } };
      }>();
      return (json.data?.providers ?? json.error?.details.providers)![0]!;
    }

    async function count(provider: string, region: string): Promise<number> {
      fresh();
      const response = await t.app.inject({
        url: `/instances?provider=${provider}&region=${region}&limit=1`,
        headers: auth,
      });
      return response.json<{ data: { pagination: { total: number } } }>().data.pagination.total;
    }

    /** Every feed item of `provider` recorded from now on, read to the end. */
    async function changesSince(since: string, provider: string): Promise<Change[]> {
      const items: Change[] = [];
      let cursor: string | null = null;
      do {
        fresh();
        const query = new URLSearchParams({ since, provider, limit: '500' });
        if (cursor !== null) query.set('cursor', cursor);
        const response = await t.app.inject({ url: `/changes?${query.toString()}`, headers: auth });
        const body = response.json<{ data: { changes: Change[]; next_cursor: string | null } }>();
        items.push(...body.data.changes);
        cursor = body.data.next_cursor;
      } while (cursor !== null);
      return items;
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

    it('provider_a: a malformed Osaka region record keeps Osaka, removes nothing and is counted', async () => {
      const osaka = await count('provider_a', 'ap-south');
      expect(osaka).toBeGreaterThan(0);
      const since = new Date().toISOString();
      // Claims its id, and one without a readable id: neither may hide a region.
      for (const broken of [
        { id: 'jp-osa', capabilities: 'Linodes' },
        { region: 'jp-osa', capabilities: ['Linodes'] },
      ]) {
        const data = A_REGIONS.data.map((r) => (r['id'] === 'jp-osa' ? broken : r));
        fake.setJson('/provider_a/regions', { ...A_REGIONS, data });
        try {
          const result = await sync('provider_a');
          expect(result.success, JSON.stringify(result)).toBe(true);
          expect(result.skipped_records).toEqual({ count: 1, reasons: { invalid_region: 1 } });
          expect(await count('provider_a', 'ap-south')).toBe(osaka);
        } finally {
          fake.setJson('/provider_a/regions', A_REGIONS);
        }
      }
      expect((await changesSince(since, 'provider_a')).filter((c) => c.kind === 'removed')).toEqual(
        [],
      );
      // cloudprice_sync_skipped_records_total{provider}: the two skipped records.
      const metric = await t.services.metrics
        .registry!.getSingleMetric('cloudprice_sync_skipped_records_total')!
        .get();
      const counted = metric.values.find((v) => v.labels['provider'] === 'provider_a')?.value;
      expect(counted).toBe(2);
      const clean = await sync('provider_a');
      expect(clean.skipped_records).toEqual({ count: 0, reasons: {} });
    });

    it('provider_a: a region really gone is refused without force and removed with it', async () => {
      const osaka = await count('provider_a', 'ap-south');
      const since = new Date().toISOString();
      const data = A_REGIONS.data.filter((r) => r['id'] !== 'jp-osa');
      fake.setJson('/provider_a/regions', { ...A_REGIONS, data, results: data.length });
      try {
        const refused = await sync('provider_a');
        expect(refused.success).toBe(false);
        expect(refused.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
        expect(refused.error_details?.message).toContain('ap-south');
        expect(refused.error_details?.message).toContain('force');
        expect(await count('provider_a', 'ap-south')).toBe(osaka);
        expect(await changesSince(since, 'provider_a')).toEqual([]);

        const forced = await sync('provider_a', { force: true });
        expect(forced.success, JSON.stringify(forced)).toBe(true);
        expect(await count('provider_a', 'ap-south')).toBe(0);
        const removed = (await changesSince(since, 'provider_a')).filter(
          (c) => c.kind === 'removed',
        );
        expect(removed).toHaveLength(osaka);
        expect(new Set(removed.map((c) => c.instance.region_code))).toEqual(new Set(['ap-south']));
      } finally {
        fake.setJson('/provider_a/regions', A_REGIONS);
      }
      expect((await sync('provider_a')).success).toBe(true);
      expect(await count('provider_a', 'ap-south')).toBe(osaka);
    });

    it('provider_c: a region its region index leaves out keeps its records unless forced', async () => {
      const osaka = await count('provider_c', 'ap-northeast-3');
      const tokyo = await count('provider_c', 'ap-northeast-1');
      expect(osaka).toBeGreaterThan(0);
      const since = new Date().toISOString();
      const regions = { ...C_INDEX.regions };
      delete regions['ap-northeast-3'];
      fake.setJson(C_INDEX_PATH, { ...C_INDEX, regions });
      try {
        const refused = await sync('provider_c');
        expect(refused.success).toBe(false);
        expect(refused.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
        expect(refused.error_details?.message).toContain('ap-northeast-3');
        expect(refused.skipped_records?.count).toBe(0);
        expect(await count('provider_c', 'ap-northeast-3')).toBe(osaka);
        expect(await count('provider_c', 'ap-northeast-1')).toBe(tokyo);
        expect(await changesSince(since, 'provider_c')).toEqual([]);

        const forced = await sync('provider_c', { force: true });
        expect(forced.success, JSON.stringify(forced)).toBe(true);
        expect(await count('provider_c', 'ap-northeast-3')).toBe(0);
        expect(await count('provider_c', 'ap-northeast-1')).toBe(tokyo);
      } finally {
        fake.setJson(C_INDEX_PATH, C_INDEX);
      }
      expect((await sync('provider_c')).success).toBe(true);
      expect(await count('provider_c', 'ap-northeast-3')).toBe(osaka);
    });
  });
}

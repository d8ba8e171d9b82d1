// Regression tests for issue 15 item 3, "an empty but valid upstream wipes a provider and reports
// success": provider_a answering with valid documents that list none of our regions (or whose
// types are all skipped) used to mark the whole provider unavailable with success: true. Now such
// a sync fails with UPSTREAM_INVALID_DATA and keeps the previous catalogue, force or not.
// A real local fake upstream plays provider_a; every storage backend runs it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

interface LinodePage {
  data: Array<Record<string, unknown>>;
  page: number;
  pages: number;
  results: number;
}

const snapshot = (file: string) =>
  JSON.parse(
    readFileSync(new URL(`../../data/snapshots/provider_a/${file}`, import.meta.url), 'utf8'),
  ) as LinodePage;
const REGIONS = snapshot('regions.json');
const TYPES = snapshot('linode/types.json');
const page = (data: Array<Record<string, unknown>>): LinodePage => ({
  data,
  page: 1,
  pages: 1,
  results: data.length,
});

interface ProviderResult {
  success: boolean;
  error?: string;
  error_details?: { code: string; message: string };
}

for (const backend of await storeBackends()) {
  describeStoreBackend('provider wipe guard (issue 15 item 3)', backend, () => {
    let database: IsolatedDatabase;
    let fake: FakeUpstream;
    let t: TestApp;
    let minute = 0;
    const fresh = () => {
      minute += 1;
      t.setNow(FIXED_NOW + minute * 60_000);
    };

    async function sync(body: Record<string, unknown> = {}) {
      fresh();
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_a'], ...body },
      });
      const json = response.json<{
        data?: { providers: ProviderResult[] };
        error?: { details: { providers: ProviderResult[] } };
      }>();
      const result = (json.data?.providers ?? json.error?.details.providers)?.[0];
      return { status: response.statusCode, result: result! };
    }

    async function total(): Promise<number> {
      fresh();
      const response = await t.app.inject({
        url: '/instances?provider=provider_a&limit=1',
        headers: auth,
      });
      return response.json<{ data: { pagination: { total: number } } }>().data.pagination.total;
    }

    beforeAll(async () => {
      database = await backend.isolate();
      fake = await startFakeUpstream();
      t = await createTestApp({
        DATABASE_URL: database.url,
        PROVIDER_A_URL: `${fake.url}/provider_a`,
      });
      const first = await sync();
      expect(first.result.success).toBe(true);
    });
    afterAll(async () => {
      await t.close();
      await fake.close();
      await database.drop();
    });

    it('an upstream listing none of our regions fails with UPSTREAM_INVALID_DATA and keeps the catalogue', async () => {
      const before = await total();
      expect(before).toBeGreaterThan(0);
      const elsewhere = REGIONS.data.map((region, i) => ({ ...region, id: `us-nowhere-${i}` }));
      fake.setJson('/provider_a/regions', page(elsewhere));
      try {
        const { status, result } = await sync();
        expect(status).toBe(500);
        expect(result).toMatchObject({
          success: false,
          error_details: { code: 'UPSTREAM_INVALID_DATA' },
        });
        expect(await total()).toBe(before);
      } finally {
        fake.setJson('/provider_a/regions', REGIONS);
      }
    });

    it('an upstream whose every type is skipped fails the same way, even with force', async () => {
      const before = await total();
      const unknownClass = TYPES.data.map((type) => ({ ...type, class: 'not-a-class' }));
      fake.setJson('/provider_a/linode/types', page(unknownClass));
      try {
        const { result } = await sync({ force: true });
        expect(result.error_details?.code).toBe('UPSTREAM_INVALID_DATA');
        expect(await total()).toBe(before);
      } finally {
        fake.setJson('/provider_a/linode/types', TYPES);
      }
    });

    // Issue 22: force has one meaning, emptying a region (region-integrity.test.ts). Types the
    // upstream stopped selling in regions it still lists are a real change, applied without it.
    it('a sync removing most types of every listed region is applied without force', async () => {
      const before = await total();
      fake.setJson('/provider_a/linode/types', page(TYPES.data.slice(0, 3)));
      try {
        const applied = await sync();
        expect(applied.result.success).toBe(true);
        const after = await total();
        expect(after).toBeGreaterThan(0);
        expect(after * 2).toBeLessThan(before);
      } finally {
        fake.setJson('/provider_a/linode/types', TYPES);
      }
      expect((await sync()).result.success).toBe(true);
      expect(await total()).toBe(before);
    });
  });
}

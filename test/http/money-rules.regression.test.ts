// Regression tests for issue 15 items 2 and 8, through the whole app on every backend:
// - "filters and budgets compare unrounded prices": provider_c's monthly price (hourly x 730)
//   kept fractions of a cent, so max_price=21.97 excluded the record shown as 21.97 and
//   budget_max 21.97 called it "$0.00081/month over budget";
// - "leading zeros poison the cache": max_price=00000000000004.5 was echoed as 4.5, filtered at 0,
//   and the empty page was cached under the key of max_price=4.5.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InstanceOffer, ProviderCatalog } from '../../src/catalog/offers.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

/** What provider_c's adapter produced before the fix: 0.030097/h x 730 = $21.970810. */
const HOURLY_MICROS = 30_097;
const UNROUNDED_MONTHLY_MICROS = HOURLY_MICROS * 730;

function offer(instanceId: string, hourlyMicros: number, monthlyMicros: number): InstanceOffer {
  return {
    instanceId,
    instanceName: instanceId,
    vcpu: 2,
    memoryMb: 4096,
    storageGb: 0,
    transferTb: 0,
    networkSpeedGbps: 5,
    gpuCount: 0,
    gpuType: null,
    family: 'general',
    regionCode: 'ap-northeast-1',
    hourlyMicros,
    monthlyMicros,
  };
}

const CATALOG: ProviderCatalog = {
  provider: 'provider_c',
  regionCodes: ['ap-northeast-1'],
  offers: [
    offer('t3.medium', HOURLY_MICROS, UNROUNDED_MONTHLY_MICROS),
    offer('t3.small', 6_164, 4_500_000),
    offer('t3.large', 41_096, 30_000_080),
  ],
  skippedRecords: 0,
};

interface InstancesBody {
  data: {
    instances: Array<{ instance_id: string; pricing: { monthly_price: number } }>;
    metadata: { cached: boolean; filters_applied: Record<string, unknown> };
  };
}

interface RecommendBody {
  data: {
    recommendations: Array<{
      instance: string;
      price: { monthly: number };
      cons: string[];
      pros: string[];
    }>;
  };
}

for (const backend of await storeBackends()) {
  describeStoreBackend(
    'monthly price rule and money parsing (issue 15 items 2, 8)',
    backend,
    () => {
      let database: IsolatedDatabase;
      let t: TestApp;
      let minute = 0;
      const fresh = () => {
        minute += 1;
        t.setNow(FIXED_NOW + minute * 60_000);
      };

      async function instances(query: string) {
        fresh();
        const response = await t.app.inject({ url: `/instances${query}`, headers: auth });
        expect(response.statusCode).toBe(200);
        return response.json<InstancesBody>().data;
      }

      beforeAll(async () => {
        database = await backend.isolate();
        t = await createTestApp({ DATABASE_URL: database.url });
        await t.services.store.applyProviderCatalog(CATALOG, {
          syncId: 'sync_1_moneyrules0000',
          provider: 'provider_c',
          startedAt: new Date(FIXED_NOW - 1000),
          completedAt: new Date(FIXED_NOW),
        });
      });
      afterAll(async () => {
        await t.close();
        await database.drop();
      });

      it('max_price=21.97 includes the record shown as 21.97 (unrounded-price filter defect)', async () => {
        const all = await instances('?provider=provider_c');
        const shown = all.instances.find((i) => i.instance_id === 't3.medium');
        expect(shown?.pricing.monthly_price).toBe(21.97);

        const filtered = await instances('?provider=provider_c&max_price=21.97');
        expect(filtered.instances.map((i) => i.instance_id)).toEqual(['t3.small', 't3.medium']);
        // Everything shown at or under the bound matches, nothing above it.
        const below = await instances('?provider=provider_c&max_price=21.96');
        expect(below.instances.map((i) => i.instance_id)).toEqual(['t3.small']);
      });

      it('budget_max 21.97 keeps the record shown as 21.97 within budget (unrounded-budget defect)', async () => {
        fresh();
        const response = await t.app.inject({
          method: 'POST',
          url: '/recommend',
          headers: auth,
          payload: {
            stack: ['nginx'],
            scale: 'small',
            budget_max: 21.97,
            providers: ['provider_c'],
          },
        });
        expect(response.statusCode).toBe(200);
        const recommendation = response
          .json<RecommendBody>()
          .data.recommendations.find((r) => r.instance === 't3.medium');
        expect(recommendation?.price.monthly).toBe(21.97);
        expect(recommendation?.cons.join(' ')).not.toContain('over the');
        expect(recommendation?.pros).toContain('$21.97/month, within the $21.97 budget');
      });

      it('max_price=00000000000004.5 filters at 4.5 and does not poison the 4.5 cache entry (leading-zeros defect)', async () => {
        const zeros = await instances('?provider=provider_c&max_price=00000000000004.5');
        expect(zeros.metadata.filters_applied).toMatchObject({ max_price: 4.5 });
        expect(zeros.instances.map((i) => i.instance_id)).toEqual(['t3.small']);

        const plain = await instances('?provider=provider_c&max_price=4.5');
        expect(plain.metadata.filters_applied).toMatchObject({ max_price: 4.5 });
        expect(plain.instances.map((i) => i.instance_id)).toEqual(['t3.small']);
      });

      it('echoes the bound it filtered with when digits go past the micro-dollar', async () => {
        const page = await instances('?provider=provider_c&max_price=4.4999999');
        expect(page.metadata.filters_applied).toMatchObject({ max_price: 4.499999 });
        expect(page.instances).toEqual([]);
      });
    },
  );
}

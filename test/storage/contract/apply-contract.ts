import { beforeEach, describe, expect, it } from 'vitest';
import type { CatalogStore } from '../../../src/storage/catalog-store.js';
import type { InstanceOffer } from '../../../src/catalog/offers.js';
import { catalog, observableState, offer, readAll, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

const A_REGIONS = ['ap-northeast', 'ap-south', 'ap-southeast'];

/** `count` distinct instance types spread over provider_a's regions, cheapest first. */
function manyOffers(count: number, prefix = 'bulk'): InstanceOffer[] {
  return Array.from({ length: count }, (_, i) =>
    offer({
      instanceId: `${prefix}-${i}`,
      regionCode: A_REGIONS[i % A_REGIONS.length] ?? 'ap-northeast',
      hourlyMicros: 1_000 + i,
      monthlyMicros: 730_000 + i,
    }),
  );
}

async function recordsOf(store: CatalogStore, provider: 'provider_a' | 'provider_b') {
  return (await readAll(store)).filter((row) => row.providerName === provider);
}

export function applyContract(ctx: StoreContext): void {
  describe('applyProviderCatalog', () => {
    it('counts distinct regions, instances and offers, the last duplicate offer winning', async () => {
      const counts = await ctx.store.applyProviderCatalog(
        catalog(
          'provider_a',
          [
            offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 1_000_000 }),
            offer({ instanceId: 'x', regionCode: 'ap-south' }),
            offer({ instanceId: 'y', regionCode: 'ap-south' }),
            offer({ instanceId: 'z', regionCode: 'ap-south' }),
            offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 2_000_000 }),
          ],
          A_REGIONS,
        ),
        run('provider_a'),
      );
      expect(counts).toEqual({ regions: 3, instances: 3, pricing: 4 });
      const tokyo = (await readAll(ctx.store)).filter((r) => r.regionCode === 'ap-northeast');
      expect(tokyo.map((r) => [r.instanceId, r.monthlyMicros])).toEqual([['x', 2_000_000]]);
    });

    it('keeps money and fractional specs exact', async () => {
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [
          offer({
            instanceId: 'cheap',
            regionCode: 'icn',
            hourlyMicros: 13_600,
            monthlyMicros: 9_930_000,
            transferTb: 0.5,
            networkSpeedGbps: 2.5,
          }),
          offer({
            instanceId: 'huge',
            regionCode: 'icn',
            hourlyMicros: 12_337_813_583_205,
            monthlyMicros: 9_007_199_254_740_000,
          }),
        ]),
        run('provider_b'),
      );
      const rows = await readAll(ctx.store);
      expect(
        rows.map((r) => [r.hourlyMicros, r.monthlyMicros, r.transferTb, r.networkSpeedGbps]),
      ).toEqual([
        [13_600, 9_930_000, 0.5, 2.5],
        [12_337_813_583_205, 9_007_199_254_740_000, 1, 1],
      ]);
    });

    it('stores every monthly price in whole cents, half-up (monthly price rule, issue 15 item 2)', async () => {
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [
          offer({
            instanceId: 'a',
            regionCode: 'icn',
            hourlyMicros: 30_097,
            monthlyMicros: 21_970_810,
          }),
          offer({
            instanceId: 'b',
            regionCode: 'icn',
            hourlyMicros: 30_103,
            monthlyMicros: 21_975_000,
          }),
        ]),
        run('provider_b'),
      );
      const rows = await readAll(ctx.store);
      expect(rows.map((r) => [r.hourlyMicros, r.monthlyMicros])).toEqual([
        [30_097, 21_970_000],
        [30_103, 21_980_000],
      ]);
    });

    it('stores a large catalogue completely (several statement batches)', async () => {
      const counts = await ctx.store.applyProviderCatalog(
        catalog('provider_a', manyOffers(3_000)),
        run('provider_a'),
      );
      expect(counts).toEqual({ regions: 3, instances: 3_000, pricing: 3_000 });
      expect(await ctx.store.countAvailable()).toBe(3_000);
    });

    it('marks records that vanished unavailable and leaves other providers alone', async () => {
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [offer({ instanceId: 'b', regionCode: 'nrt' })]),
        run('provider_b'),
      );
      await ctx.store.applyProviderCatalog(
        catalog('provider_a', [
          offer({ instanceId: 'kept', regionCode: 'ap-northeast' }),
          offer({ instanceId: 'kept', regionCode: 'ap-south' }),
          offer({ instanceId: 'gone', regionCode: 'ap-southeast' }),
        ]),
        run('provider_a'),
      );
      const before = await recordsOf(ctx.store, 'provider_a');
      await ctx.store.applyProviderCatalog(
        catalog('provider_a', [
          offer({ instanceId: 'kept', regionCode: 'ap-northeast', monthlyMicros: 4_000_000 }),
        ]),
        run('provider_a'),
      );
      const after = await recordsOf(ctx.store, 'provider_a');
      expect(after.map((r) => [r.id, r.instanceId, r.regionCode, r.monthlyMicros])).toEqual([
        [
          before.find((r) => r.regionCode === 'ap-northeast')?.id,
          'kept',
          'ap-northeast',
          4_000_000,
        ],
      ]);
      expect((await recordsOf(ctx.store, 'provider_b')).map((r) => r.instanceId)).toEqual(['b']);
      expect(await ctx.store.countAvailable()).toBe(2);
    });

    it('makes a reappearing record available again under its old id', async () => {
      const first = offer({ instanceId: 'back', regionCode: 'ap-south', monthlyMicros: 7_000_000 });
      await ctx.store.applyProviderCatalog(catalog('provider_a', [first]), run('provider_a'));
      const [original] = await readAll(ctx.store);
      const emptied = await ctx.store.applyProviderCatalog(
        catalog('provider_a', []),
        run('provider_a'),
      );
      expect(emptied).toEqual({ regions: 3, instances: 0, pricing: 0 });
      expect(await ctx.store.countAvailable()).toBe(0);
      await ctx.store.applyProviderCatalog(
        catalog('provider_a', [{ ...first, monthlyMicros: 6_000_000 }]),
        run('provider_a'),
      );
      const rows = await readAll(ctx.store);
      expect(rows.map((r) => [r.id, r.monthlyMicros, r.available])).toEqual([
        [original?.id, 6_000_000, 1],
      ]);
    });

    it('rejects a run that names another provider, changing nothing', async () => {
      await expect(
        ctx.store.applyProviderCatalog(
          catalog('provider_a', [offer({ instanceId: 'x', regionCode: 'ap-south' })]),
          run('provider_b'),
        ),
      ).rejects.toThrow();
      expect(await ctx.store.countAvailable()).toBe(0);
      expect((await ctx.store.providerStates()).every((s) => s.latestRun === null)).toBe(true);
    });
  });

  describe('applyProviderCatalog is atomic (D22)', () => {
    let before: unknown;
    beforeEach(async () => {
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [offer({ instanceId: 'b', regionCode: 'itm' })]),
        run('provider_b'),
      );
      await ctx.store.applyProviderCatalog(
        catalog('provider_a', [
          offer({ instanceId: 'old-1', regionCode: 'ap-northeast', monthlyMicros: 3_000_000 }),
          offer({ instanceId: 'old-2', regionCode: 'ap-south', monthlyMicros: 4_000_000 }),
        ]),
        run('provider_a'),
      );
      before = await observableState(ctx.store);
    });

    /** A catalogue that changes a price, drops old-2, adds many types, then breaks at the end. */
    function failingCatalogue(broken: InstanceOffer, extra = 1_500): InstanceOffer[] {
      return [
        offer({ instanceId: 'old-1', regionCode: 'ap-northeast', monthlyMicros: 1 }),
        ...manyOffers(extra, 'new'),
        broken,
      ];
    }

    const cases: [string, InstanceOffer][] = [
      [
        'an offer in a region code outside the table',
        offer({ instanceId: 'bad', regionCode: 'us-east-1' }),
      ],
      ["an offer in another provider's region", offer({ instanceId: 'bad', regionCode: 'icn' })],
      [
        'a negative price (a CHECK constraint, in the second pricing batch)',
        offer({ instanceId: 'bad', regionCode: 'ap-south', monthlyMicros: -1 }),
      ],
      // Untrusted data that slipped past validation: the NOT NULL constraint stops it.
      [
        'a missing instance name (NOT NULL, in the last instance batch)',
        {
          ...offer({ instanceId: 'bad', regionCode: 'ap-south' }),
          instanceName: null as unknown as string,
        },
      ],
      ['a fractional vCPU count', offer({ instanceId: 'bad', regionCode: 'ap-south', vcpu: 1.5 })],
    ];
    for (const [name, broken] of cases) {
      it(`leaves the previous catalogue exactly as it was after ${name}`, async () => {
        await expect(
          ctx.store.applyProviderCatalog(
            catalog('provider_a', failingCatalogue(broken)),
            run('provider_a'),
          ),
        ).rejects.toThrow();
        expect(await observableState(ctx.store)).toEqual(before);
        // The store is still usable afterwards: the transaction was rolled back, not left open.
        const counts = await ctx.store.applyProviderCatalog(
          catalog('provider_a', manyOffers(2)),
          run('provider_a'),
        );
        expect(counts.pricing).toBe(2);
      });
    }
  });
}

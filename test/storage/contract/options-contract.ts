// D61 in the store: each record's other purchase options and AWS spot advice are kept beside it,
// replaced by every apply that lists the record, except a (region, option) whose feed failed
// (ProviderCatalog.keptOptions), which keeps its stored figures.
import { beforeEach, describe, expect, it } from 'vitest';
import type { InstanceOffer, KeptOption } from '../../../src/catalog/offers.js';
import { optionPrice, type SpotAdvice } from '../../../src/catalog/purchase-options.js';
import type { InstanceRow } from '../../../src/catalog/records.js';
import { catalog, offer, readAll, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

const TOKYO = 'ap-northeast-1';
const SEOUL = 'ap-northeast-2';
const SPOT_SEEN = new Date('2026-11-28T10:00:00Z');

const advice = (band: SpotAdvice['interruptionBand'], savingsPct: number): SpotAdvice => ({
  interruptionBand: band,
  savingsPct,
  observedAt: new Date('2025-06-28T08:37:00Z'),
  source: 'AWS Spot Instance Advisor (test)',
});

function c7i(regionCode: string, reserved1y: number, spot?: number): InstanceOffer {
  return offer({
    instanceId: 'c7i.xlarge',
    regionCode,
    hourlyMicros: 223_000,
    monthlyMicros: 162_790_000,
    optionPrices: {
      reserved_1y: optionPrice(reserved1y),
      convertible_3y: optionPrice(117_000),
      ...(spot !== undefined && { spot: optionPrice(spot, SPOT_SEEN) }),
    },
    ...(spot !== undefined && { spotAdvice: advice('5-10%', 61) }),
  });
}

async function apply(ctx: StoreContext, offers: InstanceOffer[], kept?: KeptOption[]) {
  await ctx.store.applyProviderCatalog(
    { ...catalog('provider_c', offers, [TOKYO, SEOUL]), ...(kept && { keptOptions: kept }) },
    run('provider_c'),
  );
}

const byRegion = async (ctx: StoreContext): Promise<Map<string, InstanceRow>> =>
  new Map((await readAll(ctx.store)).map((row) => [row.regionCode, row]));

export function optionsContract(ctx: StoreContext): void {
  describe('purchase options and spot advice (D61)', () => {
    beforeEach(async () => {
      await apply(ctx, [c7i(TOKYO, 148_200, 90_000), c7i(SEOUL, 150_000, 95_000)]);
    });

    it('keeps every option beside the on-demand price, monthly as hourly x 730', async () => {
      const tokyo = (await byRegion(ctx)).get(TOKYO)!;
      expect(tokyo.purchaseOption).toBe('on_demand');
      expect(tokyo.hourlyMicros).toBe(223_000);
      expect(Object.keys(tokyo.options)).toEqual([
        'on_demand',
        'spot',
        'reserved_1y',
        'convertible_3y',
      ]);
      expect(tokyo.options.on_demand).toMatchObject({
        hourlyMicros: 223_000,
        monthlyMicros: 162_790_000,
      });
      expect(tokyo.options.reserved_1y).toMatchObject({
        hourlyMicros: 148_200,
        monthlyMicros: 108_190_000,
      });
      // A spot price is dated by its own feed; the others by the catalogue's observation.
      expect(tokyo.options.spot?.observedAt).toBe(SPOT_SEEN.getTime());
      expect(tokyo.options.reserved_1y?.observedAt).toBe(tokyo.observedAt);
      expect(tokyo.spotAdvice).toMatchObject({ interruptionBand: '5-10%', savingsPct: 61 });
      // The index is built from a scan: it reads the same.
      const scanned = (await ctx.store.readCatalog()).rows.find((r) => r.regionCode === TOKYO)!;
      expect(scanned.options).toEqual(tokyo.options);
      expect(scanned.spotAdvice).toEqual(tokyo.spotAdvice);
    });

    it('replaces the options with what the next apply lists, dropping those it no longer has', async () => {
      await apply(ctx, [c7i(TOKYO, 140_000), c7i(SEOUL, 141_000)]);
      const rows = await byRegion(ctx);
      for (const region of [TOKYO, SEOUL]) {
        expect(Object.keys(rows.get(region)!.options)).toEqual([
          'on_demand',
          'reserved_1y',
          'convertible_3y',
        ]);
        expect(rows.get(region)!.spotAdvice).toBeNull();
      }
      expect(rows.get(TOKYO)!.options.reserved_1y?.hourlyMicros).toBe(140_000);
    });

    it('keeps the stored figures of an option whose feed failed in a region, and only there', async () => {
      await apply(
        ctx,
        [c7i(TOKYO, 140_000), c7i(SEOUL, 141_000)],
        [
          { regionCode: TOKYO, option: 'spot' },
          { regionCode: TOKYO, option: 'spot_advice' },
        ],
      );
      const rows = await byRegion(ctx);
      const tokyo = rows.get(TOKYO)!;
      expect(tokyo.options.spot).toEqual({
        hourlyMicros: 90_000,
        monthlyMicros: 65_700_000,
        observedAt: SPOT_SEEN.getTime(),
      });
      expect(tokyo.spotAdvice).toMatchObject({ interruptionBand: '5-10%', savingsPct: 61 });
      // The other options of the same records are applied as usual.
      expect(tokyo.options.reserved_1y?.hourlyMicros).toBe(140_000);
      expect(rows.get(SEOUL)!.options.spot).toBeUndefined();
      expect(rows.get(SEOUL)!.spotAdvice).toBeNull();
    });

    it('refuses an option price that is not a whole non-negative number of micro-dollars', async () => {
      const bad = offer({
        instanceId: 'bad',
        regionCode: TOKYO,
        optionPrices: { reserved_3y: { hourlyMicros: -1, monthlyMicros: 0 } },
      });
      await expect(apply(ctx, [bad])).rejects.toThrow(/reserved_3y/);
      // Nothing of the refused apply is visible.
      expect((await byRegion(ctx)).get(TOKYO)!.options.reserved_1y?.hourlyMicros).toBe(148_200);
    });

    it('keeps history and change items per option (D61)', async () => {
      await apply(ctx, [c7i(TOKYO, 140_000), c7i(SEOUL, 150_000, 95_000)]);
      const tokyo = (await byRegion(ctx)).get(TOKYO)!;
      const since = new Date(0);
      const items = async (purchaseOption?: 'on_demand' | 'reserved_1y' | 'spot') =>
        (
          await ctx.store.history.changes({
            since,
            limit: 100,
            ...(purchaseOption !== undefined && { purchaseOption }),
          })
        ).changes.map((c) => [c.instance.regionCode, c.purchaseOption, c.kind]);
      // The first apply added each option of each record; the second lowered Tokyo's reserved_1y
      // price and dropped its spot price. Seoul did not move.
      expect(await items('on_demand')).toEqual([
        [TOKYO, 'on_demand', 'added'],
        [SEOUL, 'on_demand', 'added'],
      ]);
      expect(await items('reserved_1y')).toEqual([
        [TOKYO, 'reserved_1y', 'added'],
        [SEOUL, 'reserved_1y', 'added'],
        [TOKYO, 'reserved_1y', 'price_decreased'],
      ]);
      expect(await items('spot')).toEqual([
        [TOKYO, 'spot', 'added'],
        [SEOUL, 'spot', 'added'],
        [TOKYO, 'spot', 'removed'],
      ]);
      expect(await items()).toHaveLength(2 * 4 + 2);

      const reserved = await ctx.store.history.recordHistory(tokyo.id, 100, 'reserved_1y');
      expect(reserved?.periods.map((p) => [p.hourlyMicros, p.available, p.purchaseOption])).toEqual(
        [
          [140_000, true, 'reserved_1y'],
          [148_200, true, 'reserved_1y'],
        ],
      );
      const spot = await ctx.store.history.recordHistory(tokyo.id, 100, 'spot');
      expect(spot?.periods.map((p) => [p.hourlyMicros, p.available])).toEqual([
        [90_000, false],
        [90_000, true],
      ]);
      const onDemand = await ctx.store.history.recordHistory(tokyo.id, 100, 'on_demand');
      expect(onDemand?.periods).toHaveLength(1);
      // A past catalogue is on-demand: one row per record, at its on-demand price.
      const past = await ctx.store.history.queryAsOf(
        { filter: {}, sort: 'monthly_price', order: 'asc', limit: 10, offset: 0 },
        new Date(),
      );
      expect(past.rows.map((r) => [r.regionCode, r.hourlyMicros])).toEqual([
        [TOKYO, 223_000],
        [SEOUL, 223_000],
      ]);
    });
  });
}

import { describe, expect, it } from 'vitest';
import type { PriceChange } from '../../../src/catalog/price-change-model.js';
import type { InstanceQuery } from '../../../src/catalog/record-query.js';
import type { ChangeQuery } from '../../../src/storage/history-store.js';
import { catalog, offer, readAll, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

const T0 = new Date('2026-01-01T00:00:00.000Z');
const T1 = new Date('2026-01-02T00:00:00.000Z');
const T2 = new Date('2026-01-03T00:00:00.000Z');
const T3 = new Date('2026-01-04T00:00:00.000Z');
const between = (a: Date, b: Date) => new Date((a.getTime() + b.getTime()) / 2);

const ALL: InstanceQuery = {
  filter: {},
  sort: 'monthly_price',
  order: 'asc',
  limit: 100,
  offset: 0,
};

// Version 1: x in two regions, y in one. Version 2: x/ap-northeast rises, x/ap-south drops,
// y vanishes, z appears. Version 3: y returns at a new price, the rest as in version 2.
const v1 = () =>
  catalog('provider_a', [
    offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 10_000_000 }),
    offer({ instanceId: 'x', regionCode: 'ap-south', monthlyMicros: 20_000_000 }),
    offer({ instanceId: 'y', regionCode: 'ap-south', monthlyMicros: 30_000_000 }),
  ]);
const v2 = () =>
  catalog('provider_a', [
    offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 12_500_000 }),
    offer({ instanceId: 'x', regionCode: 'ap-south', monthlyMicros: 15_000_000 }),
    offer({ instanceId: 'z', regionCode: 'ap-south', monthlyMicros: 40_000_000 }),
  ]);
const v3 = () =>
  catalog('provider_a', [
    ...v2().offers,
    offer({ instanceId: 'y', regionCode: 'ap-south', monthlyMicros: 33_000_000 }),
  ]);

type Summary = [string, string, string, number | null, number | null];
const summary = (c: PriceChange): Summary => [
  c.kind,
  c.instance.instanceId,
  c.instance.regionCode,
  c.old?.monthlyMicros ?? null,
  c.new?.monthlyMicros ?? null,
];

export function priceHistoryContract(ctx: StoreContext): void {
  const feed = async (query: Partial<ChangeQuery> = {}) =>
    (await ctx.store.history.changes({ since: T0, limit: 500, ...query })).changes;
  const idOf = async (instanceId: string, regionCode: string) => {
    const rows = await readAll(ctx.store);
    const row = rows.find((r) => r.instanceId === instanceId && r.regionCode === regionCode);
    if (row === undefined) throw new Error(`no record ${instanceId}/${regionCode}`);
    return row.id;
  };
  const syncAll = async () => {
    await ctx.store.applyProviderCatalog(v1(), run('provider_a', T1));
    await ctx.store.applyProviderCatalog(v2(), run('provider_a', T2));
    await ctx.store.applyProviderCatalog(v3(), run('provider_a', T3));
  };

  describe('price history', () => {
    it('opens one period per record and reports each as added on the first sync', async () => {
      const applied = run('provider_a', T1);
      await ctx.store.applyProviderCatalog(v1(), applied);
      const changes = await feed();
      expect(changes.map(summary)).toEqual([
        ['added', 'x', 'ap-northeast', null, 10_000_000],
        ['added', 'x', 'ap-south', null, 20_000_000],
        ['added', 'y', 'ap-south', null, 30_000_000],
      ]);
      for (const change of changes) {
        expect(change.at).toEqual(T1);
        expect(change.syncId).toBe(applied.syncId);
        expect(change.instance.provider).toBe('provider_a');
      }
      const history = await ctx.store.history.recordHistory(
        await idOf('x', 'ap-south'),
        100,
        'on_demand',
      );
      expect(history?.periods).toEqual([
        {
          validFrom: T1,
          validTo: null,
          hourlyMicros: 6_850,
          monthlyMicros: 20_000_000,
          available: true,
          purchaseOption: 'on_demand',
        },
      ]);
    });

    // Issue 22 (suspected: one sync carries three completed_at values): the run's completed_at
    // (health last_sync), the history's valid_from and the feed's at are one instant, the time
    // the run was given.
    it('one sync has one completed_at: the run, its history periods and its feed items', async () => {
      const appliedAt = new Date(Date.now() - 60_000);
      const applied = run('provider_a', appliedAt);
      await ctx.store.applyProviderCatalog(v1(), applied);
      const state = (await ctx.store.providerStates()).find((s) => s.provider === 'provider_a');
      expect(state?.latestRun?.syncId).toBe(applied.syncId);
      expect(state!.latestRun!.completedAt).toEqual(appliedAt);
      expect(state!.lastSuccessAt).toEqual(appliedAt);
      const changes = await feed();
      expect(changes.length).toBeGreaterThan(0);
      expect(changes.map((change) => change.at)).toEqual(changes.map(() => appliedAt));
      const history = await ctx.store.history.recordHistory(
        await idOf('x', 'ap-south'),
        100,
        'on_demand',
      );
      expect(history?.periods.map((period) => period.validFrom)).toEqual([appliedAt]);
    });

    it('adds nothing when a sync changes no price', async () => {
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T1));
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T2));
      expect(await feed({ since: between(T1, T2) })).toEqual([]);
      const history = await ctx.store.history.recordHistory(
        await idOf('x', 'ap-south'),
        100,
        'on_demand',
      );
      expect(history?.periods).toHaveLength(1);
    });

    it('records rises, drops, removals, returns and additions, each once, in the feed', async () => {
      await syncAll();
      expect((await feed({ since: T2 })).map(summary)).toEqual([
        ['price_increased', 'x', 'ap-northeast', 10_000_000, 12_500_000],
        ['price_decreased', 'x', 'ap-south', 20_000_000, 15_000_000],
        ['removed', 'y', 'ap-south', 30_000_000, null],
        ['added', 'z', 'ap-south', null, 40_000_000],
        ['returned', 'y', 'ap-south', null, 33_000_000],
      ]);
      const y = await ctx.store.history.recordHistory(
        await idOf('y', 'ap-south'),
        100,
        'on_demand',
      );
      expect(y?.record.available).toBe(1);
      expect(y?.periods.map((p) => [p.validFrom, p.validTo, p.monthlyMicros, p.available])).toEqual(
        [
          [T3, null, 33_000_000, true],
          [T2, T3, 30_000_000, false],
          [T1, T2, 30_000_000, true],
        ],
      );
    });

    it('shows a vanished record with its history, marked unavailable', async () => {
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T1));
      const id = await idOf('y', 'ap-south');
      await ctx.store.applyProviderCatalog(v2(), run('provider_a', T2));
      const y = await ctx.store.history.recordHistory(id, 100, 'on_demand');
      expect(y?.record.available).toBe(0);
      expect(y?.periods.map((p) => p.available)).toEqual([false, true]);
      expect(
        await ctx.store.history.recordHistory(id + 1_000_000, 100, 'on_demand'),
      ).toBeUndefined();
    });

    it('keeps history exactly as it was when an apply fails', async () => {
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T1));
      const before = await feed();
      const bad = catalog('provider_a', [
        ...v2().offers,
        offer({ instanceId: 'q', regionCode: 'nowhere-1' }),
      ]);
      await expect(ctx.store.applyProviderCatalog(bad, run('provider_a', T2))).rejects.toThrow();
      expect(await feed()).toEqual(before);
      const x = await ctx.store.history.recordHistory(
        await idOf('x', 'ap-south'),
        100,
        'on_demand',
      );
      expect(x?.periods).toHaveLength(1);
    });

    it('keeps each provider apart', async () => {
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T1));
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [offer({ instanceId: 'b', regionCode: 'icn' })]),
        run('provider_b', T2),
      );
      await ctx.store.applyProviderCatalog(v1(), run('provider_a', T3));
      expect((await feed({ since: T2 })).map(summary)).toEqual([
        ['added', 'b', 'icn', null, 5_000_000],
      ]);
    });
  });

  describe('change feed', () => {
    it('filters by time window, provider, region and kind', async () => {
      await syncAll();
      expect(await feed({ since: T1, until: T2 })).toHaveLength(3);
      expect((await feed({ region: 'ap-northeast' })).map(summary)).toEqual([
        ['added', 'x', 'ap-northeast', null, 10_000_000],
        ['price_increased', 'x', 'ap-northeast', 10_000_000, 12_500_000],
      ]);
      expect((await feed({ kinds: ['removed'] })).map(summary)).toEqual([
        ['removed', 'y', 'ap-south', 30_000_000, null],
      ]);
      expect(await feed({ provider: 'provider_b' })).toEqual([]);
      expect(await feed({ since: new Date(T3.getTime() + 1) })).toEqual([]);
    });

    it('pages with a cursor, oldest first, every item exactly once', async () => {
      await syncAll();
      const all = await feed();
      expect(all).toHaveLength(8);
      const seen: PriceChange[] = [];
      let after: ChangeQuery['after'];
      for (let pages = 0; pages < 10; pages++) {
        const page = await ctx.store.history.changes({
          since: T0,
          limit: 3,
          ...(after && { after }),
        });
        seen.push(...page.changes);
        if (page.next === null) break;
        after = page.next;
      }
      expect(seen).toEqual(all);
      const times = all.map((c) => c.at.getTime());
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });
  });

  describe('as_of', () => {
    it('answers the catalogue as it was at each instant', async () => {
      await syncAll();
      const at = async (when: Date, query: Partial<InstanceQuery> = {}) => {
        const page = await ctx.store.history.queryAsOf({ ...ALL, ...query }, when);
        return {
          total: page.total,
          lastSync: page.lastSync,
          rows: page.rows.map((r) => [r.instanceId, r.regionCode, r.monthlyMicros, r.available]),
        };
      };
      expect(await at(T0)).toEqual({ total: 0, lastSync: null, rows: [] });
      expect(await at(between(T1, T2))).toEqual({
        total: 3,
        lastSync: T1,
        rows: [
          ['x', 'ap-northeast', 10_000_000, 1],
          ['x', 'ap-south', 20_000_000, 1],
          ['y', 'ap-south', 30_000_000, 1],
        ],
      });
      expect(await at(T2)).toEqual({
        total: 3,
        lastSync: T2,
        rows: [
          ['x', 'ap-northeast', 12_500_000, 1],
          ['x', 'ap-south', 15_000_000, 1],
          ['z', 'ap-south', 40_000_000, 1],
        ],
      });
      const now = await at(new Date(T3.getTime() + 1));
      const current = await ctx.store.queryInstances(ALL);
      expect(now.rows).toEqual(
        current.rows.map((r) => [r.instanceId, r.regionCode, r.monthlyMicros, r.available]),
      );
      expect(
        await at(between(T1, T2), {
          filter: { region: 'ap-south', maxMonthlyMicros: 25_000_000 },
          sort: 'monthly_price',
          order: 'desc',
        }),
      ).toEqual({ total: 1, lastSync: T1, rows: [['x', 'ap-south', 20_000_000, 1]] });
      const paged = await ctx.store.history.queryAsOf({ ...ALL, limit: 1, offset: 1 }, T2);
      expect([paged.total, paged.rows.map((r) => r.instanceId)]).toEqual([3, ['x']]);
    });
  });
}

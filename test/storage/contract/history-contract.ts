import { describe, expect, it } from 'vitest';
import { PROVIDER_NAMES } from '../../../src/catalog/model.js';
import { catalog, offer, readAll, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

const T1 = new Date('2026-01-02T03:04:05.678Z');
const T2 = new Date('2026-01-02T04:00:00.001Z');
const T3 = new Date('2026-01-03T00:00:00.999Z');

const twoRegions = () =>
  catalog('provider_a', [
    offer({ instanceId: 'x', regionCode: 'ap-northeast' }),
    offer({ instanceId: 'x', regionCode: 'ap-south' }),
    offer({ instanceId: 'y', regionCode: 'ap-south' }),
  ]);

export function historyContract(ctx: StoreContext): void {
  describe('migrate and seed', () => {
    it('starts empty, with every provider never synced', async () => {
      expect(await ctx.store.countAvailable()).toBe(0);
      expect(await ctx.store.lastSuccessfulSync()).toBeNull();
      expect(await ctx.store.providerStates()).toEqual(
        PROVIDER_NAMES.map((provider) => ({
          provider,
          lastSuccessAt: null,
          latestRun: null,
          dataSource: null,
          regionsCount: 0,
          instancesCount: 0,
        })),
      );
    });

    it('is idempotent and keeps the data', async () => {
      await ctx.store.applyProviderCatalog(twoRegions(), run('provider_a', T1));
      const before = await readAll(ctx.store);
      await ctx.store.migrate();
      const replica = await ctx.openAnother();
      await replica.migrate();
      expect(await readAll(ctx.store)).toEqual(before);
      expect(await readAll(replica)).toEqual(before);
    });

    it('updates provider display names on a later start', async () => {
      await ctx.store.applyProviderCatalog(twoRegions(), run('provider_a', T1));
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [offer({ instanceId: 'b', regionCode: 'icn' })]),
        run('provider_b', T1),
      );
      const restarted = await ctx.openAnother({ displayNames: { provider_a: 'Acme Cloud' } });
      await restarted.migrate();
      const names = new Set(
        (await readAll(ctx.store)).map((r) => `${r.providerName}=${r.providerDisplayName}`),
      );
      expect([...names].sort()).toEqual(['provider_a=Acme Cloud', 'provider_b=Vultr']);
    });

    it('answers ping while open and rejects it once closed', async () => {
      await expect(ctx.store.ping()).resolves.toBeUndefined();
      const other = await ctx.openAnother();
      await other.close();
      await other.close();
      await expect(other.ping()).rejects.toThrow();
    });
  });

  describe('sync history', () => {
    it('records a successful run with its times, counts and the provider state', async () => {
      const applied = run('provider_a', T1);
      await ctx.store.applyProviderCatalog(twoRegions(), applied);
      const [a, b] = await ctx.store.providerStates();
      expect(a).toEqual({
        provider: 'provider_a',
        lastSuccessAt: T1,
        latestRun: {
          ...applied,
          success: true,
          // regions: the regions the catalogue covers (all three of ours), not those with offers.
          counts: { regions: 3, instances: 2, pricing: 3 },
          errorCode: null,
          errorMessage: null,
          dataSource: null,
        },
        // The fixture catalogue names no data source (D37).
        dataSource: null,
        regionsCount: 2,
        instancesCount: 3,
      });
      expect(b?.latestRun).toBeNull();
      expect(await ctx.store.lastSuccessfulSync()).toEqual(T1);
    });

    it('shows a failed run as the latest attempt without touching the last success or the data', async () => {
      await ctx.store.applyProviderCatalog(twoRegions(), run('provider_a', T1));
      const failed = {
        ...run('provider_a', T2),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_TIMEOUT',
        errorMessage: 'provider_a did not answer within 30000 ms',
      };
      await ctx.store.recordFailedRun(failed);
      const [a] = await ctx.store.providerStates();
      expect(a).toEqual({
        provider: 'provider_a',
        lastSuccessAt: T1,
        latestRun: { ...failed, dataSource: null },
        dataSource: null,
        regionsCount: 2,
        instancesCount: 3,
      });
      expect(await ctx.store.lastSuccessfulSync()).toEqual(T1);
      expect(await ctx.store.countAvailable()).toBe(3);
    });

    it('takes the newest completion as the latest run, whatever the insertion order', async () => {
      await ctx.store.recordFailedRun({
        ...run('provider_c', T3),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_HTTP_ERROR',
        errorMessage: 'HTTP 503',
      });
      await ctx.store.applyProviderCatalog(
        catalog('provider_c', [offer({ instanceId: 'c', regionCode: 'ap-east-1' })]),
        run('provider_c', T2),
      );
      const c = (await ctx.store.providerStates()).find((s) => s.provider === 'provider_c');
      expect(c?.latestRun?.errorCode).toBe('UPSTREAM_HTTP_ERROR');
      expect(c?.lastSuccessAt).toEqual(T2);
      expect([c?.regionsCount, c?.instancesCount]).toEqual([1, 1]);
    });

    it('reports the newest success of any provider as the last sync', async () => {
      await ctx.store.applyProviderCatalog(twoRegions(), run('provider_a', T1));
      await ctx.store.applyProviderCatalog(
        catalog('provider_b', [offer({ instanceId: 'b', regionCode: 'icn' })]),
        run('provider_b', T2),
      );
      await ctx.store.recordFailedRun({
        ...run('provider_c', T3),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_INVALID_DATA',
        errorMessage: 'bad',
      });
      expect(await ctx.store.lastSuccessfulSync()).toEqual(T2);
    });

    it('counts only available records per provider after a record vanishes', async () => {
      await ctx.store.applyProviderCatalog(twoRegions(), run('provider_a', T1));
      await ctx.store.applyProviderCatalog(
        catalog('provider_a', [offer({ instanceId: 'y', regionCode: 'ap-south' })]),
        run('provider_a', T2),
      );
      const [a] = await ctx.store.providerStates();
      expect([a?.regionsCount, a?.instancesCount, a?.lastSuccessAt]).toEqual([1, 1, T2]);
      expect(await ctx.store.countAvailable()).toBe(1);
    });
  });
}

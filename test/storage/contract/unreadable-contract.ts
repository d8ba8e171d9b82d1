// Issue 35 item 2: an upstream entry that failed validation but names its instance type is not
// gone upstream (D15). The apply keeps that type's stored records exactly as they were (price,
// availability, no change recorded), and removes only what the upstream no longer lists.
import { describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../../src/catalog/offers.js';
import { catalog, offer, readAll, run } from '../catalog-fixtures.js';
import type { StoreContext } from './store-context.js';

const A_REGIONS = ['ap-northeast', 'ap-south', 'ap-southeast'];
const T1 = new Date('2026-01-02T03:00:00.000Z');
const T2 = new Date('2026-01-02T04:00:00.000Z');

const first = () =>
  catalog(
    'provider_a',
    [
      offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 1_000_000 }),
      offer({ instanceId: 'x', regionCode: 'ap-south', monthlyMicros: 2_000_000 }),
      offer({ instanceId: 'y', regionCode: 'ap-northeast', monthlyMicros: 3_000_000 }),
      offer({ instanceId: 'y', regionCode: 'ap-south', monthlyMicros: 4_000_000 }),
      offer({ instanceId: 'z', regionCode: 'ap-northeast', monthlyMicros: 5_000_000 }),
    ],
    A_REGIONS,
  );

export function unreadableContract(ctx: StoreContext): void {
  describe('applyProviderCatalog with unreadable entries (issue 35 item 2)', () => {
    async function records() {
      return (await readAll(ctx.store, 'instance_name'))
        .filter((row) => row.providerName === 'provider_a')
        .map((row) => [row.instanceId, row.regionCode, row.monthlyMicros]);
    }

    it('keeps the records of unreadable entries as they were and removes only unlisted ones', async () => {
      await ctx.store.applyProviderCatalog(first(), run('provider_a', T1));
      const second: ProviderCatalog = {
        ...catalog(
          'provider_a',
          [offer({ instanceId: 'w', regionCode: 'ap-northeast', monthlyMicros: 6_000_000 })],
          A_REGIONS,
        ),
        skippedRecords: 2,
        // x failed everywhere (a plan record), y only in Tokyo (a region file's product).
        unreadableEntries: [{ instanceId: 'x' }, { instanceId: 'y', regionCode: 'ap-northeast' }],
      };
      await ctx.store.applyProviderCatalog(second, run('provider_a', T2));
      expect(await records()).toEqual([
        ['w', 'ap-northeast', 6_000_000],
        ['x', 'ap-northeast', 1_000_000],
        ['x', 'ap-south', 2_000_000],
        ['y', 'ap-northeast', 3_000_000],
      ]);
    });

    it('lets an offer of the same type and region replace the record it would have held', async () => {
      await ctx.store.applyProviderCatalog(first(), run('provider_a', T1));
      const second: ProviderCatalog = {
        ...catalog(
          'provider_a',
          [
            offer({ instanceId: 'x', regionCode: 'ap-northeast', monthlyMicros: 7_000_000 }),
            offer({ instanceId: 'z', regionCode: 'ap-northeast', monthlyMicros: 5_000_000 }),
          ],
          A_REGIONS,
        ),
        skippedRecords: 1,
        unreadableEntries: [{ instanceId: 'x', regionCode: 'ap-northeast' }],
      };
      await ctx.store.applyProviderCatalog(second, run('provider_a', T2));
      expect(await records()).toEqual([
        ['x', 'ap-northeast', 7_000_000],
        ['z', 'ap-northeast', 5_000_000],
      ]);
    });

    it('records the skipped count of a run and shows it in the provider state', async () => {
      await ctx.store.applyProviderCatalog(first(), {
        ...run('provider_a', T1),
        skippedRecords: 3,
      });
      const state = (await ctx.store.providerStates()).find((s) => s.provider === 'provider_a');
      expect(state?.latestRun?.skippedRecords).toBe(3);
      await ctx.store.recordFailedRun({
        ...run('provider_a', T2),
        success: false,
        counts: { regions: 0, instances: 0, pricing: 0 },
        errorCode: 'UPSTREAM_INVALID_DATA',
        errorMessage: 'too many skipped',
        skippedRecords: 40,
      });
      const failed = (await ctx.store.providerStates()).find((s) => s.provider === 'provider_a');
      expect(failed?.latestRun?.skippedRecords).toBe(40);
    });
  });
}

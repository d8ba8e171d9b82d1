import { beforeEach, describe, expect, it } from 'vitest';
import type { InstanceRow } from '../../../src/catalog/records.js';
import { AVAILABLE_OFFERS, loadQueryCatalogue } from './query-fixture.js';
import type { StoreContext } from './store-context.js';

const key = (row: InstanceRow) => `${row.instanceId}@${row.regionCode}`;

export function candidatesContract(ctx: StoreContext): void {
  describe('findCandidates', () => {
    beforeEach(() => loadQueryCatalogue(ctx.store));

    it('returns available records with enough memory, cheapest first then by id', async () => {
      const rows = await ctx.store.findCandidates({ minMemoryMb: 2048 });
      expect(rows.map(key)).toEqual([
        'b3@nrt',
        'c1@ap-northeast-1',
        'c1@ap-east-1',
        'a2@ap-southeast',
        'b2@itm',
        'a3@ap-northeast',
        'c2@ap-southeast-1',
      ]);
      expect((await ctx.store.findCandidates({ minMemoryMb: 2047.5 })).map(key)).toEqual(
        rows.map(key),
      );
    });

    it('orders equal prices by id and leaves out unavailable records', async () => {
      const rows = await ctx.store.findCandidates({ minMemoryMb: 0 });
      expect(rows).toHaveLength(AVAILABLE_OFFERS.length);
      expect(rows.map((r) => r.instanceId)).not.toContain('c9');
      const tied = rows.filter((r) => r.monthlyMicros === 5_000_000).map((r) => r.id);
      expect(tied).toEqual([...tied].sort((a, b) => a - b));
    });

    it('filters by providers and regions', async () => {
      const byProvider = await ctx.store.findCandidates({
        minMemoryMb: 1024,
        providers: ['provider_c'],
      });
      expect(byProvider.map(key)).toEqual([
        'c3@ap-northeast-2',
        'c1@ap-northeast-1',
        'c1@ap-east-1',
        'c2@ap-southeast-1',
      ]);
      const byRegion = await ctx.store.findCandidates({
        minMemoryMb: 1024,
        regions: ['nrt', 'ap-east-1'],
      });
      expect(byRegion.map(key)).toEqual(['b3@nrt', 'c1@ap-east-1']);
      const both = await ctx.store.findCandidates({
        minMemoryMb: 0,
        providers: ['provider_b'],
        regions: ['nrt'],
      });
      expect(both.map(key)).toEqual(['b1@nrt', 'b3@nrt']);
    });

    it('matches nothing for an empty providers or regions list', async () => {
      expect(await ctx.store.findCandidates({ minMemoryMb: 0, providers: [] })).toEqual([]);
      expect(await ctx.store.findCandidates({ minMemoryMb: 0, regions: [] })).toEqual([]);
    });
  });
}

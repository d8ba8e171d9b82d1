import { describe, expect, it } from 'vitest';
import type { PriceChange } from './price-change-model.js';
import {
  completedSyncMessages,
  failedSyncMessages,
  MAX_CHANGES_PER_EVENT,
} from './webhook-event-model.js';

const at = new Date(Date.UTC(2026, 0, 2));
const change = (id: number, regionCode: string): PriceChange => ({
  id,
  at,
  syncId: 'sync_1',
  kind: 'price_increased',
  purchaseOption: 'on_demand',
  instance: {
    id,
    provider: 'provider_b',
    regionCode,
    instanceId: `t-${id}`,
    instanceName: `T ${id}`,
  },
  old: { hourlyMicros: 1_000, monthlyMicros: 1_000_000 },
  new: { hourlyMicros: 2_000, monthlyMicros: 2_000_000 },
});
const sync = (changes: PriceChange[]) => ({
  syncId: 'sync_1',
  provider: 'provider_b' as const,
  startedAt: new Date(at.getTime() - 1_000),
  completedAt: at,
  counts: { regions: 3, instances: 10, pricing: 30 },
  changes,
});
type Body = {
  type: string;
  data: { part?: number; parts?: number; changes: { id: number }[] | number };
};
const parse = (body: string) => JSON.parse(body) as Body;

describe('webhook event bodies', () => {
  it('cuts a sync with more than 1,000 changes into parts, in feed order', () => {
    const changes = Array.from({ length: 2_345 }, (_, i) => change(i + 1, 'icn'));
    const messages = completedSyncMessages(sync(changes), ['price.changed'], {});
    expect(MAX_CHANGES_PER_EVENT).toBe(1_000);
    const bodies = messages.map((m) => parse(m.body));
    expect(bodies.map((b) => [b.type, b.data.part, b.data.parts])).toEqual([
      ['price.changed', 1, 3],
      ['price.changed', 2, 3],
      ['price.changed', 3, 3],
    ]);
    const ids = bodies.flatMap((b) => (b.data.changes as { id: number }[]).map((c) => c.id));
    expect(ids).toEqual(changes.map((c) => c.id));
    expect(bodies.map((b) => (b.data.changes as unknown[]).length)).toEqual([1_000, 1_000, 345]);
  });

  it('applies the filter: provider for every event, region for price.changed items', () => {
    const changes = [change(1, 'icn'), change(2, 'nrt'), change(3, 'icn')];
    const icn = completedSyncMessages(sync(changes), ['sync.completed', 'price.changed'], {
      region: 'icn',
    }).map((m) => parse(m.body));
    expect(icn[0]!.data.changes).toBe(2);
    expect((icn[1]!.data.changes as { id: number }[]).map((c) => c.id)).toEqual([1, 3]);
    // A region with no change: sync.completed only, saying 0.
    const itm = completedSyncMessages(sync(changes), ['sync.completed', 'price.changed'], {
      region: 'itm',
    });
    expect(itm.map((m) => [m.type, parse(m.body).data.changes])).toEqual([['sync.completed', 0]]);
    expect(
      completedSyncMessages(sync(changes), ['sync.completed'], { provider: 'provider_a' }),
    ).toEqual([]);
    const failed = { ...sync([]), errorCode: 'X', errorMessage: 'y' };
    expect(failedSyncMessages(failed, ['sync.completed'], {})).toEqual([]);
    expect(failedSyncMessages(failed, ['sync.failed'], { provider: 'provider_a' })).toEqual([]);
    expect(failedSyncMessages(failed, ['sync.failed'], {}).map((m) => m.type)).toEqual([
      'sync.failed',
    ]);
  });
});

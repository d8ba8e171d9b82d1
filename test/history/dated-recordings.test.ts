// D64 over a real app on each backend, through the HTTP API: a first fill from the bundled AWS
// snapshot replays its dated recordings (the 2024-02-21 recording, then the change log since
// 2024-07-05, then the offer files of 2025-04-04) so the history and /changes carry the
// recordings' own dates; a later sync follows D38 and adds nothing for unchanged prices.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncIfEmpty } from '../../src/sync/sync-schedule.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const BUNDLED_C = pathToFileURL(
  fileURLToPath(new URL('../../data/snapshots/provider_c/', import.meta.url)),
).href;

interface Change {
  at: string;
  sync_id: string;
  kind: string;
  instance: { id: number; provider: string; region_code: string; instance_id: string };
  old: { hourly_price: number } | null;
  new: { hourly_price: number } | null;
}
interface Feed {
  changes: Change[];
  next_cursor: string | null;
  summary?: {
    total: number;
    kinds: Record<string, number>;
    syncs: { at: string; kind: string; provider: string; count: number }[];
  };
}
interface Period {
  valid_from: string;
  valid_to: string | null;
  hourly_price: number;
  available: boolean;
}
interface History {
  instance: { instance_id: string; pricing: { hourly_price: number; observed_at: string } };
  history: Period[];
}

for (const backend of await storeBackends()) {
  describeStoreBackend('dated recordings replayed by the first fill (D64)', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let client = 0;
    const get = async <T>(url: string): Promise<T> => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: auth,
        remoteAddress: `10.64.0.${++client % 250}`,
      });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
      return response.json<{ data: T }>().data;
    };
    const feed = (query: string) => get<Feed>(`/changes?since=2024-01-01&${query}`);
    const recordId = (region: string, type: string): number => {
      const row = t.services.catalog.current!.records.find(
        (r) => r.providerName === 'provider_c' && r.regionCode === region && r.instanceId === type,
      );
      expect(row, `${region} ${type}`).toBeDefined();
      return row!.id;
    };

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url, PROVIDER_C_URL: BUNDLED_C });
      // As `npm start` fills an empty catalogue (main.ts).
      expect(await syncIfEmpty(t.services.store, t.services.sync)).toBe(true);
      await t.services.catalog.refresh();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('lists the one recorded price change at its recording, 2025-03-27', async () => {
      const page = await feed('kind=price_increased,price_decreased&provider=provider_c');
      expect(page.changes).toHaveLength(1);
      expect(page.changes[0]).toMatchObject({
        at: '2025-03-27T20:45:25.000Z',
        kind: 'price_decreased',
        instance: { region_code: 'ap-northeast-2', instance_id: 'u7in-16tb.224xlarge' },
        old: { hourly_price: 245.902 },
        new: { hourly_price: 217.7164 },
      });
    });

    it('lists the recorded additions at their recordings, and counts them per recording', async () => {
      const december = await get<Feed>(
        '/changes?since=2024-12-10&until=2024-12-11&kind=added&provider=provider_c&limit=500',
      );
      const types = december.changes.filter((c) => c.at === '2024-12-10T22:13:48.000Z');
      expect(types).toEqual(december.changes);
      expect(types).toHaveLength(54);
      const summary = (await feed('kind=added&provider=provider_c&summary=true&limit=1')).summary!;
      expect(summary.kinds['added']).toBe(2479);
      expect(summary.syncs.map((s) => [s.at, s.count])).toEqual([
        ['2025-03-27T20:45:25.000Z', 62],
        ['2024-12-10T22:13:48.000Z', 54],
        ['2024-09-26T06:24:07.000Z', 10],
        ['2024-08-06T19:25:31.000Z', 1],
        ['2024-07-25T01:12:08.000Z', 5],
        // 69 listed; the six g2 prices have no recorded GPU count and are not in the snapshot.
        ['2024-07-05T23:18:22.000Z', 63],
        // 2,311 recorded; the 27 accelerator prices are not listed (D35).
        ['2024-02-21T08:20:21.000Z', 2284],
      ]);
      // Oldest first, each item's time is its recording's: never the time of the fill.
      const first = await feed('provider=provider_c&limit=500');
      expect(first.changes.every((c) => c.at === '2024-02-21T08:20:21.000Z')).toBe(true);
    });

    it('opens history periods at the recordings; observed_at is the newest recording', async () => {
      const id = recordId('ap-northeast-2', 'u7in-16tb.224xlarge');
      const record = await get<History>(`/instances/${id}/history`);
      expect(record.history).toEqual([
        {
          valid_from: '2025-03-27T20:45:25.000Z',
          valid_to: null,
          hourly_price: 217.7164,
          monthly_price: 158932.96,
          currency: 'USD',
          available: true,
          purchase_option: 'on_demand',
        },
        {
          valid_from: '2024-07-05T23:18:22.000Z',
          valid_to: '2025-03-27T20:45:25.000Z',
          hourly_price: 245.902,
          monthly_price: 179508.46,
          currency: 'USD',
          available: true,
          purchase_option: 'on_demand',
        },
      ]);
      const tokyo = await get<History>(
        `/instances/${recordId('ap-northeast-1', 'c7i.xlarge')}/history`,
      );
      expect(tokyo.instance.pricing).toMatchObject({
        hourly_price: 0.2247,
        observed_at: '2025-04-04T22:41:22.000Z',
      });
      expect(tokyo.history.map((p) => p.valid_from)).toEqual(['2024-02-21T08:20:21.000Z']);
    });

    it('answers as_of from the recordings: what was offered then', async () => {
      const count = async (at: string) =>
        (
          await get<{ pagination: { total: number } }>(
            `/instances?provider=provider_c&limit=1&as_of=${at}`,
          )
        ).pagination.total;
      expect(await count('2024-01-01T00:00:00Z')).toBe(0);
      expect(await count('2024-03-01T00:00:00Z')).toBe(2284);
      expect(await count('2024-12-11T00:00:00Z')).toBe(2284 + 63 + 5 + 1 + 10 + 54);
    });

    it('adds nothing on a later sync of unchanged prices (D38)', async () => {
      const before = await feed('provider=provider_c&summary=true&limit=1');
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_c'] },
      });
      expect(response.statusCode, response.body).toBe(200);
      const after = await feed('provider=provider_c&summary=true&limit=1');
      expect(after.summary).toEqual(before.summary);
      const id = recordId('ap-northeast-2', 'u7in-16tb.224xlarge');
      expect((await get<History>(`/instances/${id}/history`)).history).toHaveLength(2);
    }, 60_000);
  });
}

// Issue 34 (D61, D64, D65) on the bundled Google Cloud snapshot as a fresh PROVIDERS=all install
// fills it (data/snapshots/provider_d/): every listed record carries its recorded spot and
// committed-use prices as purchase options, and the first fill replays the year of weekly
// recordings before the snapshot, each option apart, so /changes shows the recorded spot changes
// at their own dates and a record's spot history is the year of periods. Figures from
// data/sources/gcp-asia-compute-2026-07-30.csv and gcp-asia-history-2025-07-31_2026-07-30.csv.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { syncIfEmpty } from '../../src/sync/sync-schedule.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const BUNDLED_D = pathToFileURL(
  fileURLToPath(new URL('../../data/snapshots/provider_d/', import.meta.url)),
).href;

interface Price {
  hourly_price: number;
  monthly_price: number;
  observed_at: string;
}
interface Row {
  id: number;
  instance_id: string;
  pricing: Price & { purchase_option: string; options: Record<string, Price> };
}
interface Change {
  at: string;
  kind: string;
  purchase_option: string;
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
  monthly_price: number;
  available: boolean;
  purchase_option: string;
}

const TOKYO_E2 = 'provider=provider_d&region=asia-northeast1&q=e2-standard-2';

for (const backend of await storeBackends()) {
  describeStoreBackend('Google Cloud purchase options and spot history (bundled)', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let client = 0;
    const get = async <T>(url: string): Promise<T> => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: auth,
        remoteAddress: `10.65.0.${++client % 250}`,
      });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 300)}`).toBe(200);
      return response.json<{ data: T }>().data;
    };
    const tokyoE2 = async (option = 'on_demand'): Promise<Row> => {
      const page = await get<{ instances: Row[] }>(
        `/instances?${TOKYO_E2}&purchase_option=${option}&limit=100`,
      );
      const exact = page.instances.filter((r) => r.instance_id === 'e2-standard-2');
      expect(exact).toHaveLength(1);
      return exact[0]!;
    };

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({
        DATABASE_URL: database.url,
        PROVIDERS: 'all',
        PROVIDER_D_URL: BUNDLED_D,
      });
      // As `npm start` fills an empty catalogue (main.ts).
      expect(await syncIfEmpty(t.services.store, t.services.sync)).toBe(true);
      await t.services.catalog.refresh();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('lists the recorded spot and committed-use prices of Tokyo e2-standard-2 (monthly = x 730)', async () => {
      const row = await tokyoE2();
      const observed = '2026-07-30T06:13:17.000Z';
      expect(row.pricing.options).toEqual({
        // 0.08596572 x 730 = 62.7549756: the exact text, not the sustained-use figure
        on_demand: { hourly_price: 0.086, monthly_price: 62.75, observed_at: observed },
        spot: { hourly_price: 0.0516, monthly_price: 37.66, observed_at: observed },
        reserved_1y: { hourly_price: 0.0542, monthly_price: 39.54, observed_at: observed },
        reserved_3y: { hourly_price: 0.0387, monthly_price: 28.24, observed_at: observed },
      });
      const spot = await tokyoE2('spot');
      expect(spot.pricing).toMatchObject({
        purchase_option: 'spot',
        hourly_price: 0.0516,
        monthly_price: 37.66,
      });
      expect((await tokyoE2('reserved_3y')).pricing.monthly_price).toBe(28.24);
    });

    it('lists no committed use where Google sells none (f1-micro), spot only', async () => {
      const page = await get<{ instances: Row[] }>(
        '/instances?provider=provider_d&region=asia-northeast1&q=f1-micro',
      );
      expect(Object.keys(page.instances[0]?.pricing.options ?? {})).toEqual(['on_demand', 'spot']);
      const reserved = await get<{ instances: Row[] }>(
        '/instances?provider=provider_d&region=asia-northeast1&q=f1-micro&purchase_option=reserved_1y',
      );
      expect(reserved.instances).toEqual([]);
    });

    it('shows the recorded spot changes at their own dates in /changes', async () => {
      const feed = await get<Feed>(
        `/changes?provider=provider_d&purchase_option=spot&since=2025-07-01&kind=price_increased,price_decreased&summary=true&limit=500`,
      );
      const summary = feed.summary!;
      // The recorded spot changes of the listed records (16,077), less 7 below a micro-dollar
      // (a3 prices moving in their 14th decimal), which change nothing (metadata.json's note).
      expect(summary.total).toBe(16_070);
      expect(feed.changes.every((c) => c.purchase_option === 'spot')).toBe(true);
      const times = new Set(summary.syncs.map((s) => s.at));
      expect(times.has('2026-01-22T04:38:11.000Z')).toBe(true);
      expect(times.has('2026-07-30T06:13:17.000Z')).toBe(false); // the fill adds nothing
      expect([...times].every((at) => at >= '2025-08-30' && at < '2026-07-30')).toBe(true);
      const tokyo = await get<Feed>(
        `/changes?provider=provider_d&purchase_option=spot&since=2026-07-22&until=2026-07-23&region=asia-northeast1&limit=500`,
      );
      const e2 = tokyo.changes.find((c) => c.instance.instance_id === 'e2-standard-2');
      expect(e2).toMatchObject({
        at: '2026-07-22T14:16:48.000Z',
        kind: 'price_increased',
        old: { hourly_price: 0.0497 },
        new: { hourly_price: 0.0516 },
      });
      // On-demand stays the default option: its own changes, not spot's.
      const onDemand = await get<Feed>(
        '/changes?provider=provider_d&since=2025-07-01&kind=price_increased,price_decreased&summary=true&limit=1',
      );
      expect(onDemand.summary!.total).toBe(404);
    });

    it('holds the year of spot periods of a record, and on-demand apart', async () => {
      const id = (await tokyoE2()).id;
      const spot = await get<{ history: Period[] }>(
        `/instances/${id}/history?purchase_option=spot`,
      );
      const recorded: [string, number][] = [
        ['2025-07-31T04:30:47.000Z', 0.0344],
        ['2026-01-22T04:38:11.000Z', 0.0361],
        ['2026-02-05T05:09:11.000Z', 0.0397],
        ['2026-02-26T05:12:58.000Z', 0.0377],
        ['2026-03-19T05:14:18.000Z', 0.0358],
        ['2026-04-02T05:24:48.000Z', 0.0376],
        ['2026-04-16T05:52:17.000Z', 0.0395],
        ['2026-04-29T18:35:04.000Z', 0.0415],
        ['2026-05-14T06:38:53.000Z', 0.043],
        ['2026-06-25T07:02:19.000Z', 0.0473],
        ['2026-07-09T07:24:55.000Z', 0.0497],
        ['2026-07-22T14:16:48.000Z', 0.0516],
      ];
      const periods = [...spot.history].sort((a, b) => a.valid_from.localeCompare(b.valid_from));
      expect(periods.map((p) => [p.valid_from, p.hourly_price])).toEqual(recorded);
      expect(periods.every((p) => p.purchase_option === 'spot' && p.available)).toBe(true);
      expect(periods.map((p) => p.valid_to)).toEqual([
        ...recorded.slice(1).map(([at]) => at),
        null,
      ]);
      const onDemand = await get<{ history: Period[] }>(`/instances/${id}/history`);
      expect(onDemand.history.map((p) => [p.valid_from, p.purchase_option])).toEqual([
        ['2025-07-31T04:30:47.000Z', 'on_demand'],
      ]);
    });

    it('adds nothing on a later sync of unchanged prices (D38)', async () => {
      const summary = async () =>
        (
          await get<Feed>(
            '/changes?provider=provider_d&purchase_option=all&since=2025-07-01&summary=true&limit=1',
          )
        ).summary;
      const before = await summary();
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_d'] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(await summary()).toEqual(before);
    }, 60_000);
  });
}

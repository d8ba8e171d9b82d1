// GET /instances/{id}/history, GET /changes and GET /instances?as_of= over a real app and
// SQLite file, after three syncs applied at known instants.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { catalog, offer, run } from '../storage/catalog-fixtures.js';

const T1 = new Date('2026-01-02T00:00:00.000Z');
const T2 = new Date('2026-01-03T00:00:00.000Z');
const T3 = new Date('2026-01-04T00:00:00.000Z');

interface ChangesBody {
  data: {
    changes: { id: number; kind: string; instance: { instance_id: string } }[];
    next_cursor: string | null;
  };
}

describe('history endpoints', () => {
  let t: TestApp;
  let client = 0;
  const get = (url: string) =>
    t.app.inject({ method: 'GET', url, headers: auth, remoteAddress: `10.7.0.${++client}` });

  beforeAll(async () => {
    t = await createTestApp();
    const store = t.services.store;
    await store.applyProviderCatalog(
      catalog('provider_b', [
        offer({
          instanceId: 'vc2-1c',
          regionCode: 'icn',
          hourlyMicros: 6_849,
          monthlyMicros: 5_000_000,
        }),
        offer({ instanceId: 'vc2-2c', regionCode: 'icn', monthlyMicros: 10_000_000 }),
      ]),
      run('provider_b', T1),
    );
    await store.applyProviderCatalog(
      catalog('provider_b', [
        offer({
          instanceId: 'vc2-1c',
          regionCode: 'icn',
          hourlyMicros: 8_219,
          monthlyMicros: 6_000_000,
        }),
      ]),
      run('provider_b', T2),
    );
    await store.applyProviderCatalog(
      catalog('provider_b', [
        offer({
          instanceId: 'vc2-1c',
          regionCode: 'icn',
          hourlyMicros: 8_219,
          monthlyMicros: 6_000_000,
        }),
        offer({ instanceId: 'vc2-2c', regionCode: 'icn', monthlyMicros: 9_000_000 }),
      ]),
      run('provider_b', T3),
    );
  });
  afterAll(() => t.close());

  it('answers a record history newest first, with the record as /instances shows it', async () => {
    const list = await get('/instances?sort_by=instance_name');
    const record = list.json<{ data: { instances: { id: number; instance_id: string }[] } }>().data
      .instances[0]!;
    expect(record.instance_id).toBe('vc2-1c');
    const response = await get(`/instances/${record.id}/history`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        instance: record,
        history: [
          {
            valid_from: T2.toISOString(),
            valid_to: null,
            hourly_price: 0.0082,
            monthly_price: 6,
            currency: 'USD',
            available: true,
            purchase_option: 'on_demand',
          },
          {
            valid_from: T1.toISOString(),
            valid_to: T2.toISOString(),
            hourly_price: 0.0068,
            monthly_price: 5,
            currency: 'USD',
            available: true,
            purchase_option: 'on_demand',
          },
        ],
      },
    });
  });

  it('answers a vanished-and-returned record with its unavailable period', async () => {
    const feed = (await get('/changes?since=2026-01-01&kind=removed')).json<ChangesBody>();
    const id = (feed.data.changes[0] as unknown as { instance: { id: number } }).instance.id;
    const body = (await get(`/instances/${id}/history`)).json<{
      data: { history: { available: boolean; monthly_price: number; valid_from: string }[] };
    }>();
    expect(body.data.history.map((p) => [p.valid_from, p.available, p.monthly_price])).toEqual([
      [T3.toISOString(), true, 9],
      [T2.toISOString(), false, 10],
      [T1.toISOString(), true, 10],
    ]);
  });

  it('lists the feed oldest first with exact items', async () => {
    const response = await get('/changes?since=2026-01-02T12:00:00Z');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{ data: { changes: Record<string, unknown>[] } }>();
    expect(
      body.data.changes.map(({ id: _id, instance, sync_id, ...rest }) => ({
        ...rest,
        sync_id: /^sync_\d+_/.test(String(sync_id)),
        instance: (instance as { instance_id: string }).instance_id,
      })),
    ).toEqual([
      {
        at: T2.toISOString(),
        sync_id: true,
        kind: 'price_increased',
        purchase_option: 'on_demand',
        instance: 'vc2-1c',
        old: { hourly_price: 0.0068, monthly_price: 5 },
        new: { hourly_price: 0.0082, monthly_price: 6 },
        change_pct: 20,
      },
      {
        at: T2.toISOString(),
        sync_id: true,
        kind: 'removed',
        purchase_option: 'on_demand',
        instance: 'vc2-2c',
        old: { hourly_price: 0.0069, monthly_price: 10 },
        new: null,
        change_pct: null,
      },
      {
        at: T3.toISOString(),
        sync_id: true,
        kind: 'returned',
        purchase_option: 'on_demand',
        instance: 'vc2-2c',
        old: null,
        new: { hourly_price: 0.0069, monthly_price: 9 },
        change_pct: null,
      },
    ]);
  });

  it('pages the feed with next_cursor until it is null', async () => {
    const kinds: string[] = [];
    let url = '/changes?since=2026-01-01&limit=2';
    for (let page = 0; page < 5; page++) {
      const body = (await get(url)).json<ChangesBody>();
      kinds.push(...body.data.changes.map((c) => `${c.kind}:${c.instance.instance_id}`));
      if (body.data.next_cursor === null) break;
      url = `/changes?since=2026-01-01&limit=2&cursor=${body.data.next_cursor}`;
    }
    expect(kinds).toEqual([
      'added:vc2-1c',
      'added:vc2-2c',
      'price_increased:vc2-1c',
      'removed:vc2-2c',
      'returned:vc2-2c',
    ]);
  });

  // Bundled ECB rates of 2026-10-06: 1 EUR = 1.1269 USD = 178.15 JPY = 1508.67 KRW.
  const inYen = (usd: string, digits: number) =>
    new Decimal(usd).mul('178.15').div('1.1269').toDecimalPlaces(digits, Decimal.ROUND_HALF_UP);

  it('answers a record history in another currency, periods and record alike (D43)', async () => {
    const list = await get('/instances?sort_by=instance_name&currency=JPY');
    const record = list.json<{ data: { instances: { id: number }[] } }>().data.instances[0]!;
    const response = await get(`/instances/${record.id}/history?currency=JPY`);
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      data: {
        instance: unknown;
        history: { hourly_price: number; monthly_price: number; currency: string }[];
        metadata: { exchange_rate: Record<string, unknown> };
      };
    }>();
    expect(body.data.instance).toEqual(record);
    expect(body.data.history.map((p) => [p.hourly_price, p.monthly_price, p.currency])).toEqual([
      [inYen('0.008219', 4).toNumber(), inYen('6', 0).toNumber(), 'JPY'],
      [inYen('0.006849', 4).toNumber(), inYen('5', 0).toNumber(), 'JPY'],
    ]);
    expect(body.data.metadata.exchange_rate).toMatchObject({
      base: 'USD',
      currency: 'JPY',
      as_of: '2026-10-06',
    });
  });

  it('keeps the USD history and feed without metadata, as before D43', async () => {
    const feed = (await get('/changes?since=2026-01-01&currency=USD')).json<{ data: object }>();
    expect(Object.keys(feed.data)).toEqual(['changes', 'next_cursor']);
    const history = (await get('/instances/1/history')).json<{ data: object }>();
    expect(Object.keys(history.data)).toEqual(['instance', 'history']);
  });

  it('converts the feed, each price saying its currency, change_pct unchanged (D43)', async () => {
    const response = await get('/changes?since=2026-01-02T12:00:00Z&currency=KRW');
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      data: {
        changes: { kind: string; old: unknown; new: unknown; change_pct: number | null }[];
        metadata: { exchange_rate: { currency: string; rate: number } };
      };
    }>();
    const krw = (usd: string, digits: number) =>
      new Decimal(usd)
        .mul('1508.67')
        .div('1.1269')
        .toDecimalPlaces(digits, Decimal.ROUND_HALF_UP)
        .toNumber();
    expect(body.data.changes[0]).toMatchObject({
      kind: 'price_increased',
      old: { hourly_price: krw('0.006849', 4), monthly_price: krw('5', 0), currency: 'KRW' },
      new: { hourly_price: krw('0.008219', 4), monthly_price: krw('6', 0), currency: 'KRW' },
      change_pct: 20,
    });
    expect(body.data.changes[1]).toMatchObject({ kind: 'removed', new: null });
    expect(body.data.metadata.exchange_rate.currency).toBe('KRW');
  });

  it('answers /instances?as_of= with the catalogue of that instant, never cached', async () => {
    const response = await get('/instances?as_of=2026-01-03T12:00:00%2B09:00&provider=provider_b');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json<{
      data: {
        instances: { instance_id: string; pricing: { monthly_price: number } }[];
        pagination: { total: number };
        metadata: Record<string, unknown>;
      };
    }>();
    expect(body.data.instances.map((r) => [r.instance_id, r.pricing.monthly_price])).toEqual([
      ['vc2-1c', 6],
    ]);
    expect(body.data.pagination.total).toBe(1);
    expect(body.data.metadata).toMatchObject({
      cached: false,
      as_of: '2026-01-03T03:00:00.000Z',
      last_sync: T2.toISOString(),
      filters_applied: { provider: 'provider_b' },
    });
    const before = (await get('/instances?as_of=2025-12-31')).json<{
      data: { instances: unknown[]; metadata: { last_sync: unknown } };
    }>();
    expect(before.data.instances).toEqual([]);
    expect(before.data.metadata.last_sync).toBeNull();
  });
});

// `currency` (D43) and unit prices (D45) on GET /instances and POST /recommend, against a real
// app: every converted figure equals the exact conversion of the stored USD price.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moneyView } from '../../src/catalog/money-view.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Pricing {
  hourly_price: number;
  monthly_price: number;
  currency: string;
  monthly_price_per_vcpu: number | null;
  monthly_price_per_gb: number | null;
}
interface ListBody {
  data: {
    instances: { id: number; vcpu: number; memory_mb: number; pricing: Pricing }[];
    pagination: { total: number };
    metadata: { exchange_rate?: Record<string, unknown>; filters_applied: object };
  };
  error?: { code: string; details: { allowed?: string[]; parameter?: string } };
}

describe('prices in other currencies and per unit', () => {
  let t: TestApp;
  const rows = new Map<number, InstanceRow>();
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(400, 11));
    const page = await t.services.store.queryInstances({
      filter: {},
      sort: 'monthly_price',
      order: 'asc',
      limit: 1000,
      offset: 0,
    });
    for (const row of page.rows) rows.set(row.id, row);
  });
  afterAll(() => t.close());

  const list = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances${query}`,
      headers: auth,
    });
    return { status: response.statusCode, body: response.json<ListBody>() };
  };

  it('converts every price at the ECB rate, JPY monthly in whole yen, with the rate in metadata', async () => {
    const { status, body } = await list('?currency=JPY&limit=100');
    expect(status).toBe(200);
    expect(body.data.metadata.exchange_rate).toEqual({
      base: 'USD',
      currency: 'JPY',
      rate: 158.088562,
      as_of: '2026-10-06',
      source: 'European Central Bank euro foreign exchange reference rates (bundled recording)',
    });
    for (const record of body.data.instances) {
      const row = rows.get(record.id)!;
      const exact = new Decimal(row.monthlyMicros).div(1e6).mul('178.15').div('1.1269');
      expect(record.pricing.currency).toBe('JPY');
      expect(record.pricing.monthly_price).toBe(
        exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber(),
      );
      expect(record.pricing.monthly_price_per_vcpu).toBe(
        exact.div(row.vcpu).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber(),
      );
      const hourly = new Decimal(row.hourlyMicros).div(1e6).mul('178.15').div('1.1269');
      expect(record.pricing.hourly_price).toBe(
        hourly.toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber(),
      );
    }
  });

  it('keeps USD the default, without exchange_rate, and with unit prices', async () => {
    const { body } = await list('?limit=20');
    expect(body.data.metadata.exchange_rate).toBeUndefined();
    for (const record of body.data.instances) {
      const row = rows.get(record.id)!;
      const usd = moneyView(undefined, 'USD');
      expect(record.pricing.currency).toBe('USD');
      expect(record.pricing.monthly_price_per_gb).toBe(
        usd.monthlyPer(row.monthlyMicros, row.memoryMb, 1024),
      );
      expect(record.pricing.monthly_price_per_gb).toBe(
        new Decimal(row.monthlyMicros)
          .div(1e6)
          .div(new Decimal(row.memoryMb).div(1024))
          .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
          .toNumber(),
      );
    }
  });

  it('compares max_price in the requested currency with the displayed converted price', async () => {
    const view = moneyView(t.services.rates.current(), 'KRW');
    const all = [...rows.values()]
      .map((row) => view.monthly(row.monthlyMicros))
      .sort((a, b) => a - b);
    const bound = all[Math.floor(all.length / 3)]!; // a price that is displayed exactly
    const { body } = await list(`?currency=KRW&max_price=${bound}&limit=100`);
    expect(body.data.pagination.total).toBe(all.filter((price) => price <= bound).length);
    expect(body.data.instances.every((i) => i.pricing.monthly_price <= bound)).toBe(true);
    expect(body.data.metadata.filters_applied).toEqual({ max_price: bound });
  });

  it('sorts by price per vCPU and per GiB, ties by id', async () => {
    for (const [sort, key] of [
      ['price_per_vcpu', (r: InstanceRow) => r.monthlyMicros / r.vcpu],
      ['price_per_gb', (r: InstanceRow) => r.monthlyMicros / r.memoryMb],
    ] as const) {
      const { body } = await list(`?sort_by=${sort}&order=desc&limit=100`);
      const expected = [...rows.values()]
        .sort((a, b) => key(b) - key(a) || a.id - b.id)
        .slice(0, 100)
        .map((r) => r.id);
      expect(body.data.instances.map((i) => i.id)).toEqual(expected);
    }
  });

  it.each([['XYZ'], ['jpy'], ['usd'], ['']])(
    'refuses currency=%s with 400 INVALID_PARAMETER listing the allowed codes',
    async (code) => {
      const { status, body } = await list(`?currency=${code}`);
      expect(status).toBe(400);
      expect(body.error?.code).toBe('INVALID_PARAMETER');
      expect(body.error?.details.parameter).toBe('currency');
      expect(body.error?.details.allowed).toEqual(
        expect.arrayContaining(['USD', 'EUR', 'JPY', 'KRW', 'SGD', 'HKD']),
      );
    },
  );

  it('recommends in the requested currency, budget included, with the rate in meta', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: {
        stack: ['nodejs', 'postgresql'],
        scale: 'medium',
        currency: 'JPY',
        budget_max: 1000,
      },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{
      data: {
        recommendations: {
          price: { monthly: number; currency: string };
          cons: string[];
          pros: string[];
        }[];
      };
      meta: { exchange_rate?: { currency: string } };
    }>();
    expect(body.meta.exchange_rate?.currency).toBe('JPY');
    expect(body.data.recommendations.length).toBeGreaterThan(0);
    for (const r of body.data.recommendations) {
      expect(r.price.currency).toBe('JPY');
      expect(Number.isInteger(r.price.monthly)).toBe(true);
      const sentence = [...r.pros, ...r.cons].find((s) => s.includes('budget'));
      expect(sentence).toMatch(/JPY/);
      expect(sentence).toContain('1,000 JPY budget');
      if (r.price.monthly > 1000)
        expect(r.cons.some((c) => c.includes('over the 1,000 JPY budget'))).toBe(true);
      else expect(r.pros.some((p) => p.includes('within the 1,000 JPY budget'))).toBe(true);
    }
  });

  // Regression: the CSV `format` query parameter's schema was pasted into the note's response
  // schema, and its default made every serialised note carry `"format":"json"`.
  it('gives the same exchange_rate note, and nothing else, on every converted endpoint', async () => {
    const note = {
      base: 'USD',
      currency: 'JPY',
      rate: 158.088562,
      as_of: '2026-10-06',
      source: 'European Central Bank euro foreign exchange reference rates (bundled recording)',
    };
    const recommend = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: { stack: ['nginx'], scale: 'small', currency: 'JPY' },
    });
    expect(recommend.json<{ meta: { exchange_rate: unknown } }>().meta.exchange_rate).toEqual(note);
    const types = await t.app.inject({
      method: 'GET',
      url: '/instance-types?currency=JPY&limit=1',
      headers: auth,
    });
    expect(types.statusCode).toBe(200);
    expect(
      types.json<{ data: { metadata: { exchange_rate: unknown } } }>().data.metadata.exchange_rate,
    ).toEqual(note);
  });

  it('refuses an unknown currency in /recommend with the allowed codes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: { stack: ['nodejs'], scale: 'small', currency: 'BTC' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<ListBody>();
    expect(body.error?.code).toBe('INVALID_PARAMETER');
    expect(body.error?.details.allowed).toContain('KRW');
  });
});

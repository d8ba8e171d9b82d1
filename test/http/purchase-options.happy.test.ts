// Issue 33 (D61) on the bundled catalogue as a fresh install serves it (data/snapshots/): every
// record lists its purchase options, and `purchase_option` prices /instances (filters, sorts,
// max_price, per-vCPU/GiB, currency, CSV), /instance-types and /recommend by the option chosen.
// The figures are the recorded AWS No Upfront RI prices (aws-ap-linux-2025-04-04.csv).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Price {
  hourly_price: number;
  monthly_price: number;
  observed_at: string;
}
interface Row {
  id: number;
  instance_id: string;
  provider: { name: string };
  region: { region_code: string };
  vcpu: number;
  pricing: Price & {
    currency: string;
    purchase_option: string;
    monthly_price_per_vcpu: number | null;
    options: Record<string, Price>;
    spot_advice: { interruption_band: string; savings_pct: number; source: string } | null;
  };
}
interface Page {
  data: {
    instances: Row[];
    pagination: { total: number };
    metadata: { filters_applied: Record<string, unknown> };
  };
}

const bundled = (provider: string) =>
  pathToFileURL(fileURLToPath(new URL(`../../data/snapshots/${provider}/`, import.meta.url))).href;

const C7I_TOKYO = 'provider=provider_c&region=ap-northeast-1&q=c7i.xlarge';

describe('purchase options on the bundled catalogue (D61)', () => {
  let t: TestApp;
  const get = async <T>(url: string): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const one = async (query: string): Promise<Row> => {
    const page = await get<Page>(`/instances?${query}&limit=100`);
    const exact = page.data.instances.filter((r) => r.instance_id === 'c7i.xlarge');
    expect(exact.length, query).toBe(1);
    return exact[0]!;
  };

  beforeAll(async () => {
    t = await createTestApp({
      PROVIDER_A_URL: bundled('provider_a'),
      PROVIDER_B_URL: bundled('provider_b'),
      PROVIDER_C_URL: bundled('provider_c'),
    });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a', 'provider_b', 'provider_c'] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists every option of a record, on-demand included, with the recorded RI prices', async () => {
    const c7i = await one(C7I_TOKYO);
    expect(c7i.pricing.purchase_option).toBe('on_demand');
    expect(c7i.pricing.hourly_price).toBe(0.2247);
    const options = c7i.pricing.options;
    expect(Object.keys(options)).toEqual([
      'on_demand',
      'reserved_1y',
      'reserved_3y',
      'convertible_1y',
      'convertible_3y',
    ]);
    expect(options['on_demand']).toMatchObject({ hourly_price: 0.2247, monthly_price: 164.03 });
    expect(options['reserved_1y']).toMatchObject({ hourly_price: 0.1482, monthly_price: 108.17 });
    expect(options['reserved_3y']?.hourly_price).toBe(0.1024);
    expect(options['convertible_1y']?.hourly_price).toBe(0.1706);
    expect(options['convertible_3y']?.hourly_price).toBe(0.117);
    // AWS's spot advice, as published: a band and a savings figure, never a price.
    const bands = ['<5%', '5-10%', '10-15%', '15-20%', '>20%'];
    expect(bands).toContain(c7i.pricing.spot_advice?.interruption_band);
    expect(c7i.pricing.spot_advice?.source).toMatch(/Spot Instance Advisor/);
    expect(options['spot']).toBeUndefined();
  });

  it('prices a record by the option asked for, per-vCPU price and echo included', async () => {
    const page = await get<Page>(`/instances?${C7I_TOKYO}&purchase_option=reserved_1y`);
    const c7i = page.data.instances.find((r) => r.instance_id === 'c7i.xlarge')!;
    expect(c7i.pricing).toMatchObject({
      purchase_option: 'reserved_1y',
      hourly_price: 0.1482,
      monthly_price: 108.17,
      monthly_price_per_vcpu: 27.04,
    });
    expect(page.data.metadata.filters_applied['purchase_option']).toBe('reserved_1y');
    const plain = await get<Page>(`/instances?${C7I_TOKYO}`);
    expect(plain.data.metadata.filters_applied).not.toHaveProperty('purchase_option');
  });

  it('lists only records sold under the option', async () => {
    const linode = await get<Page>('/instances?provider=provider_a&purchase_option=reserved_1y');
    expect(linode.data.pagination.total).toBe(0);
    const reserved = await get<Page>('/instances?purchase_option=reserved_3y&limit=100');
    expect(reserved.data.pagination.total).toBeGreaterThan(2_000);
    expect(new Set(reserved.data.instances.map((r) => r.provider.name))).toEqual(
      new Set(['provider_c']),
    );
  });

  it("filters by the option's price with max_price and sorts by it", async () => {
    // On-demand 164.03 a month: above 110; reserved_1y 108.17: below it.
    const dear = await get<Page>(`/instances?${C7I_TOKYO}&max_price=110`);
    expect(dear.data.instances.map((r) => r.instance_id)).not.toContain('c7i.xlarge');
    const cheap = await get<Page>(
      `/instances?${C7I_TOKYO}&max_price=110&purchase_option=reserved_1y`,
    );
    expect(cheap.data.instances.map((r) => r.instance_id)).toContain('c7i.xlarge');

    const sorted = await get<Page>(
      '/instances?purchase_option=convertible_3y&region=ap-northeast-1&sort_by=price&order=desc&limit=100',
    );
    const monthly = sorted.data.instances.map((r) => r.pricing.monthly_price);
    expect(monthly).toEqual([...monthly].sort((a, b) => b - a));
    for (const row of sorted.data.instances) {
      expect(row.pricing.monthly_price).toBe(row.pricing.options['convertible_3y']!.monthly_price);
    }
  });

  it('converts the option price into another currency like any price', async () => {
    const usd = await one(`${C7I_TOKYO}&purchase_option=reserved_1y`);
    const jpy = await one(`${C7I_TOKYO}&purchase_option=reserved_1y&currency=JPY`);
    expect(jpy.pricing.currency).toBe('JPY');
    expect(jpy.pricing.options['reserved_1y']!.monthly_price).toBe(jpy.pricing.monthly_price);
    // Yen are whole; the conversion is the same rate for every option.
    const rate =
      jpy.pricing.options['on_demand']!.hourly_price /
      usd.pricing.options['on_demand']!.hourly_price;
    expect(jpy.pricing.hourly_price).toBeCloseTo(0.1482 * rate, 2);
  });

  it('exports the option in CSV, with its own column', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances?${C7I_TOKYO}&purchase_option=reserved_3y&format=csv`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    const [header, ...lines] = response.body.trim().split('\r\n');
    const columns = header!.split(',');
    expect(columns.at(-1)).toBe('purchase_option');
    const line = lines.map((l) => l.split(',')).find((cells) => cells.includes('c7i.xlarge'))!;
    expect(line[columns.indexOf('hourly_price')]).toBe('0.1024');
    expect(line.at(-1)).toBe('reserved_3y');
  });

  it('pivots /instance-types by the option', async () => {
    const body = await get<{
      data: {
        instance_types: {
          instance_id: string;
          prices: Record<string, { hourly_price: number; monthly_price: number } | null>;
        }[];
      };
    }>('/instance-types?q=c7i.xlarge&provider=provider_c&purchase_option=reserved_1y');
    const c7i = body.data.instance_types.find((row) => row.instance_id === 'c7i.xlarge')!;
    expect(c7i.prices['ap-northeast-1']).toMatchObject({
      hourly_price: 0.1482,
      monthly_price: 108.17,
    });
  });

  it('recommends by the option: budget, prices and cons', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload: {
        stack: ['nginx', 'redis'],
        scale: 'medium',
        purchase_option: 'reserved_3y',
        limit: 5,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { recommendations } = response.json<{
      data: {
        recommendations: {
          provider: string;
          price: { monthly: number; purchase_option: string };
          cons: string[];
        }[];
      };
    }>().data;
    expect(recommendations.length).toBeGreaterThan(0);
    for (const r of recommendations) {
      expect(r.price.purchase_option).toBe('reserved_3y');
      expect(r.cons).toContain(
        'Requires a 3-year commitment, billed every hour of the term whether used or not',
      );
    }
  });

  it('keeps history and the change feed per option: on-demand by default, `all` for every one', async () => {
    interface Feed {
      data: { changes: { kind: string; purchase_option: string; instance: { id: number } }[] };
    }
    const c7i = await one(C7I_TOKYO);
    const reserved = await get<Feed>(
      `/changes?since=2000-01-01&provider=provider_c&region=ap-northeast-1&purchase_option=reserved_1y&limit=500`,
    );
    expect(reserved.data.changes.length).toBeGreaterThan(0);
    expect(new Set(reserved.data.changes.map((c) => c.purchase_option))).toEqual(
      new Set(['reserved_1y']),
    );
    expect(reserved.data.changes.find((c) => c.instance.id === c7i.id)?.kind).toBe('added');
    const plain = await get<Feed>('/changes?since=2000-01-01&limit=500&order=newest');
    expect(new Set(plain.data.changes.map((c) => c.purchase_option))).toEqual(
      new Set(['on_demand']),
    );
    // The recorded on-demand history is the oldest; the fill's option prices the newest.
    const options = async (order: string) =>
      new Set(
        (
          await get<Feed>(
            `/changes?since=2000-01-01&provider=provider_c&region=ap-northeast-1&purchase_option=all&limit=500&order=${order}`,
          )
        ).data.changes.map((c) => c.purchase_option),
      );
    expect(await options('oldest')).toContain('on_demand');
    expect([...(await options('newest'))].sort()).toEqual([
      'convertible_1y',
      'convertible_3y',
      'reserved_1y',
      'reserved_3y',
    ]);

    const history = await get<{
      data: {
        instance: { pricing: { purchase_option: string; hourly_price: number } };
        history: { hourly_price: number; purchase_option: string }[];
      };
    }>(`/instances/${c7i.id}/history?purchase_option=convertible_1y`);
    expect(history.data.instance.pricing).toMatchObject({
      purchase_option: 'convertible_1y',
      hourly_price: 0.1706,
    });
    expect(history.data.history).toEqual([
      expect.objectContaining({ hourly_price: 0.1706, purchase_option: 'convertible_1y' }),
    ]);
  });
});

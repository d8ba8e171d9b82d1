// Issue 32 on the bundled catalogue as a fresh install serves it (data/snapshots/, not the test
// copy): the 2025 AWS figures, machine facts (D62), CoreMark (D63), the arch and cpu_allocation
// filters, the CoreMark sorts, and /recommend's rank_by and summary (D67).
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Row {
  id: number;
  instance_id: string;
  region: { region_code: string };
  pricing: { hourly_price: number; monthly_price: number };
  cpu: {
    architecture: string | null;
    manufacturer: string | null;
    model: string | null;
    allocation: string | null;
  };
  benchmark: { coremark: number; coremark_per_usd_month: number } | null;
}
interface Page {
  data: { instances: Row[]; pagination: { total: number } };
}
interface Recommendation {
  rank: number;
  instance: string;
  provider: string;
  region: string;
  instance_id: string;
  price: { monthly: number };
  cons: string[];
}
interface RecommendAnswer {
  data: {
    recommendations: Recommendation[];
    summary: {
      candidates: number;
      within_budget: number;
      cheapest_meeting_requirements: {
        provider: string;
        instance: string;
        region: string;
        monthly: number;
      } | null;
    };
  };
}

const bundled = (provider: string) =>
  pathToFileURL(fileURLToPath(new URL(`../../data/snapshots/${provider}/`, import.meta.url))).href;

describe('machine facts and measured performance on the bundled catalogue', () => {
  let t: TestApp;
  const get = async <T>(url: string): Promise<T> => {
    const response = await t.app.inject({ method: 'GET', url, headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };
  const recommend = async (payload: Record<string, unknown>) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<RecommendAnswer>().data;
  };
  const one = async (query: string): Promise<Row> => {
    const page = await get<Page>(`/instances?${query}&limit=100`);
    expect(page.data.instances.length, query).toBe(1);
    return page.data.instances[0]!;
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
    expect(answer.json<{ data: { success: boolean } }>().data.success, answer.body).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('serves the recorded 2025 AWS figures with their facts and CoreMark', async () => {
    // aws-ap-linux-2025-04-04.csv, aws-specs-sc-2026-01.csv, aws-coremark-2026.csv.
    const c7i = await one('provider=provider_c&region=ap-northeast-1&q=c7i.xlarge');
    expect(c7i.instance_id).toBe('c7i.xlarge');
    expect(c7i.pricing.hourly_price).toBe(0.2247);
    expect(c7i.cpu.architecture).toBe('x86_64');
    expect(c7i.cpu.allocation).toBe('dedicated');
    expect(c7i.benchmark?.coremark).toBe(97652);
    const nano = await one('provider=provider_c&region=ap-northeast-1&q=t4g.nano');
    expect(nano.cpu).toMatchObject({ architecture: 'arm64', allocation: 'burstable' });
    const c8g = await one('provider=provider_c&region=ap-northeast-1&q=c8g.2xlarge');
    expect(c8g.pricing.hourly_price).toBe(0.4002);
    expect(c8g.cpu.architecture).toBe('arm64');
  });

  it('filters by architecture and allocation, lists included', async () => {
    const arm = await get<Page>('/instances?arch=arm64&limit=100');
    expect(arm.data.pagination.total).toBeGreaterThan(100);
    expect(new Set(arm.data.instances.map((r) => r.cpu.architecture))).toEqual(new Set(['arm64']));
    const burst = await get<Page>(
      '/instances?cpu_allocation=burstable&provider=provider_c&limit=100',
    );
    expect(burst.data.pagination.total).toBeGreaterThan(0);
    expect(burst.data.instances.every((r) => r.cpu.allocation === 'burstable')).toBe(true);
    // A list is a union; both values together are every record with a recorded architecture.
    const both = await get<Page>('/instances?arch=arm64,x86_64&limit=1');
    const x86 = await get<Page>('/instances?arch=x86_64&limit=1');
    expect(both.data.pagination.total).toBe(arm.data.pagination.total + x86.data.pagination.total);
    const armBurst = await get<Page>('/instances?arch=arm64&cpu_allocation=burstable&limit=100');
    expect(armBurst.data.instances.map((r) => r.instance_id)).toContain('t4g.nano');
    expect(
      armBurst.data.instances.every(
        (r) => r.cpu.architecture === 'arm64' && r.cpu.allocation === 'burstable',
      ),
    ).toBe(true);
  });

  it('sorts by CoreMark and CoreMark per price, records without a score last', async () => {
    const page = await get<Page>(
      '/instances?provider=provider_c&sort_by=coremark&order=desc&limit=100',
    );
    const scores = page.data.instances.map((r) => r.benchmark?.coremark ?? -1);
    expect(scores[0]).toBeGreaterThan(0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const perPrice = await get<Page>(
      '/instances?provider=provider_c&sort_by=coremark_per_price&order=desc&limit=100',
    );
    const ratios = perPrice.data.instances.map(
      (r) => r.benchmark!.coremark / r.pricing.monthly_price,
    );
    for (let i = 1; i < ratios.length; i++)
      expect(ratios[i]!).toBeLessThanOrEqual(ratios[i - 1]! * (1 + 1e-9));
    // Ascending too: the unscored records still come after every scored one.
    const total = perPrice.data.pagination.total;
    const last = await get<Page>(
      `/instances?provider=provider_c&sort_by=coremark&order=asc&limit=1&offset=${total - 1}`,
    );
    const unscored = await get<Page>('/instances?provider=provider_a&sort_by=coremark&limit=1');
    expect(unscored.data.instances[0]!.benchmark).toBeNull();
    expect(last.data.instances[0]!.benchmark).toBeNull();
  });

  it('recommend: arch, cpu_allocation, rank_by and the summary', async () => {
    const base = { stack: ['nginx', 'postgresql'], scale: 'small', cities: ['tokyo'] };
    const fit = await recommend(base);
    expect(fit.summary.candidates).toBeGreaterThan(0);
    expect(fit.summary.cheapest_meeting_requirements).not.toBeNull();
    // Arm and burstable CPUs are named in the cons where they are recommended.
    const arm = await recommend({ ...base, arch: ['arm64'], providers: ['provider_c'] });
    expect(arm.recommendations.length).toBeGreaterThan(0);
    for (const r of arm.recommendations) {
      expect(r.cons.some((c) => c.startsWith('Arm (arm64) CPU'))).toBe(true);
    }
    const burst = await recommend({
      ...base,
      cpu_allocation: ['burstable'],
      providers: ['provider_c'],
    });
    for (const r of burst.recommendations) {
      expect(r.cons.some((c) => c.startsWith('Burstable CPU'))).toBe(true);
    }
    // rank_by=price: the cheapest record meeting every requirement ranks first.
    const cheap = await recommend({ ...base, rank_by: 'price' });
    const first = cheap.recommendations[0]!;
    const cheapest = cheap.summary.cheapest_meeting_requirements!;
    expect([first.provider, first.instance, first.region, first.price.monthly]).toEqual([
      cheapest.provider,
      cheapest.instance,
      cheapest.region,
      cheapest.monthly,
    ]);
    const monthly = cheap.recommendations.map((r) => r.price.monthly);
    expect(monthly[0]).toBe(Math.min(...monthly));
    // A budget nothing fits: the summary says so.
    const none = await recommend({ ...base, budget_max: 0.01 });
    expect(none.summary.within_budget).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

interface Recommendation {
  id: number;
  rank: number;
  provider: string;
  instance: string;
  region: string;
  specs: { vcpu: number; memory_mb: number; storage_gb: number };
  price: { monthly: number; hourly: number };
  match_score: number;
  score_breakdown: {
    memory_fit: number;
    vcpu_fit: number;
    price_fit: number;
    storage_fit: number;
    tie_break: number;
  };
  pros: string[];
  cons: string[];
}
interface Body {
  success: boolean;
  data: {
    requirements: { min_memory_mb: number; min_vcpu: number; breakdown: Record<string, string> };
    recommendations: Recommendation[];
  };
  meta: { query_time_ms: number };
}

describe('POST /recommend', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(1500, 21));
  });
  afterAll(() => t.close());

  const recommend = async (payload: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload,
    });
    return { response, body: response.json<Body>() };
  };

  it('computes requirements and returns ranked, distinct recommendations that fit', async () => {
    const { response, body } = await recommend({
      stack: ['nginx', 'nodejs', 'postgresql'],
      scale: 'medium',
    });
    expect(response.statusCode).toBe(200);
    // 256 + 1024 + 2048 + 768 = 4096 MB; 2 vCPU.
    expect(body.data.requirements).toEqual({
      min_memory_mb: 4096,
      min_vcpu: 2,
      breakdown: { nginx: '256MB', nodejs: '1GB', postgresql: '2GB', os_overhead: '768MB' },
    });
    const list = body.data.recommendations;
    expect(list.length).toBe(10);
    expect(list.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(list.every((r) => r.specs.memory_mb >= 4096)).toBe(true);
    expect(new Set(list.map((r) => `${r.provider}/${r.instance}`)).size).toBe(list.length);
    const scores = list.map((r) => r.match_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(list.every((r) => r.pros.length > 0 && r.region.length > 0)).toBe(true);
    expect(Number.isInteger(body.meta.query_time_ms)).toBe(true);
  });

  it('orders equal scores by tie_break, then price (D58), and explains every rank', async () => {
    const { body } = await recommend({
      stack: ['nginx', 'nodejs', 'postgresql'],
      scale: 'medium',
      limit: 50,
    });
    const list = body.data.recommendations;
    const [first] = list;
    expect(list.length).toBe(50);
    for (const [i, r] of list.entries()) {
      const b = r.score_breakdown;
      // The fits recompute from the numbers shown (price_fit against the cheapest candidate).
      expect(b.memory_fit).toBe(Math.round((4096 / r.specs.memory_mb) * 1e4) / 1e4);
      expect(b.vcpu_fit).toBe(Math.round(Math.min(1, r.specs.vcpu / 2) * 1e4) / 1e4);
      expect(b.storage_fit).toBe(r.specs.storage_gb > 0 ? 1 : 0.5);
      expect(b.price_fit).toBeGreaterThan(0);
      expect(b.price_fit).toBeLessThanOrEqual(1);
      const previous = list[i - 1];
      if (previous !== undefined && previous.match_score === r.match_score) {
        // Rounding is monotonic: the rounded tie_break never rises within a score.
        expect(r.score_breakdown.tie_break).toBeLessThanOrEqual(previous.score_breakdown.tie_break);
      }
      const dearer = r.cons.filter((c) => c.includes('more than rank 1'));
      expect(dearer).toHaveLength(r.price.monthly > first!.price.monthly ? 1 : 0);
      expect(r.cons.includes('No local storage (block storage is billed separately)')).toBe(
        r.specs.storage_gb === 0,
      );
    }
    // Only the cheapest is called cheapest.
    const cheapest = Math.min(...list.map((r) => r.price.monthly));
    for (const r of list.filter((r) => r.pros.some((p) => p.startsWith('Cheapest')))) {
      expect(r.price.monthly).toBe(cheapest);
    }
  });

  it('names a stale price with its observation date once the clock passes DATA_STALE_DAYS, memo or not', async () => {
    const query = { stack: ['redis'], scale: 'small', limit: 3 };
    const stale = (r: Recommendation) => r.cons.filter((c) => c.startsWith('Price observed on'));
    // Asked twice: the memo keeps the answer.
    await recommend(query);
    const fresh = (await recommend(query)).body.data.recommendations;
    expect(fresh.flatMap(stale)).toEqual([]);
    try {
      t.setNow(FIXED_NOW + 400 * 86_400_000);
      const later = (await recommend(query)).body.data.recommendations;
      expect(later.map((r) => r.id)).toEqual(fresh.map((r) => r.id));
      for (const r of later) expect(stale(r)).toHaveLength(1);
      expect(stale(later[0]!)[0]).toMatch(
        /^Price observed on \d{4}-\d{2}-\d{2}; it may have changed since$/,
      );
    } finally {
      t.setNow(FIXED_NOW);
    }
  });

  it('speaks the response currency: budget_max and rank 1 comparisons in JPY (D43)', async () => {
    const { response, body } = await recommend({
      stack: ['nginx', 'nodejs', 'postgresql'],
      scale: 'medium',
      currency: 'JPY',
      budget_max: 5000,
      limit: 20,
    });
    expect(response.statusCode).toBe(200);
    const list = body.data.recommendations;
    const first = list[0]!;
    const grouped = (n: number) => n.toLocaleString('en-US');
    let dearerSeen = 0;
    for (const r of list) {
      expect((r.price as { currency?: string }).currency).toBe('JPY');
      const dearer = r.cons.find((c) => c.includes('more than rank 1'));
      if (r.price.monthly > first.price.monthly) {
        dearerSeen += 1;
        const diff = r.price.monthly - first.price.monthly;
        const tenths = Math.floor((diff * 2000 + first.price.monthly) / (2 * first.price.monthly));
        const percent = tenths === 0 ? '<0.1' : String(tenths / 10);
        expect(dearer).toBe(`${grouped(diff)} JPY/month more than rank 1 (+${percent}%)`);
      } else {
        expect(dearer).toBeUndefined();
      }
      const within = r.price.monthly <= 5000;
      expect(r.match_score <= 80 || within).toBe(true);
      expect([...r.pros, ...r.cons].some((x) => x.includes('the 5,000 JPY budget'))).toBe(true);
    }
    expect(dearerSeen).toBeGreaterThan(0);
  });

  it('keeps over-budget instances with a penalty and a con naming the overrun', async () => {
    const { body } = await recommend({
      stack: ['elasticsearch'],
      scale: 'large',
      budget_max: 5,
      limit: 50,
    });
    const over = body.data.recommendations.filter((r) => r.price.monthly > 5);
    expect(over.length).toBeGreaterThan(0);
    for (const r of over) {
      expect(r.match_score).toBeLessThanOrEqual(80);
      expect(r.cons.join(' ')).toMatch(/budget/i);
    }
  });

  it('honours the providers, regions and limit extensions', async () => {
    const { body } = await recommend({
      stack: ['redis'],
      scale: 'small',
      providers: ['provider_b'],
      regions: ['nrt'],
      limit: 3,
    });
    expect(body.data.recommendations).toHaveLength(3);
    expect(
      body.data.recommendations.every((r) => r.provider === 'provider_b' && r.region === 'Tokyo'),
    ).toBe(true);
  });

  it('sees a catalogue change as soon as the change is announced', async () => {
    const query = { stack: ['nginx'], scale: 'small', providers: ['provider_a'], limit: 1 };
    const before = (await recommend(query)).body.data.recommendations[0]!;
    const cheap = {
      provider: 'provider_a' as const,
      regionCodes: ['ap-northeast'],
      skippedRecords: 0,
      offers: [
        {
          instanceId: 'a-tiny-new',
          instanceName: 'Tiny New',
          vcpu: 1,
          memoryMb: 1024,
          storageGb: 10,
          transferTb: 1,
          networkSpeedGbps: 1,
          gpuCount: 0,
          gpuType: null,
          family: 'general' as const,
          regionCode: 'ap-northeast',
          hourlyMicros: 1_000,
          monthlyMicros: 730_000,
        },
      ],
    };
    await loadCatalogs(t.services.store, [cheap]);
    await t.services.infra.bus.publish();
    const after = (await recommend(query)).body.data.recommendations[0]!;
    expect(before.instance).not.toBe('Tiny New');
    expect(after.instance).toBe('Tiny New');
    expect(after.price.monthly).toBe(0.73);
  });
});

describe('POST /recommend with DATA_STALE_DAYS set', () => {
  it('calls a price stale only past the configured number of days', async () => {
    const t = await createTestApp({ DATA_STALE_DAYS: '500' });
    try {
      await loadCatalogs(t.services.store, generateCatalogs(300, 5), new Date(FIXED_NOW));
      await t.services.infra.bus.publish();
      const stale = async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/recommend',
          headers: auth,
          payload: { stack: ['redis'], scale: 'small', limit: 3 },
        });
        return response
          .json<Body>()
          .data.recommendations.flatMap((r) => r.cons)
          .filter((c) => c.startsWith('Price observed on'));
      };
      t.setNow(FIXED_NOW + 500 * 86_400_000);
      expect(await stale()).toEqual([]);
      t.setNow(FIXED_NOW + 501 * 86_400_000);
      expect(await stale()).toEqual(
        Array(3).fill('Price observed on 2026-11-22; it may have changed since'),
      );
    } finally {
      await t.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Recommendation {
  rank: number;
  provider: string;
  instance: string;
  region: string;
  specs: { vcpu: number; memory_mb: number; storage_gb: number };
  price: { monthly: number; hourly: number };
  match_score: number;
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
      // Every region listed: the upstream now sells only this type (a region left out keeps
      // its records, issue 22).
      regionCodes: ['ap-northeast', 'ap-south', 'ap-southeast'],
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

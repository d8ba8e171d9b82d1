import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Body {
  success: boolean;
  data: {
    instances: Array<{
      id: number;
      vcpu: number;
      memory_mb: number;
      gpu_count: number;
      instance_family: string;
      provider: { name: string };
      region: { region_code: string };
      pricing: { monthly_price: number; available: number; currency: string };
    }>;
    pagination: { total: number; limit: number; offset: number; has_more: boolean };
    metadata: {
      cached: boolean;
      last_sync: string | null;
      query_time_ms: number;
      filters_applied: Record<string, unknown>;
    };
  };
}

describe('GET /instances', () => {
  let t: TestApp;
  const syncedAt = new Date('2026-11-20T10:00:00.000Z');
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(600, 7), syncedAt);
  });
  afterAll(() => t.close());

  const get = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/instances${query}`,
      headers: auth,
    });
    return { response, body: response.json<Body>() };
  };

  it('lists the first page sorted by monthly price with defaults and metadata', async () => {
    const { response, body } = await get('');
    expect(response.statusCode).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data.instances).toHaveLength(50);
    expect(body.data.pagination).toEqual({ total: 600, limit: 50, offset: 0, has_more: true });
    const prices = body.data.instances.map((i) => i.pricing.monthly_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(body.data.metadata.last_sync).toBe(syncedAt.toISOString());
    expect(body.data.metadata.filters_applied).toEqual({});
    expect(
      body.data.instances.every((i) => i.pricing.available === 1 && i.pricing.currency === 'USD'),
    ).toBe(true);
  });

  it('serves a repeated query from the cache, whatever the parameter order', async () => {
    const first = await get('?provider=provider_b&min_vcpu=4&sort_by=vcpu');
    const second = await get('?sort_by=vcpu&min_vcpu=4&provider=provider_b');
    expect(first.body.data.metadata.cached).toBe(false);
    expect(second.body.data.metadata.cached).toBe(true);
    expect(second.body.data.instances).toEqual(first.body.data.instances);
    expect(second.response.headers['cache-control']).toBe('public, max-age=300');
    expect(second.response.headers.vary).toBe('X-API-Key, Accept');
  });

  it('applies every filter and echoes the parsed values in filters_applied', async () => {
    const { body } = await get(
      '?provider=provider_c&region=ap-northeast-1&min_vcpu=2&max_vcpu=16&min_memory_gb=1&max_memory_gb=64&max_price=900&instance_family=memory&has_gpu=false&unknown=1',
    );
    expect(body.data.metadata.filters_applied).toEqual({
      provider: 'provider_c',
      region: 'ap-northeast-1',
      min_vcpu: 2,
      max_vcpu: 16,
      min_memory_gb: 1,
      max_memory_gb: 64,
      max_price: 900,
      instance_family: 'memory',
      has_gpu: false,
    });
    expect(body.data.instances.length).toBeGreaterThan(0);
    for (const i of body.data.instances) {
      expect(i.provider.name).toBe('provider_c');
      expect(i.region.region_code).toBe('ap-northeast-1');
      expect(i.vcpu).toBeGreaterThanOrEqual(2);
      expect(i.vcpu).toBeLessThanOrEqual(16);
      expect(i.memory_mb / 1024).toBeGreaterThanOrEqual(1);
      expect(i.memory_mb / 1024).toBeLessThanOrEqual(64);
      expect(i.pricing.monthly_price).toBeLessThanOrEqual(900);
      expect(i.instance_family).toBe('memory');
      expect(i.gpu_count).toBe(0);
    }
  });

  it('sorts descending and pages without overlap', async () => {
    const a = await get('?sort_by=vcpu&order=desc&limit=30&offset=0');
    const b = await get('?sort_by=vcpu&order=desc&limit=30&offset=30');
    const ids = [...a.body.data.instances, ...b.body.data.instances].map((i) => i.id);
    expect(new Set(ids).size).toBe(60);
    const vcpus = [...a.body.data.instances, ...b.body.data.instances].map((i) => i.vcpu);
    expect(vcpus).toEqual([...vcpus].sort((x, y) => y - x));
  });

  it('answers past the end with an empty page and the true total', async () => {
    const { body } = await get('?offset=100000');
    expect(body.data.instances).toEqual([]);
    expect(body.data.pagination).toEqual({
      total: 600,
      limit: 50,
      offset: 100000,
      has_more: false,
    });
  });

  it('drops the cache when the catalogue changes', async () => {
    await get('?limit=7');
    expect((await get('?limit=7')).body.data.metadata.cached).toBe(true);
    // A message alone changes nothing: cached bodies belong to a catalogue version.
    await t.services.infra.bus.publish();
    expect((await get('?limit=7')).body.data.metadata.cached).toBe(true);
    const [a] = generateCatalogs(600, 7);
    const repriced = { ...a!, offers: a!.offers.map((o) => ({ ...o, hourlyMicros: 1 })) };
    await loadCatalogs(t.services.store, [repriced], new Date('2026-11-20T11:00:00.000Z'));
    const after = await get('?limit=7');
    expect(after.body.data.metadata.cached).toBe(false);
    expect(after.body.data.metadata.last_sync).toBe('2026-11-20T11:00:00.000Z');
  });
});

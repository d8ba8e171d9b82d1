// provider_d read live from Cyclenerd's pricing.yml (PROVIDER_D_URL naming a .yml file): the
// adapter over a real local HTTP server serving a small file in that layout, through the real
// upstream client, with the bundled snapshot (the test copy) as the reference for machine facts
// and availability. The offers equal those the snapshot layout gives for the same figures;
// malformed, cut-short, oversized, HTML and alias-bomb bodies fail with the documented codes.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderCatalog } from '../../src/catalog/offers.js';
import { createProviderDAdapter } from '../../src/providers/provider-d/adapter.js';
import { pricingFileGeneratedAt } from '../../src/providers/provider-d/pricing-file.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../src/sync/upstream/http-upstream-client.js';
import type { HttpUpstreamClientOptions } from '../../src/sync/upstream/upstream-client-options.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXTURE_SNAPSHOTS, type TestApp } from '../support/test-app.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/provider-d-pricing/pricing.yml');
const REFERENCE = pathToFileURL(path.join(FIXTURE_SNAPSHOTS, 'provider_d') + '/').href;

describe('provider_d from a pricing.yml over HTTP', () => {
  let upstream: FakeUpstream;
  let root: string;
  const clients: ClosableUpstreamClient[] = [];
  const client = (
    baseUrl: string,
    extra: Partial<HttpUpstreamClientOptions> = {},
  ): ClosableUpstreamClient => {
    const made = createUpstreamClient({
      baseUrl,
      connectTimeoutMs: 2_000,
      firstByteTimeoutMs: 2_000,
      totalTimeoutMs: 10_000,
      maxRetries: 0,
      maxResponseBytes: 16 * 1024 * 1024,
      userAgent: 'cloudprice-test',
      ...extra,
    });
    clients.push(made);
    return made;
  };
  const readYaml = (
    url: string,
    extra: Partial<HttpUpstreamClientOptions> = {},
  ): Promise<ProviderCatalog> =>
    createProviderDAdapter({
      client: client(url, extra),
      pricingFile: { upstreamClient: (b) => client(b, extra), referenceUrl: REFERENCE },
    }).fetchCatalog(AbortSignal.timeout(10_000));
  const serve = (name: string, text: string): string => {
    writeFileSync(path.join(root, name), text);
    return `${upstream.url}/${name}`;
  };
  const serveFixture = () =>
    // Copied at call time so each test starts from the untouched fixture.
    copyFileSync(FIXTURE, path.join(root, 'pricing.yml'));
  const offer = (catalog: ProviderCatalog, id: string, region: string) =>
    catalog.offers.find((o) => o.instanceId === id && o.regionCode === region);

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'provider-d-pricing-'));
    upstream = await startFakeUpstream({ root });
  });
  afterEach(async () => {
    upstream.clearFaults();
    upstream.clearRequests();
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await upstream?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives the offers the snapshot layout gives for the same recorded figures', async () => {
    serveFixture();
    const catalog = await readYaml(`${upstream.url}/pricing.yml`);
    const snapshot = await createProviderDAdapter({ client: client(REFERENCE) }).fetchCatalog(
      AbortSignal.timeout(10_000),
    );
    expect(catalog.regionCodes).toEqual(['asia-northeast1', 'asia-east2']);
    expect(catalog.offers.map((o) => `${o.regionCode} ${o.instanceId}`).sort()).toEqual([
      'asia-east2 e2-standard-2',
      'asia-east2 f1-micro',
      'asia-east2 n2-standard-2',
      'asia-northeast1 e2-standard-2',
      'asia-northeast1 f1-micro',
      'asia-northeast1 n2-standard-2',
    ]);
    for (const o of catalog.offers) {
      expect(o).toEqual(offer(snapshot, o.instanceId, o.regionCode));
    }
    expect(offer(catalog, 'e2-standard-2', 'asia-northeast1')).toMatchObject({
      hourlyMicros: 85_966,
      monthlyMicros: 62_750_000,
      optionPrices: {
        spot: { hourlyMicros: 51_584 },
        reserved_1y: { hourlyMicros: 54_158 },
        reserved_3y: { hourlyMicros: 38_685 },
      },
    });
    // pricing.pl's fallbacks (month_1y = month) are not committed-use prices.
    expect(offer(catalog, 'f1-micro', 'asia-northeast1')?.optionPrices).toEqual({
      spot: { hourlyMicros: 828, monthlyMicros: 600_000 },
    });
    // Priced, not offered (c3d in Tokyo and Hong Kong): not listed, not counted as skipped;
    // a type the reference lacks is skipped and counted in each region.
    expect(catalog.skippedReasons).toMatchObject({ invalid_type: 2 });
    expect(upstream.requests.map((r) => r.path)).toEqual(['/pricing.yml']);
  });

  it('asks again with validators and reads the remembered copy on 304', async () => {
    serveFixture();
    const adapter = createProviderDAdapter({
      client: client(`${upstream.url}/pricing.yml`),
      pricingFile: { upstreamClient: (b) => client(b), referenceUrl: REFERENCE },
    });
    const first = await adapter.fetchCatalog(AbortSignal.timeout(10_000));
    const second = await adapter.fetchCatalog(AbortSignal.timeout(10_000));
    expect(second.offers).toEqual(first.offers);
    expect(upstream.requests.map((r) => r.status)).toEqual([200, 304]);
  });

  it('accepts text/plain, as raw.githubusercontent.com serves the file', async () => {
    const body = readFileSync(FIXTURE);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const catalog = await readYaml(`http://127.0.0.1:${port}/x/pricing.yml`);
      expect(catalog.offers).toHaveLength(6);
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('reads the same file from a file:// PROVIDER_D_URL', async () => {
    const catalog = await readYaml(pathToFileURL(FIXTURE).href);
    expect(catalog.offers).toHaveLength(6);
  });

  it("dates the prices by the file's build (about.timestamp, else about.generated)", async () => {
    serveFixture();
    const catalog = await readYaml(`${upstream.url}/pricing.yml`);
    expect(catalog.upstreamObservedAt?.toISOString()).toBe('2026-07-30T06:13:17.000Z');
    expect(pricingFileGeneratedAt({ about: { generated: '2025-01-02 03:04:05' } })).toEqual(
      new Date('2025-01-02T03:04:05Z'),
    );
    expect(pricingFileGeneratedAt({ about: { timestamp: '1785391997', generated: 'x' } })).toEqual(
      new Date('2026-07-30T06:13:17Z'),
    );
    for (const about of [{}, { timestamp: '-1', generated: 'yesterday' }, 'text', null]) {
      expect(pricingFileGeneratedAt({ about })).toBeUndefined();
    }
    // A file without `about` is read all the same, dated by the fetch.
    const bare = readFileSync(FIXTURE, 'utf8').replace(/^about:\n( {2}.*\n)+/m, '');
    expect(bare).not.toContain('about:');
    const undated = await readYaml(serve('undated.yml', bare));
    expect(undated.offers).toHaveLength(6);
    expect(undated.upstreamObservedAt).toBeUndefined();
  });

  it('leaves a region the file lacks unsynced (its records stay as they were)', async () => {
    const text = readFileSync(FIXTURE, 'utf8').replace(/ {8}asia-east2:\n( {10}.*\n)+/g, '');
    const catalog = await readYaml(serve('no-hk.yml', text));
    expect(catalog.regionCodes).toEqual(['asia-northeast1']);
    expect(catalog.offers.every((o) => o.regionCode === 'asia-northeast1')).toBe(true);
  });

  const fails = (promise: Promise<unknown>, code: string) =>
    expect(promise).rejects.toMatchObject({ name: 'UpstreamError', code });

  it('refuses malformed YAML and a wrong shape as UPSTREAM_INVALID_DATA', async () => {
    await fails(readYaml(serve('bad.yml', 'compute:\n  instance: [\n')), 'UPSTREAM_INVALID_DATA');
    await fails(readYaml(serve('shape.yml', 'compute: 3\n')), 'UPSTREAM_INVALID_DATA');
    await fails(readYaml(serve('dup.yml', 'a: 1\na: 2\n')), 'UPSTREAM_INVALID_DATA');
  });

  it('refuses an alias bomb quickly, without expanding it', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from({ length: 9 }, (_, i) => {
        const prev = String.fromCharCode(97 + i);
        const name = String.fromCharCode(98 + i);
        return `${name}: &${name} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
      }),
      'compute: { instance: { x: *j } }',
    ].join('\n');
    const started = performance.now();
    await fails(readYaml(serve('bomb.yml', bomb)), 'UPSTREAM_INVALID_DATA');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses a body over the cap, cut short, or an HTML page', async () => {
    serveFixture();
    await fails(
      readYaml(`${upstream.url}/pricing.yml`, { maxJsonBytes: 512 }),
      'UPSTREAM_TOO_LARGE',
    );
    upstream.setFault('/pricing.yml', { kind: 'truncated' });
    await fails(readYaml(`${upstream.url}/pricing.yml`), 'UPSTREAM_NETWORK_ERROR');
    upstream.setFault('/pricing.yml', { kind: 'wrong-content-type' });
    await fails(readYaml(`${upstream.url}/pricing.yml`), 'UPSTREAM_INVALID_DATA');
  });
});

describe('provider_d synced from a pricing.yml through the app', () => {
  let upstream: FakeUpstream;
  let root: string;
  let t: TestApp;
  const sync = () =>
    t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_d'] },
    });
  const e2Tokyo = async () => {
    const response = await t.app.inject({
      url: '/instances?region=asia-northeast1&q=e2-standard-2',
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{
      data: { instances: { instance_id: string; pricing: { monthly_price: number } }[] };
    }>().data.instances;
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'provider-d-pricing-app-'));
    copyFileSync(FIXTURE, path.join(root, 'pricing.yml'));
    upstream = await startFakeUpstream({ root });
    t = await createTestApp({
      PROVIDERS: 'provider_d',
      PROVIDER_D_URL: `${upstream.url}/pricing.yml`,
    });
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("shows the file's build time as the observation, from http:// and from file://", async () => {
    expect((await sync()).statusCode).toBe(200);
    const observed = async (app: TestApp) => {
      const records = await app.app.inject({
        url: '/instances?region=asia-northeast1&q=e2-standard-2',
        headers: auth,
      });
      const health = await app.app.inject({ url: '/health', headers: auth });
      const source = health
        .json<{
          components: {
            providers: { name: string; data_source: { kind: string; observed_at: string } }[];
          };
        }>()
        .components.providers.find((p) => p.name === 'provider_d')?.data_source;
      return {
        record: records.json<{ data: { instances: { pricing: { observed_at: string } }[] } }>().data
          .instances[0]?.pricing.observed_at,
        kind: source?.kind,
        source: source?.observed_at,
      };
    };
    const expected = {
      record: '2026-07-30T06:13:17.000Z',
      kind: 'live',
      source: '2026-07-30T06:13:17.000Z',
    };
    expect(await observed(t)).toEqual(expected);
    // A downloaded copy named by a file:// URL is the same live file, not a snapshot directory
    // (which would need a metadata.json beside it).
    const fromFile = await createTestApp({
      PROVIDERS: 'provider_d',
      PROVIDER_D_URL: pathToFileURL(path.join(root, 'pricing.yml')).href,
    });
    try {
      const synced = await fromFile.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_d'] },
      });
      expect(synced.statusCode, synced.body).toBe(200);
      expect(await observed(fromFile)).toEqual(expected);
    } finally {
      await fromFile.close();
    }
  });

  it('serves the file, then keeps it when a later file is hostile', async () => {
    const first = await sync();
    expect(first.statusCode, first.body).toBe(200);
    const before = await e2Tokyo();
    expect(before.find((r) => r.instance_id === 'e2-standard-2')?.pricing.monthly_price).toBe(
      62.75,
    );

    writeFileSync(path.join(root, 'pricing.yml'), 'a: &a [1]\nb: [*a, *a\n');
    const failed = await sync();
    expect(failed.statusCode).not.toBe(200);
    const result = failed.json<{
      error: { details: { providers: { error_details: { code: string } }[] } };
    }>().error.details.providers[0];
    expect(result?.error_details.code).toBe('UPSTREAM_INVALID_DATA');
    expect(await e2Tokyo()).toEqual(before);
  });
});

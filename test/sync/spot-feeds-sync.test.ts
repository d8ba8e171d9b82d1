// D61: a real sync of provider_c with its spot feeds served by a local HTTP server, through the
// sync service (POST /sync on the app, and the service alone to read its log). The result says
// per option and region what the feeds gave; a failed feed never fails the provider nor costs an
// on-demand record. The default start reads only the bundled advice, from disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { MemoryInvalidationBus } from '../../src/infra/memory/memory-invalidation-bus.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { createProviderAdapters } from '../../src/sync/provider-adapters.js';
import { createSyncService } from '../../src/sync/sync-service.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { adviceWithout, recordedSpotAdvice, spotPriceFeed } from '../support/spot-feed-docs.js';
import { auth, createTestApp, fixtureSources, type TestApp } from '../support/test-app.js';

const REGIONS = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-east-1',
];
const SPOT = '/feeds/spot.json';
const ADVICE = '/feeds/spot-advisor-data.json';
const PRICES = Object.fromEntries(
  REGIONS.map((r) => [r, { 'm5.large': '0.0401', 't3.micro': '0.0041' }]),
);
const ALL_OK = { ok_regions: REGIONS, failed_regions: [] };

interface ProviderResult {
  provider: string;
  success: boolean;
  instances_synced: number;
  pricing_synced: number;
  options?: Record<string, { ok_regions: string[]; failed_regions: unknown[] }>;
}

/** Feeds on `fake`, with upstream timeouts a slow feed runs past in a few seconds. */
function feedEnv(fake: FakeUpstream): Record<string, string> {
  return {
    PROVIDER_C_SPOT_URL: `${fake.url}${SPOT}`,
    PROVIDER_C_SPOT_ADVICE_URL: `${fake.url}${ADVICE}`,
    UPSTREAM_TOTAL_TIMEOUT: '3s',
    UPSTREAM_FIRST_BYTE_TIMEOUT: '2s',
    UPSTREAM_MAX_RETRIES: '0',
  };
}

describe('POST /sync of provider_c with its spot feeds', () => {
  let fake: FakeUpstream;
  let t: TestApp;
  let minute = 0;

  async function syncC(): Promise<ProviderResult> {
    // Each request in a fresh rate-limit window.
    t.setNow(Date.UTC(2026, 10, 22, 4, minute++, 1));
    const res = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_c'] },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { success: boolean; providers: ProviderResult[] } }>();
    expect(body.data.success).toBe(true);
    return body.data.providers[0]!;
  }

  async function instanceCount(): Promise<number> {
    t.setNow(Date.UTC(2026, 10, 22, 4, minute++, 1));
    const res = await t.app.inject({
      method: 'GET',
      url: '/instances?provider=provider_c&limit=1',
      headers: auth,
    });
    return res.json<{ data: { pagination: { total: number } } }>().data.pagination.total;
  }

  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp(feedEnv(fake));
  });

  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('good feeds: every region ok for spot and spot_advice', async () => {
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
    const result = await syncC();
    expect(result.options).toEqual({ spot: ALL_OK, spot_advice: ALL_OK });
  });

  it('a slow spot feed and advice missing a region: success, each failed region named, on-demand complete', async () => {
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
    const good = await syncC();
    const before = await instanceCount();
    expect(before).toBeGreaterThan(0);
    fake.setFault(SPOT, { kind: 'slow-drip', intervalMs: 200 });
    fake.setJson(ADVICE, adviceWithout('ap-southeast-1'));
    try {
      const result = await syncC();
      expect(result.success).toBe(true);
      expect(result.options).toEqual({
        spot: {
          ok_regions: [],
          failed_regions: REGIONS.map((region) => ({ region, code: 'UPSTREAM_TIMEOUT' })),
        },
        spot_advice: {
          ok_regions: REGIONS.filter((r) => r !== 'ap-southeast-1'),
          failed_regions: [{ region: 'ap-southeast-1', code: 'UPSTREAM_INVALID_DATA' }],
        },
      });
      expect(result.instances_synced).toBe(good.instances_synced);
      expect(result.pricing_synced).toBe(good.pricing_synced);
      expect(await instanceCount()).toBe(before);
    } finally {
      fake.clearFaults();
    }
  });

  it('malformed and truncated feeds: both options failed everywhere, the provider synced', async () => {
    fake.setFault(SPOT, { kind: 'malformed-json' });
    fake.setFault(ADVICE, { kind: 'truncated' });
    try {
      const result = await syncC();
      expect(result.success).toBe(true);
      expect(result.options?.spot).toEqual({
        ok_regions: [],
        failed_regions: REGIONS.map((region) => ({ region, code: 'UPSTREAM_INVALID_DATA' })),
      });
      expect(result.options?.spot_advice).toEqual({
        ok_regions: [],
        failed_regions: REGIONS.map((region) => ({ region, code: 'UPSTREAM_NETWORK_ERROR' })),
      });
      expect(result.instances_synced).toBeGreaterThan(0);
    } finally {
      fake.clearFaults();
    }
  });
});

describe('POST /sync of provider_c on the default start', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('reports the bundled advice, every region ok, and no spot prices; provider_a has no options', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_a', 'provider_c'] },
    });
    expect(res.statusCode).toBe(200);
    const [a, c] = res.json<{ data: { providers: ProviderResult[] } }>().data.providers;
    expect(c?.options).toEqual({ spot_advice: ALL_OK });
    expect(a).not.toHaveProperty('options');
  });
});

describe('the sync service logs a failed option feed', () => {
  it('warns with each failed region and its detail, and the info line carries the options', async () => {
    const fake = await startFakeUpstream();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-spot-sync-'));
    const lines: { level: string; obj: Record<string, unknown>; msg: string }[] = [];
    const log = {
      info: (obj: unknown, msg: string) => lines.push({ level: 'info', obj: obj as never, msg }),
      warn: (obj: unknown, msg: string) => lines.push({ level: 'warn', obj: obj as never, msg }),
      error: (obj: unknown, msg: string) => lines.push({ level: 'error', obj: obj as never, msg }),
    };
    const config = loadConfig(
      { DATA_DIR: dataDir, ...fixtureSources(), ...feedEnv(fake) },
      process.cwd(),
    );
    const store = await createCatalogStore(config.databaseUrl, {});
    try {
      await store.migrate();
      fake.setJson(SPOT, spotPriceFeed(PRICES));
      fake.setFault(ADVICE, { kind: 'status', status: 404 });
      const service = createSyncService({
        store,
        adapters: createProviderAdapters(config),
        bus: new MemoryInvalidationBus(),
        log,
      });
      const report = await service.sync(['provider_c']);
      expect(report.success).toBe(true);
      const warn = lines.find((l) => l.level === 'warn' && /purchase-option feed/.test(l.msg));
      const failures = warn?.obj.option_feed_failures as { feed: string; message: string }[];
      expect(failures).toHaveLength(REGIONS.length);
      expect(failures.every((f) => f.feed === 'spot_advice' && /404/.test(f.message))).toBe(true);
      const synced = lines.find((l) => l.msg === 'provider synced');
      expect(synced?.obj.options).toEqual(report.providers[0]?.options);
      expect(report.providers[0]?.options?.spot).toEqual(ALL_OK);
      expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await store.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// The spot price and spot advice feeds against a real local HTTP server serving the documented
// layouts (docs/purchase-options.md), and misbehaving: slow, malformed, truncated, a region
// missing or malformed. Every read must say per region what failed and keep what parsed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/support/fake-upstream.js';
import type { InstanceOffer } from '../../catalog/offers.js';
import type { OptionFeedResult, RegionFeedOutcome } from '../../catalog/option-feeds.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import { documentLocation } from '../../sync/upstream/document-location.js';
import { resolveRegionMap } from '../region-map.js';
import { PROVIDER_C_REGION_TABLE } from './regions.js';
import { readSpotAdvice, readSpotPrices, withSpotFeeds } from './spot-feeds.js';

const REGIONS = resolveRegionMap(PROVIDER_C_REGION_TABLE);
const CODES = REGIONS.map((r) => r.regionCode);
const TOKYO = 'ap-northeast-1';
const SEOUL = 'ap-northeast-2';

function size(type: string, usd: string) {
  return {
    size: type,
    valueColumns: [
      { name: 'linux', prices: { USD: usd } },
      { name: 'mswin', prices: { USD: '9.9' } },
    ],
  };
}

/** The spot price feed's layout, with every region of ours (Tokyo and Singapore by legacy name). */
function spotFeed(overrides: Record<string, unknown> = {}) {
  const region = (name: string, sizes: unknown[]) => ({
    region: name,
    instanceTypes: [{ type: 'generalCurrentGen', sizes }],
  });
  const regions: Record<string, unknown> = {
    'apac-tokyo': region('apac-tokyo', [
      size('c7i.xlarge', '0.0876'),
      size('t3.micro', '0.0041'),
      size('p5.48xlarge', 'N/A*'),
    ]),
    'ap-northeast-2': region('ap-northeast-2', [size('c7i.xlarge', '0.0711')]),
    'ap-northeast-3': region('ap-northeast-3', [size('c7i.xlarge', '0.0802')]),
    'apac-sin': region('apac-sin', [size('c7i.xlarge', '0.0844')]),
    'ap-east-1': region('ap-east-1', [size('c7i.xlarge', '0.0933')]),
    'us-east': region('us-east', [size('c7i.xlarge', '0.05')]),
    ...overrides,
  };
  return {
    vers: 0.01,
    config: {
      rate: 'perhr',
      valueColumns: ['linux', 'mswin'],
      currencies: ['USD'],
      regions: Object.values(regions).filter((r) => r !== undefined),
    },
  };
}

const RANGES = [
  { index: 0, label: '<5%', dots: 0, max: 5 },
  { index: 1, label: '5-10%', dots: 1, max: 11 },
  { index: 2, label: '10-15%', dots: 2, max: 16 },
  { index: 3, label: '15-20%', dots: 3, max: 22 },
  { index: 4, label: '>20%', dots: 4, max: 100 },
];

/** The Spot Instance Advisor's layout (figures from aws-spot-advisor-2025-06-28.csv). */
function adviceFeed(overrides: Record<string, unknown> = {}) {
  return {
    instance_types: { 'c7i.xlarge': { emr: true, cores: 4, ram_gb: 8 } },
    ranges: RANGES,
    spot_advisor: {
      'ap-east-1': { Linux: { 'c7i.xlarge': { s: 60, r: 1 } }, Windows: {} },
      'ap-northeast-1': { Linux: { 'c7i.xlarge': { s: 61, r: 4 }, 't3.micro': { s: 70, r: 0 } } },
      'ap-northeast-2': { Linux: { 'c7i.xlarge': { s: 67, r: 2 } } },
      'ap-northeast-3': { Linux: { 'c7i.xlarge': { s: 55, r: 0 } } },
      'ap-southeast-1': { Linux: { 'c7i.xlarge': { s: 59, r: 3 } } },
      ...overrides,
    },
    global_rate: '<10%',
  };
}

function outcome<T>(result: OptionFeedResult<T>, regionCode: string): RegionFeedOutcome<T> {
  const found = result.regions.find((r) => r.regionCode === regionCode);
  if (found === undefined) throw new Error(`no outcome for ${regionCode}`);
  return found;
}

function okTypes<T>(result: OptionFeedResult<T>, regionCode: string): Record<string, T> {
  const found = outcome(result, regionCode);
  if (!found.ok) throw new Error(`${regionCode} failed: ${found.message}`);
  return Object.fromEntries(found.byType);
}

describe('spot feeds over HTTP', () => {
  let dir: string;
  let fake: FakeUpstream;
  let client: ClosableUpstreamClient;
  const signal = new AbortController().signal;
  const read = (p: string) => ({
    client,
    path: p,
    regions: REGIONS,
    source: 'AWS spot feed (test)',
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-spot-feeds-'));
    const whole = JSON.stringify(adviceFeed());
    await writeFile(
      path.join(dir, 'truncated-advice.json'),
      whole.slice(0, Math.floor(whole.length / 2)),
    );
    fake = await startFakeUpstream({ root: dir });
    client = createUpstreamClient({
      baseUrl: `${fake.url}/`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 400,
      totalTimeoutMs: 1500,
      maxRetries: 1,
      maxResponseBytes: 1024 * 1024,
      userAgent: 'cloudprice/test (+https://github.com/cloudprice)',
      retryBaseDelayMs: 10,
      retryMaxDelayMs: 50,
      conditionalCacheEntries: 0,
    });
  });

  afterEach(() => fake.clearFaults());

  afterAll(async () => {
    await client.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads spot prices per region, legacy region names included, N/A* as no price', async () => {
    fake.setJson('/spot.json', spotFeed());
    const before = Date.now();
    const result = await readSpotPrices(read('/spot.json'), signal);
    expect(result.feed).toBe('spot');
    expect(result.regions.map((r) => [r.regionCode, r.ok])).toEqual(CODES.map((c) => [c, true]));
    expect(okTypes(result, TOKYO)).toEqual({ 'c7i.xlarge': 87_600, 't3.micro': 4_100 });
    expect(okTypes(result, 'ap-southeast-1')).toEqual({ 'c7i.xlarge': 84_400 });
    expect(result.observedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(result.source).toBe('AWS spot feed (test)');
  });

  it('reads spot advice per region with AWS band labels and savings', async () => {
    fake.setJson('/spot-advisor-data.json', adviceFeed());
    const observedAt = new Date('2025-06-28T08:37:00Z');
    const result = await readSpotAdvice({ ...read('/spot-advisor-data.json'), observedAt }, signal);
    expect(result.regions.every((r) => r.ok)).toBe(true);
    expect(okTypes(result, TOKYO)).toEqual({
      'c7i.xlarge': { interruptionBand: '>20%', savingsPct: 61 },
      't3.micro': { interruptionBand: '<5%', savingsPct: 70 },
    });
    expect(result.observedAt).toEqual(observedAt);
  });

  it('fails one region that is missing from the feed, and keeps the others', async () => {
    fake.setJson('/spot.json', spotFeed({ 'ap-northeast-2': undefined }));
    const spot = await readSpotPrices(read('/spot.json'), signal);
    expect(outcome(spot, SEOUL)).toMatchObject({ ok: false, code: 'UPSTREAM_INVALID_DATA' });
    expect(spot.regions.filter((r) => r.ok).map((r) => r.regionCode)).toEqual(
      CODES.filter((c) => c !== SEOUL),
    );

    const advice = adviceFeed();
    const { [SEOUL]: _gone, ...others } = advice.spot_advisor;
    fake.setJson('/spot-advisor-data.json', { ...advice, spot_advisor: others });
    const result = await readSpotAdvice(read('/spot-advisor-data.json'), signal);
    expect(outcome(result, SEOUL)).toMatchObject({ ok: false, code: 'UPSTREAM_INVALID_DATA' });
    expect(result.regions.filter((r) => r.ok)).toHaveLength(4);
  });

  it('fails one malformed region, skips and counts bad entries, keeps the rest', async () => {
    fake.setJson(
      '/spot.json',
      spotFeed({
        'ap-northeast-2': { region: 'ap-northeast-2', instanceTypes: 'none' },
        'ap-northeast-3': {
          region: 'ap-northeast-3',
          instanceTypes: [
            {
              type: 'x',
              sizes: [
                size('c7i.xlarge', '0.0802'),
                size('m5.large', '-1'),
                size('r5.large', 'NaN'),
                size('x1e.32xlarge', '1e9'),
                size('bad type', '0.1'),
                7,
              ],
            },
            { type: 'y', sizes: 'no' },
          ],
        },
        'ap-east-1': {
          region: 'ap-east-1',
          instanceTypes: [
            {
              type: 'x',
              sizes: [
                size('c7i.xlarge', '0.1'),
                size('c7i.xlarge', '0.2'),
                size('t3.micro', '0.005'),
              ],
            },
          ],
        },
      }),
    );
    const spot = await readSpotPrices(read('/spot.json'), signal);
    expect(outcome(spot, SEOUL).ok).toBe(false);
    expect(outcome(spot, 'ap-northeast-3')).toMatchObject({ ok: true, skipped: 6 });
    expect(okTypes(spot, 'ap-northeast-3')).toEqual({ 'c7i.xlarge': 80_200 });
    // A type priced twice in one region is left out (which price is right is unknown).
    expect(okTypes(spot, 'ap-east-1')).toEqual({ 't3.micro': 5_000 });
    expect(okTypes(spot, TOKYO)).toEqual({ 'c7i.xlarge': 87_600, 't3.micro': 4_100 });

    fake.setJson(
      '/spot-advisor-data.json',
      adviceFeed({
        'ap-northeast-2': { Windows: {} },
        'ap-northeast-3': {
          Linux: {
            'c7i.xlarge': { s: 55, r: 0 },
            'm5.large': { s: 101, r: 0 },
            'r5.large': { s: 50, r: 9 },
            't3.nano': { s: '50', r: 0 },
            'c5.large': null,
          },
        },
      }),
    );
    const advice = await readSpotAdvice(read('/spot-advisor-data.json'), signal);
    expect(outcome(advice, SEOUL).ok).toBe(false);
    expect(outcome(advice, 'ap-northeast-3')).toMatchObject({ ok: true, skipped: 4 });
    expect(okTypes(advice, TOKYO)['c7i.xlarge']).toEqual({
      interruptionBand: '>20%',
      savingsPct: 61,
    });
  });

  it('fails every region, with the code, when a feed is slow', async () => {
    fake.setFault('/spot.json', { kind: 'hang' });
    const started = performance.now();
    const spot = await readSpotPrices(read('/spot.json'), signal);
    expect(performance.now() - started).toBeLessThan(4000);
    expect(spot.regions).toHaveLength(CODES.length);
    expect(spot.regions.every((r) => !r.ok && r.code === 'UPSTREAM_TIMEOUT')).toBe(true);
  });

  it('fails every region when a feed is malformed, truncated or of the wrong shape', async () => {
    fake.setFault('/spot-advisor-data.json', { kind: 'malformed-json' });
    const malformed = await readSpotAdvice(read('/spot-advisor-data.json'), signal);
    expect(malformed.regions.every((r) => !r.ok && r.code === 'UPSTREAM_INVALID_DATA')).toBe(true);

    fake.setFault('/spot-advisor-data.json', { kind: 'truncated' });
    fake.setJson('/spot-advisor-data.json', adviceFeed());
    const cut = await readSpotAdvice(read('/spot-advisor-data.json'), signal);
    expect(cut.regions.every((r) => !r.ok && r.code === 'UPSTREAM_NETWORK_ERROR')).toBe(true);

    // A complete response whose body is half a document.
    const half = await readSpotAdvice(read('/truncated-advice.json'), signal);
    expect(half.regions.every((r) => !r.ok && r.code === 'UPSTREAM_INVALID_DATA')).toBe(true);

    fake.setFault('/spot.json', { kind: 'wrong-shape' });
    const shape = await readSpotPrices(read('/spot.json'), signal);
    expect(shape.regions.every((r) => !r.ok && r.code === 'UPSTREAM_INVALID_DATA')).toBe(true);
  });

  it('refuses a feed not priced per hour in USD, or advice without usable ranges', async () => {
    const feed = spotFeed();
    fake.setJson('/spot.json', { ...feed, config: { ...feed.config, rate: 'permonth' } });
    const spot = await readSpotPrices(read('/spot.json'), signal);
    expect(spot.regions.every((r) => !r.ok)).toBe(true);

    for (const ranges of [[], [{ index: 0, label: 'rare' }], [RANGES[0], RANGES[0]], 'x']) {
      fake.setJson('/spot-advisor-data.json', { ...adviceFeed(), ranges });
      const advice = await readSpotAdvice(read('/spot-advisor-data.json'), signal);
      expect(advice.regions.every((r) => !r.ok && r.code === 'UPSTREAM_INVALID_DATA')).toBe(true);
    }
  });

  it('fails a region the feed names twice (canonical and legacy name)', async () => {
    fake.setJson(
      '/spot.json',
      spotFeed({
        extra: {
          region: 'ap-northeast-1',
          instanceTypes: [{ type: 'x', sizes: [size('c7i.xlarge', '0.01')] }],
        },
      }),
    );
    const spot = await readSpotPrices(read('/spot.json'), signal);
    expect(outcome(spot, TOKYO)).toMatchObject({ ok: false, code: 'UPSTREAM_INVALID_DATA' });
    expect(outcome(spot, SEOUL).ok).toBe(true);
  });

  it('reads the documents from a file:// directory as well (the bundled mode)', async () => {
    await writeFile(path.join(dir, 'advice.json'), JSON.stringify(adviceFeed()));
    const where = documentLocation(
      `file://${path.join(dir, 'advice.json')}`,
      'PROVIDER_C_SPOT_ADVICE_URL',
    );
    const files = createUpstreamClient({
      baseUrl: where.baseUrl,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 500,
      totalTimeoutMs: 1000,
      maxRetries: 0,
      maxResponseBytes: 1024 * 1024,
      userAgent: 'cloudprice/test',
    });
    const advice = await readSpotAdvice({ ...read(where.path), client: files }, signal);
    expect(advice.regions.every((r) => r.ok)).toBe(true);
  });
});

describe('withSpotFeeds', () => {
  const offer = (regionCode: string, instanceId: string): InstanceOffer => ({
    instanceId,
    instanceName: instanceId,
    vcpu: 4,
    memoryMb: 8192,
    storageGb: 0,
    transferTb: 0,
    networkSpeedGbps: 12.5,
    gpuCount: 0,
    gpuType: null,
    family: 'compute',
    regionCode,
    hourlyMicros: 224_700,
    monthlyMicros: 164_030_000,
    optionPrices: { reserved_1y: { hourlyMicros: 148_180, monthlyMicros: 108_170_000 } },
  });
  const at = new Date('2026-11-29T00:00:00Z');
  const spot: OptionFeedResult<number> = {
    feed: 'spot',
    observedAt: at,
    source: 'AWS spot price feed',
    regions: [
      { regionCode: TOKYO, ok: true, byType: new Map([['c7i.xlarge', 87_600]]), skipped: 0 },
      { regionCode: SEOUL, ok: false, code: 'UPSTREAM_TIMEOUT', message: 'slow' },
    ],
  };
  const advice: OptionFeedResult<{ interruptionBand: '>20%'; savingsPct: number }> = {
    feed: 'spot_advice',
    observedAt: new Date('2025-06-28T08:37:00Z'),
    source: 'AWS Spot Instance Advisor (recorded)',
    regions: [
      {
        regionCode: TOKYO,
        ok: true,
        byType: new Map([['c7i.xlarge', { interruptionBand: '>20%', savingsPct: 61 }]]),
        skipped: 0,
      },
    ],
  };

  it('adds the spot price and the advice where the feeds gave them, touching nothing else', () => {
    const [tokyo, seoul, other] = withSpotFeeds(
      [offer(TOKYO, 'c7i.xlarge'), offer(SEOUL, 'c7i.xlarge'), offer(TOKYO, 'm5.large')],
      spot,
      advice,
    );
    expect(tokyo?.optionPrices).toEqual({
      reserved_1y: { hourlyMicros: 148_180, monthlyMicros: 108_170_000 },
      spot: { hourlyMicros: 87_600, monthlyMicros: 63_950_000, observedAt: at },
    });
    expect(tokyo?.spotAdvice).toEqual({
      interruptionBand: '>20%',
      savingsPct: 61,
      observedAt: new Date('2025-06-28T08:37:00Z'),
      source: 'AWS Spot Instance Advisor (recorded)',
    });
    expect(tokyo?.hourlyMicros).toBe(224_700);
    // Seoul's feed failed: its offer comes back as it was.
    expect(seoul).toEqual(offer(SEOUL, 'c7i.xlarge'));
    expect(other).toEqual(offer(TOKYO, 'm5.large'));
  });

  it('is the identity without feeds', () => {
    const offers = [offer(TOKYO, 'c7i.xlarge')];
    expect(withSpotFeeds(offers)).toEqual(offers);
  });
});

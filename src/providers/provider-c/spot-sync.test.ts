// provider_c's adapter reading its offer files and both spot feeds from one real local HTTP
// server, the feeds in their documented layouts and misbehaving: slow (past the upstream
// timeout), malformed, truncated, missing one of our regions. A failed feed fails only its own
// option, region by region: those regions are in keptOptions, and on-demand is complete.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../../../test/support/fake-upstream.js';
import {
  adviceWithout,
  recordedSpotAdvice,
  spotPriceFeed,
} from '../../../test/support/spot-feed-docs.js';
import type { InstanceOffer, ProviderCatalog } from '../../catalog/offers.js';
import {
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import type { ProviderAdapterContext } from '../provider-definition.js';
import { createProviderCAdapter } from './adapter.js';
import { BUNDLED_SPOT_ADVICE } from './spot-advice-provenance.js';
import { spotFeedSources } from './spot-sync.js';

const REGIONS = [
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-east-1',
];
const SPOT = '/feeds/spot.json';
const ADVICE = '/feeds/spot-advisor-data.json';

/** Every region of ours with m5.large and t3.micro, which the test offer files all hold. */
const PRICES = Object.fromEntries(
  REGIONS.map((r, i) => [r, { 'm5.large': `0.04${i}1`, 't3.micro': '0.0041', 'x9.huge': 'N/A*' }]),
);

/** The upstream settings of a live sync, with a total timeout a slow feed runs past. */
const SETTINGS = {
  connectTimeoutMs: 500,
  firstByteTimeoutMs: 400,
  totalTimeoutMs: 1_200,
  maxRetries: 0,
  maxResponseBytes: 64 * 1024 * 1024,
  userAgent: 'cloudprice-test',
};

/** On-demand as the offer files give it: what a feed's failure must never touch. */
function onDemand(offers: readonly InstanceOffer[]) {
  return offers.map((o) => `${o.regionCode} ${o.instanceId} ${o.hourlyMicros} ${o.monthlyMicros}`);
}

function find(catalog: ProviderCatalog, region: string, type: string): InstanceOffer {
  const offer = catalog.offers.find((o) => o.regionCode === region && o.instanceId === type);
  if (offer === undefined) throw new Error(`no ${type} in ${region}`);
  return offer;
}

describe('provider_c sync with its spot feeds over HTTP', () => {
  let fake: FakeUpstream;
  const clients: ClosableUpstreamClient[] = [];
  let baseline: ProviderCatalog;

  function client(baseUrl: string): ClosableUpstreamClient {
    const created = createUpstreamClient({ ...SETTINGS, baseUrl });
    clients.push(created);
    return created;
  }

  function sync(feeds: ProviderAdapterContext['optionFeeds']): Promise<ProviderCatalog> {
    const context: ProviderAdapterContext = { optionFeeds: feeds, upstreamClient: client };
    return createProviderCAdapter({
      client: client(`${fake.url}/provider_c/`),
      spotFeeds: spotFeedSources(context),
    }).fetchCatalog(AbortSignal.timeout(30_000));
  }

  const both = () =>
    sync({
      spot: { url: `${fake.url}${SPOT}`, setting: 'PROVIDER_C_SPOT_URL', bundled: false },
      spot_advice: {
        url: `${fake.url}${ADVICE}`,
        setting: 'PROVIDER_C_SPOT_ADVICE_URL',
        bundled: false,
      },
    });

  beforeAll(async () => {
    fake = await startFakeUpstream();
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
    baseline = await sync({});
  });

  afterEach(() => {
    fake.clearFaults();
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await fake.close();
  });

  it('without feeds: no option figures, no optionFeeds, no keptOptions', () => {
    expect(baseline.optionFeeds).toBeUndefined();
    expect(baseline.keptOptions).toBeUndefined();
    expect(baseline.offers.some((o) => o.optionPrices?.spot ?? o.spotAdvice)).toBe(false);
    expect(new Set(baseline.offers.map((o) => o.regionCode))).toEqual(new Set(REGIONS));
  });

  it('good feeds: spot prices and advice on the offers, every region ok, nothing kept', async () => {
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
    const catalog = await both();
    expect(catalog.optionFeeds).toEqual([
      { feed: 'spot', okRegions: REGIONS, failedRegions: [] },
      { feed: 'spot_advice', okRegions: REGIONS, failedRegions: [] },
    ]);
    expect(catalog.keptOptions).toEqual([]);
    expect(onDemand(catalog.offers)).toEqual(onDemand(baseline.offers));
    const tokyo = find(catalog, 'ap-northeast-1', 'm5.large');
    // 0.0401 USD/h; monthly = hourly x 730, rounded half-up to the cent: 29.273 -> 29.27.
    expect(tokyo.optionPrices?.spot).toMatchObject({
      hourlyMicros: 40_100,
      monthlyMicros: 29_270_000,
    });
    expect(tokyo.spotAdvice).toMatchObject({ interruptionBand: '>20%', savingsPct: 66 });
    expect(tokyo.spotAdvice?.source).toBe(
      `AWS Spot Instance Advisor, live (${new URL(fake.url).host})`,
    );
    expect(find(catalog, 'ap-east-1', 't3.micro').spotAdvice).toMatchObject({
      interruptionBand: '10-15%',
      savingsPct: 71,
    });
  });

  it('a slow spot feed (past the upstream timeout): spot fails everywhere, advice and on-demand stay', async () => {
    fake.setJson(SPOT, spotPriceFeed(PRICES));
    fake.setJson(ADVICE, recordedSpotAdvice());
    fake.setFault(SPOT, { kind: 'slow-drip', intervalMs: 200 });
    const started = Date.now();
    const catalog = await both();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(catalog.optionFeeds?.[0]).toEqual({
      feed: 'spot',
      okRegions: [],
      failedRegions: REGIONS.map((regionCode) => ({
        regionCode,
        code: 'UPSTREAM_TIMEOUT',
        message: expect.stringContaining('GET /spot.json') as unknown,
      })),
    });
    expect(catalog.optionFeeds?.[1]).toMatchObject({ feed: 'spot_advice', okRegions: REGIONS });
    expect(catalog.keptOptions).toEqual(
      REGIONS.map((regionCode) => ({ regionCode, option: 'spot' })),
    );
    expect(onDemand(catalog.offers)).toEqual(onDemand(baseline.offers));
    expect(catalog.offers.some((o) => o.optionPrices?.spot)).toBe(false);
    expect(find(catalog, 'ap-northeast-1', 'm5.large').spotAdvice).toBeDefined();
  });

  it.each([
    ['malformed JSON', { kind: 'malformed-json' } as const, 'UPSTREAM_INVALID_DATA'],
    ['a truncated body', { kind: 'truncated' } as const, 'UPSTREAM_NETWORK_ERROR'],
    ['valid JSON of the wrong shape', { kind: 'wrong-shape' } as const, 'UPSTREAM_INVALID_DATA'],
  ])(
    'advice feed with %s: advice fails in every region, kept; spot and on-demand applied',
    async (_name, fault, code) => {
      fake.setJson(SPOT, spotPriceFeed(PRICES));
      fake.setFault(ADVICE, fault);
      const catalog = await both();
      expect(catalog.optionFeeds?.[0]).toMatchObject({ feed: 'spot', okRegions: REGIONS });
      expect(catalog.optionFeeds?.[1]).toMatchObject({ feed: 'spot_advice', okRegions: [] });
      expect(catalog.optionFeeds?.[1]?.failedRegions.map((f) => [f.regionCode, f.code])).toEqual(
        REGIONS.map((r) => [r, code]),
      );
      expect(catalog.keptOptions).toEqual(
        REGIONS.map((regionCode) => ({ regionCode, option: 'spot_advice' })),
      );
      expect(onDemand(catalog.offers)).toEqual(onDemand(baseline.offers));
      expect(catalog.offers.some((o) => o.spotAdvice)).toBe(false);
      expect(find(catalog, 'ap-east-1', 'm5.large').optionPrices?.spot?.hourlyMicros).toBe(44_100);
    },
  );

  it('feeds missing one of our regions: that region alone fails, for that option alone', async () => {
    const { 'ap-northeast-3': _gone, ...withoutOsaka } = PRICES;
    fake.setJson(SPOT, spotPriceFeed(withoutOsaka));
    fake.setJson(ADVICE, adviceWithout('ap-southeast-1'));
    const catalog = await both();
    const failed = catalog.optionFeeds?.map((f) => [
      f.feed,
      f.okRegions.length,
      f.failedRegions.map((r) => `${r.regionCode} ${r.code}`),
    ]);
    expect(failed).toEqual([
      ['spot', 4, ['ap-northeast-3 UPSTREAM_INVALID_DATA']],
      ['spot_advice', 4, ['ap-southeast-1 UPSTREAM_INVALID_DATA']],
    ]);
    expect(catalog.keptOptions).toEqual([
      { regionCode: 'ap-northeast-3', option: 'spot' },
      { regionCode: 'ap-southeast-1', option: 'spot_advice' },
    ]);
    expect(onDemand(catalog.offers)).toEqual(onDemand(baseline.offers));
    expect(find(catalog, 'ap-northeast-3', 'm5.large').optionPrices?.spot).toBeUndefined();
    expect(find(catalog, 'ap-northeast-3', 'm5.large').spotAdvice).toBeDefined();
    expect(find(catalog, 'ap-southeast-1', 'm5.large').spotAdvice).toBeUndefined();
    expect(find(catalog, 'ap-southeast-1', 'm5.large').optionPrices?.spot).toBeDefined();
  });

  it('an unreachable spot feed (HTTP 503) still gives the whole on-demand catalogue', async () => {
    fake.setFault(SPOT, { kind: 'status', status: 503 });
    const catalog = await both();
    expect(catalog.keptOptions?.filter((k) => k.option === 'spot')).toHaveLength(REGIONS.length);
    expect(catalog.optionFeeds?.[0]?.failedRegions[0]?.code).toBe('UPSTREAM_HTTP_ERROR');
    expect(catalog.regionCodes).toEqual(baseline.regionCodes);
    expect(onDemand(catalog.offers)).toEqual(onDemand(baseline.offers));
  });

  it('the bundled advice is read from disk and dated by its recording (D37)', async () => {
    const requests = fake.requests.length;
    const catalog = await sync({
      spot_advice: {
        url: new URL(
          '../../../test/fixtures/snapshots/provider_c/spot-advisor-data.json',
          import.meta.url,
        ).href,
        setting: 'PROVIDER_C_SPOT_ADVICE_URL',
        bundled: true,
      },
    });
    expect(catalog.optionFeeds).toEqual([
      { feed: 'spot_advice', okRegions: REGIONS, failedRegions: [] },
    ]);
    // Only the offer files came over HTTP: the advice never did.
    expect(fake.requests.slice(requests).some((r) => r.path.startsWith('/feeds/'))).toBe(false);
    expect(find(catalog, 'ap-northeast-1', 'm5.large').spotAdvice).toEqual({
      interruptionBand: '>20%',
      savingsPct: 66,
      observedAt: new Date(BUNDLED_SPOT_ADVICE.observedAt),
      source: BUNDLED_SPOT_ADVICE.source,
    });
  });

  it('an aborted sync stops instead of reading as a failed feed', async () => {
    fake.setFault(SPOT, { kind: 'hang' });
    const controller = new AbortController();
    const adapter = createProviderCAdapter({
      client: client(`${fake.url}/provider_c/`),
      spotFeeds: spotFeedSources({
        optionFeeds: {
          spot: { url: `${fake.url}${SPOT}`, setting: 'PROVIDER_C_SPOT_URL', bundled: false },
        },
        upstreamClient: (baseUrl) => client(baseUrl),
      }),
    });
    const pending = adapter.fetchCatalog(controller.signal);
    // Abort once the feed request is waiting on the hanging server.
    const waitForFeed = async () => {
      while (!fake.requests.some((r) => r.path === SPOT))
        await new Promise((r) => setTimeout(r, 20));
    };
    fake.clearRequests();
    await waitForFeed();
    controller.abort(new Error('shutting down'));
    await expect(pending).rejects.toThrow();
  });
});

// D51: the Prometheus listener, scraped after real traffic over real sockets; every number that
// traffic should move is checked exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from '../../src/observability/metrics-server.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

type Samples = Map<string, number>;

/** `name{a="x",b="y"} value` lines into a map keyed by the line's name and labels as written. */
function parse(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

describe('metrics on their own listener', () => {
  let t: TestApp;
  let metrics: MetricsServer;
  let url: string;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_PORT: '0' });
    metrics = await startMetricsServer(t.services.metrics.registry!, '127.0.0.1', 0);
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await metrics.close();
    await t.close();
  });

  async function scrape(): Promise<Samples> {
    const response = await fetch(`${metrics.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return parse(await response.text());
  }

  it('count requests, latencies, rate-limit refusals, cache lookups, syncs and the catalogue exactly', async () => {
    const before = await scrape();
    expect(
      before.get('cloudprice_http_requests_total{route="/instances",method="GET",status="200"}'),
    ).toBeUndefined();

    const report = await t.services.sync.sync(['provider_a']);
    expect(report.success).toBe(true);

    const get = (path: string, headers: Record<string, string> = auth) =>
      fetch(`${url}${path}`, { headers }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      });
    // 3 with a key (1 miss, then 2 hits), 2 without (401): 5 of the 100 per minute used.
    for (let i = 0; i < 3; i += 1) expect(await get('/instances?limit=1')).toBe(200);
    for (let i = 0; i < 2; i += 1) expect(await get('/instances?limit=1', {})).toBe(401);
    for (let i = 0; i < 95; i += 1) expect(await get('/instances?limit=1')).toBe(200);
    // The limit is used up: the next two are refused.
    for (let i = 0; i < 2; i += 1) expect(await get('/instances?limit=1')).toBe(429);
    expect(await get('/no-such-path')).toBe(404);
    // A route with a parameter is counted under its pattern; it shares the /instances budget,
    // so it is refused too, and the refusal is counted under that scope.
    expect(await get('/instances/424242/history')).toBe(429);

    const after = await scrape();
    const value = (key: string) => after.get(key);
    expect(
      value('cloudprice_http_requests_total{route="/instances",method="GET",status="200"}'),
    ).toBe(98);
    expect(
      value('cloudprice_http_requests_total{route="/instances",method="GET",status="401"}'),
    ).toBe(2);
    expect(
      value('cloudprice_http_requests_total{route="/instances",method="GET",status="429"}'),
    ).toBe(2);
    expect(
      value('cloudprice_http_requests_total{route="unmatched",method="GET",status="404"}'),
    ).toBe(1);
    expect(
      value(
        'cloudprice_http_requests_total{route="/instances/:id/history",method="GET",status="429"}',
      ),
    ).toBe(1);
    expect(
      value(
        'cloudprice_http_request_duration_seconds_count{route="/instances/:id/history",method="GET",status="429"}',
      ),
    ).toBe(1);
    expect(
      value(
        'cloudprice_http_request_duration_seconds_count{route="/instances",method="GET",status="200"}',
      ),
    ).toBe(98);
    expect(
      value(
        'cloudprice_http_request_duration_seconds_bucket{le="+Inf",route="/instances",method="GET",status="200"}',
      ),
    ).toBe(98);
    // The histogram's exposition (src/observability/http-metrics.ts writes it): cumulative
    // buckets in bound order, every request under the largest finite bound, a positive sum.
    const series = 'route="/instances",method="GET",status="200"';
    const bucketCounts = [...after.entries()]
      .filter(([key]) => key.startsWith('cloudprice_http_request_duration_seconds_bucket{le="'))
      .filter(([key]) => key.endsWith(`,${series}}`) && !key.includes('le="+Inf"'))
      .map(([, count]) => count);
    expect(bucketCounts.length).toBeGreaterThan(5);
    expect(bucketCounts).toEqual([...bucketCounts].sort((a, b) => a - b));
    expect(bucketCounts.at(-1)).toBe(98);
    const sum = value(`cloudprice_http_request_duration_seconds_sum{${series}}`);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(98 * 10);
    expect(value('cloudprice_rate_limit_rejections_total{route="/instances",limit="route"}')).toBe(
      3,
    );
    expect(value('cloudprice_cache_lookups_total{cache="instances",result="miss"}')).toBe(1);
    expect(value('cloudprice_cache_lookups_total{cache="instances",result="hit"}')).toBe(97);
    expect(value('cloudprice_syncs_total{provider="provider_a",outcome="success"}')).toBe(1);
    expect(
      value('cloudprice_sync_duration_seconds_count{provider="provider_a",outcome="success"}'),
    ).toBe(1);

    // Catalogue gauges are read from the store at scrape time.
    const state = (await t.services.store.providerStates()).find(
      (s) => s.provider === 'provider_a',
    )!;
    expect(state.instancesCount).toBeGreaterThan(0);
    expect(value('cloudprice_catalogue_records{provider="provider_a"}')).toBe(state.instancesCount);
    expect(value('cloudprice_catalogue_records{provider="provider_b"}')).toBe(0);
    expect(value('cloudprice_last_successful_sync_timestamp_seconds{provider="provider_a"}')).toBe(
      state.lastSuccessAt!.getTime() / 1000,
    );
    expect(
      value('cloudprice_last_successful_sync_timestamp_seconds{provider="provider_b"}'),
    ).toBeUndefined();

    // Exchange rates (the bundled table) and the runtime's own metrics.
    expect(value('cloudprice_exchange_rates_age_seconds')).toBeGreaterThan(0);
    expect(value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('serve only GET /metrics', async () => {
    expect((await fetch(`${metrics.url}/`)).status).toBe(404);
    expect((await fetch(`${metrics.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });
});

describe('without METRICS_PORT', () => {
  it('records nothing and has no registry', async () => {
    const t = await createTestApp();
    try {
      expect(t.services.metrics.enabled).toBe(false);
      expect(t.services.metrics.registry).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

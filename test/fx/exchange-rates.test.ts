// Exchange rates as a real upstream (D44): the ECB document over a real local HTTP server,
// through the same upstream client as the providers; a failed refresh keeps the last good rates.
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createExchangeRates } from '../../src/fx/create-exchange-rates.js';
import { formatScaled } from '../../src/catalog/exact-decimal.js';
import type { ExchangeRateService } from '../../src/fx/exchange-rates.js';
import { closedPortUrl, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

const BUNDLED = readFileSync(
  new URL('../../data/snapshots/fx/eurofxref-daily.xml', import.meta.url),
);
// The fake upstream serves the providers' test copy by default; the rates are served from the
// bundled snapshot itself, which is what this suite is about.
const BUNDLED_DIR = new URL('../../data/snapshots', import.meta.url).pathname;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const silent = { info: () => undefined, error: () => undefined };

function service(env: Record<string, string>): ExchangeRateService {
  return createExchangeRates(
    loadConfig({
      UPSTREAM_MAX_RETRIES: '0',
      UPSTREAM_CONNECT_TIMEOUT: '2s',
      UPSTREAM_FIRST_BYTE_TIMEOUT: '500ms',
      UPSTREAM_TOTAL_TIMEOUT: '3s',
      ...env,
    }),
    silent,
  );
}

const usd = (rates: ExchangeRateService) => {
  const rate = rates.current()?.perEur.get('USD');
  return rate === undefined ? undefined : formatScaled(rate.units, rate.scale);
};

describe('ECB rates refresh', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function fake(root?: string): Promise<FakeUpstream> {
    const server = await startFakeUpstream({ root: root ?? BUNDLED_DIR });
    cleanups.push(() => server.close());
    return server;
  }

  it('reads live rates over HTTP with an XML Accept header and reports them healthy', async () => {
    const upstream = await fake();
    const rates = service({ FX_RATES_URL: `${upstream.url}/fx/eurofxref-daily.xml` });
    expect(await rates.refresh()).toEqual({ ok: true, changed: true });
    expect(usd(rates)).toBe('1.1269');
    expect(rates.currencies()).toContain('KRW');
    expect(rates.currencies()[0]).toBe('USD');
    expect(upstream.requests[0]?.headers.accept).toContain('xml');
    const health = rates.health();
    expect(health).toMatchObject({ status: 'healthy', as_of: '2026-10-06', kind: 'live' });
    expect(health.last_refresh).toMatch(ISO_MS);
    expect(health.source).toContain('European Central Bank');
    expect(health.source).toContain('127.0.0.1');
  });

  it('keeps the last good rates when a refresh fails, and reports degraded with the error', async () => {
    const upstream = await fake();
    const rates = service({ FX_RATES_URL: `${upstream.url}/fx/eurofxref-daily.xml` });
    await rates.refresh();
    const before = rates.current();
    const lastRefresh = rates.health().last_refresh;
    for (const fault of [
      { kind: 'status', status: 503 },
      { kind: 'wrong-content-type' },
      { kind: 'hang' },
      { kind: 'oversized', bytes: 5 * 1024 * 1024 },
    ] as const) {
      upstream.setFault('*', fault);
      expect(await rates.refresh()).toEqual({ ok: false, changed: false });
      expect(rates.current()).toBe(before);
      const health = rates.health();
      expect(health.status).toBe('degraded');
      expect(health.last_refresh).toBe(lastRefresh);
      expect(health.error).toEqual(expect.any(String));
    }
    upstream.clearFaults();
    expect((await rates.refresh()).ok).toBe(true);
    expect(rates.health().status).toBe('healthy');
    expect(rates.health().error).toBeUndefined();
  });

  it('names the failure: a timeout, a refused content type, an oversized body', async () => {
    const upstream = await fake();
    const rates = service({ FX_RATES_URL: `${upstream.url}/fx/eurofxref-daily.xml` });
    upstream.setFault('*', { kind: 'hang' });
    await rates.refresh();
    expect(rates.health().error).toMatch(/no response within/);
    upstream.setFault('*', { kind: 'wrong-content-type' });
    await rates.refresh();
    expect(rates.health().error).toMatch(/content type.*expected XML/);
    upstream.setFault('*', { kind: 'oversized', bytes: 5 * 1024 * 1024, declareLength: true });
    await rates.refresh();
    expect(rates.health().error).toMatch(/exceeds 1048576 bytes/);
  });

  it('caps a file:// source at 1 MiB too', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cloudprice-fx-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(path.join(root, 'big.xml'), Buffer.alloc(2 * 1024 * 1024, 0x20));
    const rates = service({ FX_RATES_URL: `file://${root}/big.xml` });
    expect((await rates.refresh()).ok).toBe(false);
    expect(rates.health().error).toMatch(/exceeds 1048576 bytes/);
  });

  it('starts on the bundled recording when the live source never answers, and says so', async () => {
    const rates = service({ FX_RATES_URL: `${await closedPortUrl()}/eurofxref-daily.xml` });
    expect((await rates.refresh()).ok).toBe(false);
    expect(usd(rates)).toBe('1.1269');
    expect(rates.health()).toMatchObject({
      status: 'unhealthy',
      as_of: '2026-10-06',
      kind: 'snapshot',
      last_refresh: null,
    });
    expect(rates.health().source).toContain('bundled recording');
  });

  it('tells listeners only when the rates changed', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'cloudprice-fx-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(path.join(root, 'fx'));
    const file = path.join(root, 'fx', 'eurofxref-daily.xml');
    writeFileSync(file, BUNDLED);
    const upstream = await fake(root);
    const rates = service({ FX_RATES_URL: `${upstream.url}/fx/eurofxref-daily.xml` });
    let changes = 0;
    rates.onChange(() => (changes += 1));
    await rates.refresh();
    await rates.refresh();
    expect(changes).toBe(1);
    writeFileSync(
      file,
      BUNDLED.toString('utf8')
        .replace("time='2026-10-06'", "time='2026-10-07'")
        .replace("rate='1.1269'", "rate='1.1301'"),
    );
    expect(await rates.refresh()).toEqual({ ok: true, changed: true });
    expect(changes).toBe(2);
    expect(usd(rates)).toBe('1.1301');
    expect(rates.current()?.asOf).toBe('2026-10-07');
  });

  it('reads the bundled file by default: a default start reports healthy rates', async () => {
    const t: TestApp = await createTestApp();
    cleanups.push(() => t.close());
    const response = await t.app.inject({ method: 'GET', url: '/health', headers: auth });
    const rates = response.json<{
      components: { exchange_rates: Record<string, unknown> };
    }>().components.exchange_rates;
    expect(rates).toMatchObject({ status: 'healthy', as_of: '2026-10-06', kind: 'snapshot' });
    expect(rates.last_refresh).toMatch(ISO_MS);
    expect(JSON.stringify(rates)).not.toContain('/data/snapshots');
  });

  it('refreshes with every POST /sync, and a failing rates source does not fail the sync', async () => {
    const upstream = await fake();
    const t = await createTestApp({
      FX_RATES_URL: `${upstream.url}/fx/eurofxref-daily.xml`,
      UPSTREAM_MAX_RETRIES: '0',
    });
    cleanups.push(() => t.close());
    const fxRequests = () => upstream.requests.filter((r) => r.path.startsWith('/fx/')).length;
    const before = fxRequests();
    upstream.setFault('/fx/', { kind: 'status', status: 500 });
    const sync = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { providers: ['provider_b'] },
    });
    expect(sync.statusCode).toBe(200);
    expect(fxRequests()).toBe(before + 1);
    expect(t.services.rates.health().status).toBe('degraded');
    const health = await t.app.inject({ method: 'GET', url: '/health', headers: auth });
    expect(health.json<{ status: string }>().status).not.toBe('healthy');
  });
});

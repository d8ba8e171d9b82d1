// Regression (issue 15 item 6): provider_a and provider_b documents were read whole under the
// 1 GiB UPSTREAM_MAX_BYTES meant for provider_c's streamed region files. JSON documents now have
// their own cap, UPSTREAM_JSON_MAX_BYTES (default 8 MiB); streamed files keep the large one.
// A real local upstream serves the documents; an oversize one fails that provider's sync with
// UPSTREAM_TOO_LARGE and leaves its stored catalogue exactly as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderName } from '../../src/catalog/model.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, FIXTURE_SNAPSHOTS, type TestApp } from '../support/test-app.js';
import { readAllPricing } from './catalog-file.js';

const PROVIDERS: readonly ProviderName[] = ['provider_a', 'provider_b', 'provider_c'];
const MIB = 1024 * 1024;
/** D4: the client gets the coded message; the byte count goes to the log. */
const TOO_LARGE_MESSAGE =
  'An upstream document exceeded the configured size limit; the previous catalogue is unchanged';

interface ProviderResult {
  provider: ProviderName;
  success: boolean;
  error_details?: { code: string; message: string };
}

async function syncAll(t: TestApp): Promise<Map<ProviderName, ProviderResult>> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sync',
    headers: auth,
    payload: { providers: PROVIDERS },
  });
  expect(response.statusCode).toBe(200);
  const results = response.json<{ data: { providers: ProviderResult[] } }>().data.providers;
  return new Map(results.map((r) => [r.provider, r]));
}

/** One app whose three providers read one fake upstream serving the test snapshots. */
async function appOnFake(env: Record<string, string>): Promise<{ t: TestApp; fake: FakeUpstream }> {
  const fake = await startFakeUpstream({ root: FIXTURE_SNAPSHOTS });
  const t = await createTestApp({
    PROVIDER_A_URL: `${fake.url}/provider_a`,
    PROVIDER_B_URL: `${fake.url}/provider_b`,
    PROVIDER_C_URL: `${fake.url}/provider_c`,
    UPSTREAM_MAX_RETRIES: '0',
    ...env,
  });
  return { t, fake };
}

describe('UPSTREAM_JSON_MAX_BYTES (default 8 MiB) caps provider_a and provider_b documents', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await appOnFake({}));
    const first = await syncAll(t);
    expect([...first.values()].map((r) => [r.provider, r.success])).toEqual(
      PROVIDERS.map((p) => [p, true]),
    );
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a 64 MiB provider_a document (far under UPSTREAM_MAX_BYTES, 1 GiB) fails the sync, catalogue kept', async () => {
    const before = readAllPricing(t.services.config.databaseUrl);
    fake.clearRequests();
    fake.setFault('/provider_a/', { kind: 'oversized', bytes: 64 * MIB });
    let results;
    try {
      results = await syncAll(t);
    } finally {
      fake.clearFaults();
    }
    expect(results.get('provider_a')).toMatchObject({
      success: false,
      error_details: { code: 'UPSTREAM_TOO_LARGE', message: TOO_LARGE_MESSAGE },
    });
    // The client stopped reading at the 8 MiB cap (socket buffers hold a few MiB more).
    const served = fake.requests
      .filter((r) => r.path.startsWith('/provider_a/'))
      .reduce((n, r) => n + r.bodyBytesSent, 0);
    expect(served).toBeLessThan(16 * MIB);
    expect(results.get('provider_b')?.success).toBe(true);
    expect(results.get('provider_c')?.success).toBe(true);
    expect(readAllPricing(t.services.config.databaseUrl).provider_a).toEqual(before.provider_a);
  });
});

describe('a small UPSTREAM_JSON_MAX_BYTES leaves provider_c streamed files under UPSTREAM_MAX_BYTES', () => {
  const JSON_CAP = 64 * 1024;
  let t: TestApp;
  let fake: FakeUpstream;
  beforeAll(async () => {
    ({ t, fake } = await appOnFake({ UPSTREAM_JSON_MAX_BYTES: String(JSON_CAP) }));
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('syncs all three: region files of 80 to 113 KB are streamed, not held as JSON documents', async () => {
    const results = await syncAll(t);
    expect([...results.values()].map((r) => [r.provider, r.success])).toEqual(
      PROVIDERS.map((p) => [p, true]),
    );
    const regionFiles = fake.requests.filter((r) => /\/AmazonEC2\/current\/ap-/.test(r.path));
    expect(Math.max(...regionFiles.map((r) => r.bodyBytesSent))).toBeGreaterThan(JSON_CAP);
  });

  it('a provider_b document declared larger than the cap is refused before its body is read', async () => {
    const before = readAllPricing(t.services.config.databaseUrl);
    fake.setFault('/provider_b/', { kind: 'oversized', bytes: MIB, declareLength: true });
    let results;
    try {
      results = await syncAll(t);
    } finally {
      fake.clearFaults();
    }
    expect(results.get('provider_b')).toMatchObject({
      success: false,
      error_details: { code: 'UPSTREAM_TOO_LARGE', message: TOO_LARGE_MESSAGE },
    });
    expect(readAllPricing(t.services.config.databaseUrl).provider_b).toEqual(before.provider_b);
  });
});

describe('UPSTREAM_JSON_MAX_BYTES configuration', () => {
  it.each(['8MB', '-1', '1023', String(256 * MIB + 1)])(
    '%s stops start-up with one line naming the variable',
    (value) => {
      expect(() => loadConfig({ UPSTREAM_JSON_MAX_BYTES: value })).toThrow(
        new ConfigError(
          `UPSTREAM_JSON_MAX_BYTES must be a whole number from 1024 to ${256 * MIB}, got "${value}"`,
        ),
      );
    },
  );

  it('defaults to 8 MiB, beside UPSTREAM_MAX_BYTES at 1 GiB', () => {
    const { upstream } = loadConfig({});
    expect([upstream.maxJsonBytes, upstream.maxResponseBytes]).toEqual([8 * MIB, 1024 * MIB]);
  });
});

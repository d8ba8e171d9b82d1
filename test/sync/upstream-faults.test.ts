// Every way an upstream can fail, one provider at a time, during a sync of all three (D22, D23,
// D32): the request ends in bounded time, the faulted provider reports the specific code, the
// other two succeed, the faulted provider's stored catalogue is untouched, and /health shows
// it degraded with the error.
//
// Each provider reads its own fake upstream (serving data/snapshots/), so a fault can take a
// whole upstream ('*') and "connection refused" is that upstream closed for good (run last).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
/** The three real providers, by name (this suite serves each one's upstream format). */
type ProviderName = 'provider_a' | 'provider_b' | 'provider_c';
import type { UpstreamErrorCode } from '../../src/sync/upstream/upstream-error.js';
import {
  startFakeUpstream,
  type FakeFaultSetting,
  type FakeUpstream,
} from '../support/fake-upstream.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';
import { readAllPricing } from './catalog-file.js';

const TOTAL_MS = 3_000;
const MAX_BYTES = 4 * 1024 * 1024;
const PROVIDERS: readonly ProviderName[] = ['provider_a', 'provider_b', 'provider_c'];
const EC2 = '/provider_c/offers/v1.0/aws/AmazonEC2/current';

interface ProviderResult {
  provider: ProviderName;
  success: boolean;
  duration_ms: number;
  error?: string;
  error_details?: { code: string; message: string };
}

interface FaultCase {
  readonly name: string;
  readonly provider: ProviderName;
  /** Path prefix on that provider's fake upstream, or '*' for every request to it. */
  readonly where?: string;
  /** The fault, or 'refused' for an upstream that stopped listening. */
  readonly fault: FakeFaultSetting | 'refused';
  readonly code: UpstreamErrorCode;
  /** Requests the faulted upstream must have received (retries included), when it is fixed. */
  readonly attempts?: number;
  /** What the client is told (error_details.message), when the case checks it. */
  readonly message?: RegExp;
}

const CASES: readonly FaultCase[] = [
  {
    name: 'reset before headers',
    provider: 'provider_b',
    fault: { kind: 'reset' },
    code: 'UPSTREAM_NETWORK_ERROR',
    attempts: 3,
  },
  {
    name: 'reset mid-body',
    provider: 'provider_c',
    fault: { kind: 'reset', when: 'mid-body' },
    code: 'UPSTREAM_NETWORK_ERROR',
    attempts: 3,
  },
  { name: 'hang', provider: 'provider_a', fault: { kind: 'hang' }, code: 'UPSTREAM_TIMEOUT' },
  {
    name: 'slow drip',
    provider: 'provider_b',
    fault: { kind: 'slow-drip', intervalMs: 50 },
    code: 'UPSTREAM_TIMEOUT',
    attempts: 1,
  },
  {
    name: 'truncated body',
    provider: 'provider_c',
    fault: { kind: 'truncated' },
    code: 'UPSTREAM_NETWORK_ERROR',
    attempts: 3,
  },
  {
    name: 'HTTP 500',
    provider: 'provider_a',
    fault: { kind: 'status', status: 500 },
    code: 'UPSTREAM_HTTP_ERROR',
    attempts: 3,
  },
  {
    name: 'HTTP 502',
    provider: 'provider_b',
    fault: { kind: 'status', status: 502 },
    code: 'UPSTREAM_HTTP_ERROR',
    attempts: 3,
  },
  {
    name: 'HTTP 503',
    provider: 'provider_c',
    fault: { kind: 'status', status: 503 },
    code: 'UPSTREAM_HTTP_ERROR',
    attempts: 3,
  },
  {
    name: 'HTTP 429 with Retry-After',
    provider: 'provider_a',
    fault: { kind: 'status', status: 429, retryAfter: '1' },
    code: 'UPSTREAM_HTTP_ERROR',
    attempts: 3,
  },
  // A 404 is not retried: a second attempt would have succeeded (times: 1), yet the sync fails.
  {
    name: 'transient 404',
    provider: 'provider_b',
    fault: { kind: 'status', status: 404, times: 1 },
    code: 'UPSTREAM_HTTP_ERROR',
    attempts: 1,
  },
  {
    name: 'malformed JSON',
    provider: 'provider_c',
    fault: { kind: 'malformed-json' },
    code: 'UPSTREAM_INVALID_DATA',
    attempts: 1,
  },
  {
    name: 'valid JSON of the wrong shape',
    provider: 'provider_a',
    fault: { kind: 'wrong-shape' },
    code: 'UPSTREAM_INVALID_DATA',
    attempts: 1,
  },
  {
    name: 'wrong content type',
    provider: 'provider_b',
    fault: { kind: 'wrong-content-type' },
    code: 'UPSTREAM_INVALID_DATA',
    attempts: 1,
  },
  {
    name: 'redirect to another host',
    provider: 'provider_c',
    fault: { kind: 'redirect', location: 'OTHER_HOST/provider_c/offers/v1.0/aws/index.json' },
    code: 'UPSTREAM_REDIRECT_REFUSED',
    attempts: 1,
    message: /another host/,
  },
  // Issue 35 item 10: a loop on the upstream's own host is no "other host".
  {
    name: 'same-origin redirect loop',
    provider: 'provider_b',
    fault: { kind: 'redirect', location: '/provider_b/loop', status: 302 },
    code: 'UPSTREAM_REDIRECT_REFUSED',
    attempts: 4,
    message: /^(?!.*another host).*too many redirects \(a redirect loop\)/,
  },
  {
    name: 'oversized streamed body',
    provider: 'provider_a',
    fault: { kind: 'oversized', bytes: 64 * 1024 * 1024 },
    code: 'UPSTREAM_TOO_LARGE',
    attempts: 1,
  },
  {
    name: 'oversized declared body',
    provider: 'provider_b',
    fault: { kind: 'oversized', bytes: 64 * 1024 * 1024, declareLength: true },
    code: 'UPSTREAM_TOO_LARGE',
    attempts: 1,
  },
  // provider_c's region files are streamed: faults after some regions were read already.
  {
    name: 'slow drip in the first region file',
    provider: 'provider_c',
    where: `${EC2}/ap-northeast-1/`,
    fault: { kind: 'slow-drip', intervalMs: 50 },
    code: 'UPSTREAM_TIMEOUT',
  },
  {
    name: 'truncated last region file',
    provider: 'provider_c',
    where: `${EC2}/ap-east-1/`,
    fault: { kind: 'truncated' },
    code: 'UPSTREAM_NETWORK_ERROR',
  },
  {
    name: 'oversized declared last region file',
    provider: 'provider_c',
    where: `${EC2}/ap-east-1/`,
    fault: { kind: 'oversized', bytes: 64 * 1024 * 1024, declareLength: true },
    code: 'UPSTREAM_TOO_LARGE',
  },
  // The fake's endless body is a JSON array: the offer-file scanner refuses it at its first
  // byte (not an object), long before the size cap, and stops reading (checked below).
  {
    name: 'endless non-object last region file',
    provider: 'provider_c',
    where: `${EC2}/ap-east-1/`,
    fault: { kind: 'oversized', bytes: 64 * 1024 * 1024 },
    code: 'UPSTREAM_INVALID_DATA',
  },
  {
    name: 'malformed last region file',
    provider: 'provider_c',
    where: `${EC2}/ap-east-1/`,
    fault: { kind: 'malformed-json' },
    code: 'UPSTREAM_INVALID_DATA',
  },
  {
    name: 'HTTP 503 on the last region file',
    provider: 'provider_c',
    where: `${EC2}/ap-east-1/`,
    fault: { kind: 'status', status: 503 },
    code: 'UPSTREAM_HTTP_ERROR',
  },
  // Last: the upstream is closed for good.
  {
    name: 'connection refused',
    provider: 'provider_a',
    fault: 'refused',
    code: 'UPSTREAM_NETWORK_ERROR',
  },
];

describe('POST /sync with a faulty upstream for one provider', () => {
  let t: TestApp;
  const fakes = {} as Record<ProviderName, FakeUpstream>;
  let minute = 0;

  async function syncAll() {
    minute += 1;
    t.setNow(FIXED_NOW + minute * 60_000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: PROVIDERS },
    });
    return { response };
  }

  beforeAll(async () => {
    for (const provider of PROVIDERS) fakes[provider] = await startFakeUpstream();
    t = await createTestApp({
      PROVIDER_A_URL: `${fakes.provider_a.url}/provider_a`,
      PROVIDER_B_URL: `${fakes.provider_b.url}/provider_b`,
      PROVIDER_C_URL: `${fakes.provider_c.url}/provider_c`,
      UPSTREAM_CONNECT_TIMEOUT: '500ms',
      UPSTREAM_FIRST_BYTE_TIMEOUT: '1s',
      UPSTREAM_TOTAL_TIMEOUT: `${TOTAL_MS}ms`,
      UPSTREAM_MAX_RETRIES: '2',
      UPSTREAM_MAX_BYTES: String(MAX_BYTES),
    });
    const { response } = await syncAll();
    expect(response.statusCode).toBe(200);
    const results = response.json<{ data: { providers: ProviderResult[] } }>().data.providers;
    expect(results.map((r) => [r.provider, r.success, r.error])).toEqual(
      PROVIDERS.map((p) => [p, true, undefined]),
    );
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(PROVIDERS.map((p) => fakes[p].close()));
  });

  it.each(CASES.map((c) => [c.name, c.provider, c] as const))(
    '%s at %s',
    async (_name, provider, testCase) => {
      const fake = fakes[provider];
      const dbFile = t.services.config.databaseUrl;
      const before = readAllPricing(dbFile);
      expect(before[provider]!.length).toBeGreaterThan(0);
      fake.clearRequests();
      if (testCase.fault === 'refused') {
        await fake.close();
      } else {
        const fault: FakeFaultSetting =
          testCase.fault.kind === 'redirect'
            ? {
                ...testCase.fault,
                location: testCase.fault.location.replace('OTHER_HOST', fake.otherHostUrl),
              }
            : testCase.fault;
        fake.setFault(testCase.where ?? '*', fault);
      }

      let result: Awaited<ReturnType<typeof syncAll>>;
      try {
        result = await syncAll();
      } finally {
        fake.clearFaults();
      }
      expect(result.response.statusCode).toBe(200);
      const data = result.response.json<{
        success: boolean;
        data: { success: boolean; providers: ProviderResult[] };
      }>().data;
      expect(data.success).toBe(false);
      const byName = new Map(data.providers.map((r) => [r.provider, r]));
      const failed = byName.get(provider)!;
      // No wall-clock bounds here: on a loaded machine they measured the machine, not us. That
      // a faulted call gives up is shown by its coded verdict (UPSTREAM_TIMEOUT for the slow
      // cases) and by the attempt counts below; a hang fails the test's own timeout.
      expect(failed.success).toBe(false);
      expect(failed.error_details?.code, failed.error).toBe(testCase.code);
      expect(failed.error).toBe(failed.error_details?.message);
      if (testCase.message !== undefined) expect(failed.error).toMatch(testCase.message);
      for (const other of PROVIDERS.filter((p) => p !== provider)) {
        expect(byName.get(other), `${other}: ${byName.get(other)?.error}`).toMatchObject({
          success: true,
        });
      }
      if (testCase.fault !== 'refused' && testCase.fault.kind === 'oversized') {
        // Whatever the verdict, the client stopped reading long before 64 MiB.
        const served = fake.requests.reduce((n, r) => n + r.bodyBytesSent, 0);
        expect(served).toBeLessThan(16 * 1024 * 1024);
      }
      if (testCase.attempts !== undefined) {
        expect(fake.requests).toHaveLength(testCase.attempts);
      }
      if (testCase.name.includes('Retry-After')) {
        // The upstream's Retry-After (1 s) is honoured between attempts (a lower bound only).
        const [first, second] = fake.requests;
        expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
      }

      // The faulted provider's catalogue is exactly as it was (D22), updated_at included.
      const after = readAllPricing(dbFile);
      expect(after[provider]).toEqual(before[provider]);

      const health = await t.app.inject({ method: 'GET', url: '/health', headers: auth });
      expect(health.statusCode).toBe(503);
      const body = health.json<{
        status: string;
        components: {
          providers: Array<{ name: string; status: string; sync_status: string; error?: string }>;
        };
      }>();
      expect(body.status).toBe('degraded');
      for (const state of body.components.providers) {
        if (state.name === provider) {
          expect(state).toMatchObject({
            status: 'degraded',
            sync_status: 'failed',
            error: failed.error,
          });
        } else {
          expect(state).toMatchObject({ status: 'healthy', sync_status: 'success' });
        }
      }
    },
  );
});

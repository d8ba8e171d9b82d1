// The HTTP client against a real fake upstream that misbehaves: one test per fault, checking
// the exact error code, whether retries happened (requests counted on the fake), and that every
// call ends within its total timeout (plus a generous margin: a hang guard, not a benchmark).

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl, startFakeUpstream } from '../../../test/support/fake-upstream.js';
import type { FakeUpstream } from '../../../test/support/fake-upstream.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamErrorCode } from './upstream-error.js';
import { createUpstreamClient } from './http-upstream-client.js';
import type { ClosableUpstreamClient } from './http-upstream-client.js';
import type { HttpUpstreamClientOptions } from './upstream-client-options.js';

const TYPES = { data: [{ id: 'g6-nanode-1', label: 'Nanode 1GB' }], page: 1, pages: 1, results: 1 };
const TOTAL_MS = 3000;
const MAX_RETRIES = 2;

function optionsFor(baseUrl: string): HttpUpstreamClientOptions {
  return {
    baseUrl,
    connectTimeoutMs: 500,
    firstByteTimeoutMs: 1000,
    totalTimeoutMs: TOTAL_MS,
    maxRetries: MAX_RETRIES,
    maxResponseBytes: 1024 * 1024,
    userAgent: 'cloudprice/test (+https://github.com/cloudprice)',
    retryBaseDelayMs: 20,
    retryMaxDelayMs: 100,
    conditionalCacheEntries: 0,
  };
}

/** Runs `call`, expects an UpstreamError with `code`, and checks it ended within the budget. */
async function expectFailure(
  call: () => Promise<unknown>,
  code: UpstreamErrorCode,
  budgetMs = TOTAL_MS,
) {
  const started = performance.now();
  const err: unknown = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  const elapsed = performance.now() - started;
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).code).toBe(code);
  expect(elapsed).toBeLessThan(budgetMs + 1000);
  return err as UpstreamError;
}

describe('HTTP upstream client against a misbehaving upstream', () => {
  let dir: string;
  let fake: FakeUpstream;
  let client: ClosableUpstreamClient;
  const signal = new AbortController().signal;
  const getTypes = () => client.getJson('/linode/types?page=1', signal);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-upstream-faults-'));
    await mkdir(path.join(dir, 'provider_a', 'linode'), { recursive: true });
    await writeFile(path.join(dir, 'provider_a', 'linode', 'types.json'), JSON.stringify(TYPES));
    fake = await startFakeUpstream({ root: dir });
    client = createUpstreamClient(optionsFor(`${fake.url}/provider_a`));
  });

  beforeEach(() => fake.clearRequests());
  afterEach(() => fake.clearFaults());

  afterAll(async () => {
    await client.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the document when nothing is wrong (baseline for the faults below)', async () => {
    await expect(getTypes()).resolves.toEqual(TYPES);
    expect(fake.requests.map((r) => r.path)).toEqual(['/provider_a/linode/types?page=1']);
  });

  it('fails with UPSTREAM_NETWORK_ERROR when the connection is refused', async () => {
    const refused = createUpstreamClient(optionsFor(`${await closedPortUrl()}/provider_a`));
    try {
      const err = await expectFailure(
        () => refused.getJson('/linode/types', signal),
        'UPSTREAM_NETWORK_ERROR',
      );
      expect(err.message).toMatch(/ECONNREFUSED/);
      expect(err.message).toMatch(new RegExp(`after ${MAX_RETRIES + 1} attempts`));
    } finally {
      await refused.close();
    }
  });

  it('retries after a connection reset and then succeeds', async () => {
    fake.setFault('*', { kind: 'reset', times: 1 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails with UPSTREAM_NETWORK_ERROR once every retry was reset', async () => {
    fake.setFault('*', { kind: 'reset' });
    await expectFailure(getTypes, 'UPSTREAM_NETWORK_ERROR');
    expect(fake.requests).toHaveLength(MAX_RETRIES + 1);
  });

  it('fails with UPSTREAM_TIMEOUT within the total timeout when the upstream hangs', async () => {
    fake.setFault('*', { kind: 'hang' });
    await expectFailure(getTypes, 'UPSTREAM_TIMEOUT');
    // The first-byte timeout (1 s) ended the first attempt, so there was time to retry.
    expect(fake.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('retries after a first-byte timeout and then succeeds', async () => {
    fake.setFault('*', { kind: 'hang', times: 1 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails with UPSTREAM_TIMEOUT at the total timeout when the body drips slowly', async () => {
    fake.setFault('*', { kind: 'slow-drip', intervalMs: 100 });
    const err = await expectFailure(getTypes, 'UPSTREAM_TIMEOUT');
    expect(err.message).toMatch(new RegExp(`within ${TOTAL_MS} ms`));
  });

  it('fails with UPSTREAM_TIMEOUT when the body stalls past the body idle timeout', async () => {
    const stalling = createUpstreamClient({
      ...optionsFor(`${fake.url}/provider_a`),
      maxRetries: 0,
      bodyIdleTimeoutMs: 300,
    });
    try {
      fake.setFault('*', { kind: 'slow-drip', intervalMs: 2000 });
      const err = await expectFailure(
        () => stalling.getJson('/linode/types', signal),
        'UPSTREAM_TIMEOUT',
      );
      expect(err.message).toMatch(/stalled for 300 ms/);
    } finally {
      await stalling.close();
    }
  });

  it('retries a truncated body and fails with UPSTREAM_NETWORK_ERROR', async () => {
    fake.setFault('*', { kind: 'truncated' });
    await expectFailure(getTypes, 'UPSTREAM_NETWORK_ERROR');
    expect(fake.requests).toHaveLength(MAX_RETRIES + 1);
  });

  it('recovers from a truncated body on retry', async () => {
    fake.setFault('*', { kind: 'truncated', times: 1 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    expect(fake.requests).toHaveLength(2);
  });

  it.each([500, 502, 503, 504])(
    'retries HTTP %i, then fails with UPSTREAM_HTTP_ERROR naming the status',
    async (status) => {
      fake.setFault('*', { kind: 'status', status });
      const err = await expectFailure(getTypes, 'UPSTREAM_HTTP_ERROR');
      expect(err.message).toContain(String(status));
      expect(fake.requests).toHaveLength(MAX_RETRIES + 1);
    },
  );

  it('succeeds when a 503 clears before the retries run out', async () => {
    fake.setFault('*', { kind: 'status', status: 503, times: 2 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    expect(fake.requests).toHaveLength(3);
  });

  it('waits for Retry-After (seconds) before retrying a 429', async () => {
    fake.setFault('*', { kind: 'status', status: 429, retryAfter: '1', times: 1 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    const [first, second] = fake.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  it('waits for Retry-After given as an HTTP-date', async () => {
    // HTTP-dates have whole seconds: this one lies 0.5 to 1.5 s ahead.
    const retryAfter = new Date(Date.now() + 1500).toUTCString();
    fake.setFault('*', { kind: 'status', status: 503, retryAfter, times: 1 });
    await expect(getTypes()).resolves.toEqual(TYPES);
    const [first, second] = fake.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(300);
  });

  it('fails at once with UPSTREAM_HTTP_ERROR when Retry-After exceeds the time left', async () => {
    fake.setFault('*', { kind: 'status', status: 429, retryAfter: '60' });
    const err = await expectFailure(getTypes, 'UPSTREAM_HTTP_ERROR', 0);
    expect(err.message).toMatch(/429/);
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry a 404, and the next call succeeds once it clears', async () => {
    fake.setFault('*', { kind: 'status', status: 404, times: 1 });
    const err = await expectFailure(getTypes, 'UPSTREAM_HTTP_ERROR');
    expect(err.message).toMatch(/404/);
    expect(fake.requests).toHaveLength(1);
    await expect(getTypes()).resolves.toEqual(TYPES);
  });

  it('rejects malformed JSON with UPSTREAM_INVALID_DATA without retrying', async () => {
    fake.setFault('*', { kind: 'malformed-json' });
    await expectFailure(getTypes, 'UPSTREAM_INVALID_DATA');
    expect(fake.requests).toHaveLength(1);
  });

  it('hands back valid JSON of the wrong shape unchanged: the adapter validates shape', async () => {
    fake.setFault('*', { kind: 'wrong-shape' });
    await expect(getTypes()).resolves.toEqual({ unexpected: true });
  });

  it('rejects a non-JSON content type with UPSTREAM_INVALID_DATA', async () => {
    fake.setFault('*', { kind: 'wrong-content-type' });
    const err = await expectFailure(getTypes, 'UPSTREAM_INVALID_DATA');
    expect(err.message).toMatch(/text\/html/);
    expect(fake.requests).toHaveLength(1);
  });

  it('rejects an oversized body announced by Content-Length before reading it', async () => {
    fake.setFault('*', { kind: 'oversized', declareLength: true });
    await expectFailure(getTypes, 'UPSTREAM_TOO_LARGE');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.bodyBytesSent).toBeLessThan(50 * 1024 * 1024);
  });

  it('stops an oversized chunked body at the size limit', async () => {
    fake.setFault('*', { kind: 'oversized' }); // 200 MiB, no Content-Length
    await expectFailure(getTypes, 'UPSTREAM_TOO_LARGE');
    expect(fake.requests).toHaveLength(1);
    // The fake stops once the socket is gone: far less than 200 MiB was ever written.
    await expect.poll(() => fake.requests[0]!.closedEarly, { timeout: 2000 }).toBe(true);
    expect(fake.requests[0]!.bodyBytesSent).toBeLessThan(50 * 1024 * 1024);
  });

  it('follows a same-origin redirect', async () => {
    fake.setFault('/provider_a/moved', {
      kind: 'redirect',
      location: '/provider_a/linode/types',
      status: 301,
    });
    await expect(client.getJson('/moved', signal)).resolves.toEqual(TYPES);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/provider_a/moved',
      '/provider_a/linode/types',
    ]);
  });

  it('refuses a redirect to another host with UPSTREAM_REDIRECT_REFUSED', async () => {
    fake.setFault('*', {
      kind: 'redirect',
      location: `${fake.otherHostUrl}/provider_a/linode/types`,
    });
    const err = await expectFailure(getTypes, 'UPSTREAM_REDIRECT_REFUSED');
    expect(err.message).toMatch(/localhost/);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a fourth redirect with UPSTREAM_REDIRECT_REFUSED', async () => {
    fake.setFault('/provider_a/loop', {
      kind: 'redirect',
      location: '/provider_a/loop',
      status: 307,
    });
    await expectFailure(() => client.getJson('/loop', signal), 'UPSTREAM_REDIRECT_REFUSED');
    expect(fake.requests).toHaveLength(4);
  });

  it('stops with UPSTREAM_TIMEOUT when the caller aborts', async () => {
    fake.setFault('*', { kind: 'hang' });
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('shutting down')), 100);
    const err = await expectFailure(
      () => client.getJson('/linode/types', caller.signal),
      'UPSTREAM_TIMEOUT',
      0,
    );
    expect(err.message).toMatch(/cancelled/);
    expect(fake.requests).toHaveLength(1);
  });
});

// getStream against the real fake upstream: retries end when headers arrive; after that the
// size cap, timeouts and truncation surface as an UpstreamError on the stream itself.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../../../test/support/fake-upstream.js';
import type { FakeUpstream } from '../../../test/support/fake-upstream.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamErrorCode } from './upstream-error.js';
import { createUpstreamClient } from './http-upstream-client.js';
import type { ClosableUpstreamClient } from './http-upstream-client.js';

const TOTAL_MS = 3000;
const MAX_BYTES = 1024 * 1024;
const OFFER_PATH = '/offers/v1.0/aws/AmazonEC2/current/ap-northeast-1/index.json';
const OFFER = Buffer.from(
  JSON.stringify({ products: { SKU1: { sku: 'SKU1' } }, pad: 'x'.repeat(50_000) }),
);

/** Reads the stream to the end and expects it to fail with `code` within the budget. */
async function expectStreamFailure(stream: Readable, code: UpstreamErrorCode) {
  const started = performance.now();
  const err: unknown = await buffer(stream).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).code).toBe(code);
  expect(performance.now() - started).toBeLessThan(TOTAL_MS + 1000);
}

describe('HTTP upstream client, getStream', () => {
  let dir: string;
  let fake: FakeUpstream;
  let client: ClosableUpstreamClient;
  const signal = new AbortController().signal;
  const getOffer = () => client.getStream(OFFER_PATH, signal);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-upstream-stream-'));
    const file = path.join(dir, 'provider_c', OFFER_PATH);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, OFFER);
    fake = await startFakeUpstream({ root: dir });
    client = createUpstreamClient({
      baseUrl: `${fake.url}/provider_c`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: TOTAL_MS,
      maxRetries: 2,
      maxResponseBytes: MAX_BYTES,
      userAgent: 'cloudprice/test',
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 100,
    });
  });

  beforeEach(() => fake.clearRequests());
  afterEach(() => fake.clearFaults());

  afterAll(async () => {
    await client.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams the document byte for byte, without conditional-GET validators', async () => {
    expect((await buffer(await getOffer())).equals(OFFER)).toBe(true);
    expect((await buffer(await getOffer())).equals(OFFER)).toBe(true);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(fake.requests[1]?.headers['if-none-match']).toBeUndefined();
  });

  it('retries until the headers arrive: a 503 then the document', async () => {
    fake.setFault('*', { kind: 'status', status: 503, times: 1 });
    expect((await buffer(await getOffer())).equals(OFFER)).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('rejects with UPSTREAM_HTTP_ERROR after the retries when the status stays 502', async () => {
    fake.setFault('*', { kind: 'status', status: 502 });
    await expect(getOffer()).rejects.toMatchObject({ code: 'UPSTREAM_HTTP_ERROR' });
    expect(fake.requests).toHaveLength(3);
  });

  it('rejects with UPSTREAM_TOO_LARGE when Content-Length is over the limit', async () => {
    fake.setFault('*', { kind: 'oversized', declareLength: true });
    await expect(getOffer()).rejects.toMatchObject({ code: 'UPSTREAM_TOO_LARGE' });
  });

  it('errors the stream with UPSTREAM_TOO_LARGE past the limit, and the transfer stops', async () => {
    fake.setFault('*', { kind: 'oversized' });
    await expectStreamFailure(await getOffer(), 'UPSTREAM_TOO_LARGE');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.requests[0]!.bodyBytesSent).toBeLessThan(50 * 1024 * 1024);
  });

  it('errors the stream with UPSTREAM_NETWORK_ERROR on a truncated body, without retrying', async () => {
    fake.setFault('*', { kind: 'truncated' });
    await expectStreamFailure(await getOffer(), 'UPSTREAM_NETWORK_ERROR');
    expect(fake.requests).toHaveLength(1);
  });

  it('errors the stream with UPSTREAM_NETWORK_ERROR on a reset mid-body', async () => {
    fake.setFault('*', { kind: 'reset', when: 'mid-body' });
    await expectStreamFailure(await getOffer(), 'UPSTREAM_NETWORK_ERROR');
  });

  it('errors the stream with UPSTREAM_TIMEOUT when a slow drip outlasts the total timeout', async () => {
    fake.setFault('*', { kind: 'slow-drip', intervalMs: 50 });
    await expectStreamFailure(await getOffer(), 'UPSTREAM_TIMEOUT');
  });

  it('rejects a non-JSON content type with UPSTREAM_INVALID_DATA', async () => {
    fake.setFault('*', { kind: 'wrong-content-type' });
    await expect(getOffer()).rejects.toMatchObject({ code: 'UPSTREAM_INVALID_DATA' });
  });

  it('stops the transfer when the consumer destroys the stream early', async () => {
    const roomy = createUpstreamClient({
      baseUrl: `${fake.url}/provider_c`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: 10_000,
      maxRetries: 0,
      maxResponseBytes: 1024 * 1024 * 1024,
      userAgent: 'cloudprice/test',
    });
    try {
      fake.setFault('*', { kind: 'oversized' });
      const stream = await roomy.getStream(OFFER_PATH, signal);
      for await (const chunk of stream) {
        expect((chunk as Buffer).length).toBeGreaterThan(0);
        break; // leaving the loop destroys the stream
      }
      // The connection is closed now, long before the 10 s total timeout would close it.
      await expect.poll(() => fake.requests[0]!.closedEarly, { timeout: 2000 }).toBe(true);
      expect(fake.requests[0]!.bodyBytesSent).toBeLessThan(50 * 1024 * 1024);
    } finally {
      await roomy.close();
    }
  });
});

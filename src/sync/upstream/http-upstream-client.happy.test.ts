// The HTTP client's normal path against the real fake upstream: base-URL joining, request
// headers, accepted content types and conditional GET.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../../../test/support/fake-upstream.js';
import type { FakeUpstream } from '../../../test/support/fake-upstream.js';
import { createUpstreamClient } from './http-upstream-client.js';
import type { ClosableUpstreamClient } from './http-upstream-client.js';

const TYPES = { data: [{ id: 'g6-standard-2', memory: 4096 }], page: 1, pages: 1, results: 1 };
const USER_AGENT = 'cloudprice/9.9.9 (+https://github.com/cloudprice)';

describe('HTTP upstream client, normal operation', () => {
  let dir: string;
  let fake: FakeUpstream;
  let client: ClosableUpstreamClient;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-upstream-happy-'));
    await mkdir(path.join(dir, 'provider_a', 'linode'), { recursive: true });
    await writeFile(path.join(dir, 'provider_a', 'linode', 'types.json'), JSON.stringify(TYPES));
    fake = await startFakeUpstream({ root: dir });
    client = createUpstreamClient({
      baseUrl: `${fake.url}/provider_a/`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: 3000,
      maxRetries: 2,
      maxResponseBytes: 1024 * 1024,
      userAgent: USER_AGENT,
      retryBaseDelayMs: 20,
    });
  });

  beforeEach(() => fake.clearRequests());

  afterAll(async () => {
    await client.close();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('joins the path to the base URL path and sends our User-Agent and Accept', async () => {
    await expect(client.getJson('/linode/types?page=1', signal)).resolves.toEqual(TYPES);
    const [request] = fake.requests;
    expect(request?.path).toBe('/provider_a/linode/types?page=1');
    expect(request?.headers['user-agent']).toBe(USER_AGENT);
    expect(request?.headers.accept).toBe('application/json');
  });

  it('serves documents set by the test, matched by path and query', async () => {
    fake.setJson('/provider_b/v2/plans', { plans: ['first page'] });
    fake.setJson('/provider_b/v2/plans?cursor=abc', { plans: ['second page'] });
    const b = createUpstreamClient({
      baseUrl: `${fake.url}/provider_b`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: 3000,
      maxRetries: 0,
      maxResponseBytes: 1024,
      userAgent: USER_AGENT,
    });
    try {
      await expect(b.getJson('/v2/plans?per_page=500', signal)).resolves.toEqual({
        plans: ['first page'],
      });
      await expect(b.getJson('/v2/plans?cursor=abc', signal)).resolves.toEqual({
        plans: ['second page'],
      });
    } finally {
      await b.close();
    }
  });

  it.each([
    'application/json; charset=utf-8',
    'application/vnd.api+json',
    'application/octet-stream',
    'binary/octet-stream',
  ])('accepts a body served as %s', async (contentType) => {
    fake.setJson(
      '/provider_a/typed',
      { ok: contentType },
      { headers: { 'Content-Type': contentType } },
    );
    await expect(client.getJson('/typed', signal)).resolves.toEqual({ ok: contentType });
  });

  it('sends If-None-Match on a repeat and reuses the remembered body on 304', async () => {
    const first = await client.getJson('/linode/types', signal);
    const second = await client.getJson('/linode/types', signal);
    expect(second).toEqual(first);
    const [a, b] = fake.requests;
    expect(a?.status).toBe(200);
    expect(a?.headers['if-none-match']).toBeUndefined();
    expect(b?.headers['if-none-match']).toMatch(/^"[0-9a-f]+"$/);
    expect(b?.headers['if-modified-since']).toBeDefined();
    expect(b?.status).toBe(304);
  });

  it('hands out a fresh copy on every 304, so a caller cannot corrupt the memory', async () => {
    const first = (await client.getJson('/linode/types', signal)) as { data: unknown[] };
    first.data.length = 0;
    await expect(client.getJson('/linode/types', signal)).resolves.toEqual(TYPES);
  });

  it('fetches the new body once the document changed', async () => {
    fake.setJson('/provider_a/changing', { version: 1 });
    await expect(client.getJson('/changing', signal)).resolves.toEqual({ version: 1 });
    fake.setJson('/provider_a/changing', { version: 2 });
    await expect(client.getJson('/changing', signal)).resolves.toEqual({ version: 2 });
    expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
    expect(fake.requests[1]?.headers['if-none-match']).toBeDefined();
  });

  it('does not remember bodies over the conditional-GET size limit', async () => {
    const small = createUpstreamClient({
      baseUrl: `${fake.url}/provider_a`,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: 3000,
      maxRetries: 0,
      maxResponseBytes: 1024 * 1024,
      userAgent: USER_AGENT,
      conditionalCacheMaxBodyBytes: 10,
    });
    try {
      await small.getJson('/linode/types', signal);
      await small.getJson('/linode/types', signal);
      expect(fake.requests[1]?.headers['if-none-match']).toBeUndefined();
      expect(fake.requests.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await small.close();
    }
  });
});

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamErrorCode } from './upstream-error.js';
import { createUpstreamClient } from './http-upstream-client.js';
import type { ClosableUpstreamClient } from './http-upstream-client.js';

const TYPES = { data: [{ id: 'g6-nanode-1', memory: 1024 }], page: 1, pages: 1, results: 1 };

async function expectUpstreamError(promise: Promise<unknown>, code: UpstreamErrorCode) {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamError);
  expect((err as UpstreamError).code).toBe(code);
  return err as UpstreamError;
}

describe('file:// upstream', () => {
  let dir: string;
  let client: ClosableUpstreamClient;
  const signal = new AbortController().signal;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-file-upstream-'));
    const base = path.join(dir, 'snapshots', 'provider_a');
    await mkdir(path.join(base, 'linode'), { recursive: true });
    await mkdir(path.join(base, 'offers'), { recursive: true });
    await writeFile(path.join(base, 'linode', 'types.json'), JSON.stringify(TYPES));
    await writeFile(path.join(base, 'offers', 'index.json'), '{"offers":[1,2,3]}');
    await writeFile(path.join(base, 'broken.json'), '{"data": [');
    await writeFile(path.join(base, 'big.json'), JSON.stringify({ pad: 'x'.repeat(5000) }));
    await writeFile(path.join(dir, 'snapshots', 'secret.json'), '{"secret":true}');
    await symlink(path.join(dir, 'snapshots', 'secret.json'), path.join(base, 'link.json'));
    client = createUpstreamClient({
      baseUrl: pathToFileURL(base).href,
      connectTimeoutMs: 500,
      firstByteTimeoutMs: 1000,
      totalTimeoutMs: 3000,
      maxRetries: 2,
      maxResponseBytes: 4096,
      userAgent: 'cloudprice/test',
    });
  });

  afterAll(async () => {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('maps a path without extension to <path>.json and ignores the query', async () => {
    await expect(client.getJson('/linode/types?page=2&page_size=500', signal)).resolves.toEqual(
      TYPES,
    );
    await expect(client.getJson('linode/types', signal)).resolves.toEqual(TYPES);
  });

  it('keeps an explicit extension', async () => {
    await expect(client.getJson('/offers/index.json', signal)).resolves.toEqual({
      offers: [1, 2, 3],
    });
  });

  it('streams the file bytes unchanged', async () => {
    const stream = await client.getStream('/offers/index.json', signal);
    expect(await text(stream)).toBe('{"offers":[1,2,3]}');
  });

  it.each(['/../secret', '/linode/../../secret', '/%2e%2e/secret', '/linode/..%2F..%2Fsecret'])(
    'refuses %s, which leaves the base directory',
    async (escape) => {
      const err = await expectUpstreamError(client.getJson(escape, signal), 'UPSTREAM_HTTP_ERROR');
      expect(err.message).toMatch(/refused/);
    },
  );

  it('refuses a symlink that leads outside the base directory', async () => {
    await expectUpstreamError(client.getJson('/link', signal), 'UPSTREAM_HTTP_ERROR');
  });

  it('reports a missing file as UPSTREAM_HTTP_ERROR not found', async () => {
    const err = await expectUpstreamError(
      client.getJson('/linode/regions', signal),
      'UPSTREAM_HTTP_ERROR',
    );
    expect(err.message).toMatch(/not found/);
    await expectUpstreamError(client.getStream('/nothing-here', signal), 'UPSTREAM_HTTP_ERROR');
    await expectUpstreamError(client.getJson('/linode', signal), 'UPSTREAM_HTTP_ERROR');
  });

  it('rejects malformed JSON with UPSTREAM_INVALID_DATA', async () => {
    await expectUpstreamError(client.getJson('/broken', signal), 'UPSTREAM_INVALID_DATA');
  });

  it('rejects a file over maxResponseBytes with UPSTREAM_TOO_LARGE', async () => {
    await expectUpstreamError(client.getJson('/big', signal), 'UPSTREAM_TOO_LARGE');
    await expectUpstreamError(client.getStream('/big', signal), 'UPSTREAM_TOO_LARGE');
  });

  it('fails with UPSTREAM_TIMEOUT when the caller has already aborted', async () => {
    const aborted = AbortSignal.abort(new Error('shutting down'));
    const err = await expectUpstreamError(
      client.getJson('/linode/types', aborted),
      'UPSTREAM_TIMEOUT',
    );
    expect(err.message).toMatch(/cancelled/);
  });
});

describe('createUpstreamClient options', () => {
  const options = {
    connectTimeoutMs: 500,
    firstByteTimeoutMs: 1000,
    totalTimeoutMs: 3000,
    maxRetries: 2,
    maxResponseBytes: 4096,
    userAgent: 'cloudprice/test',
  };

  it('refuses schemes other than http, https and file', () => {
    expect(() => createUpstreamClient({ ...options, baseUrl: 'ftp://example.test/x' })).toThrow(
      TypeError,
    );
    expect(() => createUpstreamClient({ ...options, baseUrl: 'not a url' })).toThrow(TypeError);
  });

  it('refuses non-positive timeouts and negative retries', () => {
    const baseUrl = 'http://127.0.0.1:9/x';
    expect(() => createUpstreamClient({ ...options, baseUrl, totalTimeoutMs: 0 })).toThrow(
      RangeError,
    );
    expect(() => createUpstreamClient({ ...options, baseUrl, maxRetries: -1 })).toThrow(RangeError);
  });
});

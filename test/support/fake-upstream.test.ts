// The fake upstream is shared by every adapter's tests: pin down the behaviour they rely on.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.js';
import type { FakeUpstream } from './fake-upstream.js';

describe('fake upstream', () => {
  let dir: string;
  let fake: FakeUpstream;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-fake-upstream-'));
    await writeFile(path.join(dir, 'regions.json'), '{"data":["ap-south"]}');
    await writeFile(path.join(path.dirname(dir), `${path.basename(dir)}-outside.json`), '{}');
    fake = await startFakeUpstream({ root: dir });
  });

  beforeEach(() => {
    fake.clearRequests();
    fake.clearFaults();
  });

  afterAll(async () => {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    await rm(path.join(path.dirname(dir), `${path.basename(dir)}-outside.json`), { force: true });
  });

  it('maps /regions?page=2 to regions.json, as JSON with an ETag', async () => {
    const res = await fetch(`${fake.url}/regions?page=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(await res.json()).toEqual({ data: ['ap-south'] });
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await fetch(`${fake.url}/regions`)).headers.get('etag') ?? '';
    const res = await fetch(`${fake.url}/regions`, { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(fake.requests.map((r) => r.status)).toEqual([200, 304]);
  });

  it('answers 404 for missing files and for paths outside its root', async () => {
    expect((await fetch(`${fake.url}/nothing`)).status).toBe(404);
    const escape = `${fake.url}/%2e%2e/${path.basename(dir)}-outside`;
    expect((await fetch(escape)).status).toBe(404);
  });

  it('applies a fault to the next N matching requests only, the latest setting first', async () => {
    fake.setFault('*', { kind: 'status', status: 500 });
    fake.setFault('/regions', { kind: 'status', status: 503, times: 1 });
    expect((await fetch(`${fake.url}/regions`)).status).toBe(503);
    expect((await fetch(`${fake.url}/regions`)).status).toBe(500);
    fake.setFault('*', null);
    expect((await fetch(`${fake.url}/regions`)).status).toBe(200);
  });

  it('closes promptly even while a request hangs', async () => {
    const other = await startFakeUpstream({ root: dir });
    other.setFault('*', { kind: 'hang' });
    const failed = new Promise<string>((resolve) => {
      get(`${other.url}/regions`, () => resolve('answered')).on('error', () => resolve('closed'));
    });
    await expect.poll(() => other.requests.length).toBe(1);
    await other.close();
    await expect(failed).resolves.toBe('closed');
  });
});

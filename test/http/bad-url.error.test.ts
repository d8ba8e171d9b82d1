// Issue 35 item 7: a path whose percent-encoding does not decode (`%ff`, a lone `%`, `%zz`, an
// overlong UTF-8 form) or whose parameter is longer than the router takes is answered like any
// other bad request: the error envelope, the security and CORS headers, an X-Request-Id, and
// one request log line carrying that id. Sent over a real socket, byte for byte.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services.js';
import { TEST_API_KEY, fixtureSources } from '../support/test-app.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, rawPath: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: rawPath,
        headers: { 'x-api-key': TEST_API_KEY, origin: 'https://app.example' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a path that does not decode', () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let created: Services & { close(): Promise<void> };
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-bad-url-'));
    const config = loadConfig({
      API_KEYS: TEST_API_KEY,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      ...fixtureSources(),
    });
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    created = await createServices(config, { info: () => undefined, error: () => undefined });
    app = await buildApp({ ...created, logger: pino({ level: 'info' }, sink) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await created.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['/instances/%ff/history', 400],
    ['/instances/%/history', 400],
    ['/instances/%zz/history', 400],
    ['/instances/%c0%af/history', 400], // overlong UTF-8 for '/'
    ['/instances/%ed%a0%80/history', 400], // a UTF-16 surrogate in UTF-8
    [`/instances/${'x'.repeat(150)}/history`, 400], // longer than the router's parameter cap
  ])('GET %s answers the envelope with every header and one log line', async (rawPath, status) => {
    const answer = await get(port, rawPath);
    expect(answer.status).toBe(status);
    const body = JSON.parse(answer.body) as { success: boolean; error: { code: string } };
    expect(body.success).toBe(false);
    expect(['MALFORMED_REQUEST', 'INVALID_PARAMETER']).toContain(body.error.code);
    expect(answer.body).not.toMatch(/FST_ERR/);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(answer.headers['cache-control']).toBe('no-store');
    const id = answer.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .poll(() => lines.filter((l) => l.reqId === id && l.msg === 'request'))
      .toHaveLength(1);
    const line = lines.find((l) => l.reqId === id && l.msg === 'request')!;
    expect(line).toMatchObject({ method: 'GET', status });
  });

  it('still answers a well-formed path normally', async () => {
    const answer = await get(port, '/instances/%41%42/history');
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).not.toMatch(/FST_ERR/);
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

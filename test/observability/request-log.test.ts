// D60, read from the real process writing its log to stdout: at LOG_LEVEL=info a request writes
// exactly one line (method, path without the query, status, duration, reqId); /health probes
// and the web UI's files write none at info and one at debug. The server's writes are
// asynchronous, so every line read here was also flushed by the shutdown.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, parseLogLine, spawnServer, type LogLine } from '../sync/server-process.js';

const API_KEY = 'request-log-test-key-0123456789';
const dirs: string[] = [];

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** A built web UI as the server serves it: an index page and one asset. */
function webBuild(): string {
  const dir = tempDir('cloudprice-request-log-web-');
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'export {};\n');
  return dir;
}

interface Session {
  readonly lines: readonly LogLine[];
  /** The request id each request's response carried, by a name given below. */
  readonly ids: Readonly<Record<string, string>>;
}

/** Starts the server, sends the requests below, stops it with SIGTERM and parses its stdout. */
async function session(logLevel: string): Promise<Session> {
  const server = spawnServer({
    DATA_DIR: tempDir('cloudprice-request-log-'),
    WEB_DIR: webBuild(),
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: API_KEY,
    LOG_LEVEL: logLevel,
    SYNC_INTERVAL: '0',
  });
  const url = await server.listening();
  const ids: Record<string, string> = {};
  const send = async (name: string, target: string, init: RequestInit = {}) => {
    const response = await fetch(`${url}${target}`, init);
    await response.arrayBuffer();
    ids[name] = response.headers.get('x-request-id') ?? '';
    return response.status;
  };
  const key = { 'x-api-key': API_KEY };
  expect(await send('instances', '/instances?limit=1&q=secret-text', { headers: key })).toBe(200);
  expect(await send('unauthorized', '/instances?limit=1')).toBe(401);
  expect(await send('health', '/health', { headers: key })).toBe(200);
  expect(await send('ui', '/ui/')).toBe(200);
  expect(await send('asset', '/ui/assets/index-Ab12Cd34.js')).toBe(200);
  expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  const lines = server.stdout
    .filter((text) => text !== '')
    .map((text) => {
      const line = parseLogLine(text);
      expect(line, text).toBeDefined();
      return line!;
    });
  return { lines, ids };
}

function linesOf(s: Session, name: string): LogLine[] {
  const id = s.ids[name];
  expect(id, `${name} carried no x-request-id`).toMatch(/\S/);
  return s.lines.filter((line) => line.reqId === id);
}

// Each case starts a real server that fills its catalogue from the bundled snapshots first.
describe('request lines (D60)', { timeout: 120_000 }, () => {
  it('at info: one line per API request with method, path, status, duration and reqId; none for /health and the web UI', async () => {
    const s = await session('info');

    const [ok, ...moreOk] = linesOf(s, 'instances');
    expect(moreOk).toEqual([]);
    expect(ok).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/instances',
      status: 200,
    });
    expect(ok!['duration_ms']).toEqual(expect.any(Number));
    expect(ok!['duration_ms'] as number).toBeGreaterThanOrEqual(0);
    // Nothing of the query string reaches the log.
    expect(s.lines.some((line) => JSON.stringify(line).includes('secret-text'))).toBe(false);

    expect(linesOf(s, 'unauthorized')).toEqual([
      expect.objectContaining({ level: 'info', path: '/instances', status: 401 }),
    ]);
    for (const quiet of ['health', 'ui', 'asset']) expect(linesOf(s, quiet), quiet).toEqual([]);
    expect(s.lines.map((line) => line.msg)).not.toContain('incoming request');
    expect(s.lines.map((line) => line.msg)).not.toContain('request completed');
  });

  it('at debug: /health and the web UI files write their line at debug', async () => {
    const s = await session('debug');
    for (const [name, path] of [
      ['health', '/health'],
      ['ui', '/ui/'],
      ['asset', '/ui/assets/index-Ab12Cd34.js'],
    ] as const) {
      expect(linesOf(s, name), name).toEqual([
        expect.objectContaining({
          level: 'debug',
          msg: 'request',
          method: 'GET',
          path,
          status: 200,
        }),
      ]);
    }
    expect(linesOf(s, 'instances')).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', path: '/instances', status: 200 }),
    ]);
  });
});

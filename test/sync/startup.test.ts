// The real process (`node --import tsx src/main.ts`): first start with a generated key and a
// catalogue filled before it listens, a restart that reuses both, a start that fills a provider
// whose earlier syncs failed, graceful shutdown, and configuration errors naming the variable.
import { existsSync, mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { closedPortUrl } from '../support/fake-upstream.js';
import { countSyncRuns } from './catalog-file.js';
import { killAllServers, parseLogLine, spawnServer } from './server-process.js';

const PROVIDERS = ['provider_a', 'provider_b', 'provider_c'] as const;
type Json = Record<string, unknown>;
const dirs: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-startup-'));
  dirs.push(dir);
  return dir;
}

const baseEnv = (dataDir: string): Record<string, string> => ({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
});

async function totalFor(url: string, key: string, provider: string): Promise<number> {
  const response = await fetch(`${url}/instances?provider=${provider}&limit=1`, {
    headers: { 'x-api-key': key },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { pagination: { total: number } } };
  return body.data.pagination.total;
}

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('first start, restart and shutdown of the real server', () => {
  const dataDir = tempDataDir();
  let key = '';
  let keyFile = '';

  it('prints its address and a generated key, and serves all three providers at once', async () => {
    const server = spawnServer(baseEnv(dataDir));
    const url = await server.listening();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    // Printed after the listening line, readable in the message and as its own field.
    const at = await server.line(/^Generated an API key/);
    const message = server.messages()[at]!;
    keyFile = /stored in (.+), mode 0600/.exec(message)?.[1] ?? '';
    key = /Send it as X-API-Key: (\S+)$/.exec(message)?.[1] ?? '';
    expect(parseLogLine(server.stdout[at]!)?.['apiKey']).toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(keyFile).toBe(path.join(dataDir, 'api-keys'));
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toContain(key);

    // The very first request already sees every provider: the fill ran before listening.
    for (const provider of PROVIDERS) {
      expect(await totalFor(url, key, provider), provider).toBeGreaterThan(0);
    }
    const refused = await fetch(`${url}/instances`, { headers: { 'x-api-key': 'x'.repeat(43) } });
    expect(refused.status).toBe(401);
    const health = await fetch(`${url}/health`, { headers: { 'x-api-key': key } });
    expect(health.status).toBe(200);
    // The bundled snapshots skip no record (issue 35 item 2: a skipped record degrades /health).
    const providers = ((await health.json()) as { components: { providers: Json[] } }).components
      .providers;
    expect(providers.map((p) => [p['name'], p['status'], p['skipped_records']])).toEqual(
      PROVIDERS.map((name) => [name, 'healthy', undefined]),
    );

    // Graceful shutdown on SIGTERM.
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
  });

  it('reuses the stored key and the stored catalogue on a restart', async () => {
    expect(key).not.toBe('');
    const dbFile = path.join(dataDir, 'cloudprice.db');
    const runs = PROVIDERS.map((p) => countSyncRuns(dbFile, p));
    const server = spawnServer(baseEnv(dataDir));
    const url = await server.listening();
    await server.line(/^API keys: /);
    expect(server.messages()).toContain(`API keys: ${keyFile} (send one as X-API-Key)`);
    expect(server.messages().some((line) => line.startsWith('Generated an API key'))).toBe(false);
    expect(await totalFor(url, key, 'provider_b')).toBeGreaterThan(0);
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    // Nothing was empty and nothing was stale: no sync ran.
    expect(PROVIDERS.map((p) => countSyncRuns(dbFile, p))).toEqual(runs);
  });
});

describe('start-up fill of a provider whose earlier syncs failed', () => {
  it('syncs it before listening on the next start', async () => {
    const dataDir = tempDataDir();
    const env = { ...baseEnv(dataDir), API_KEYS: 'startup-test-key-0123456789' };
    const first = spawnServer({
      ...env,
      PROVIDER_C_URL: await closedPortUrl(),
      UPSTREAM_MAX_RETRIES: '0',
      SYNC_INTERVAL: '0',
    });
    const firstUrl = await first.listening();
    expect(await totalFor(firstUrl, env.API_KEYS, 'provider_a')).toBeGreaterThan(0);
    expect(await totalFor(firstUrl, env.API_KEYS, 'provider_c')).toBe(0);
    await first.stop('SIGTERM');

    // Regression: only an entirely empty catalogue used to be filled at start, so provider_c
    // stayed empty until the schedule (never, with SYNC_INTERVAL=0).
    const second = spawnServer({ ...env, SYNC_INTERVAL: '0' });
    const url = await second.listening();
    expect(await totalFor(url, env.API_KEYS, 'provider_c')).toBeGreaterThan(0);
    await second.stop('SIGTERM');
  });
});

describe('configuration errors', () => {
  it.each([
    // Each case starts a process (seconds under tsx): a few representative ones.
    ['PORT', 'abc'],
    ['UPSTREAM_TOTAL_TIMEOUT', 'soon'],
    ['PROVIDER_B_URL', 'ftp://example.com/catalogue'],
    ['PROVIDERS', 'provider_a,provider_x'],
  ])('stops with a non-zero exit and a message naming %s=%s', async (name, value) => {
    const server = spawnServer({ ...baseEnv(tempDataDir()), [name]: value });
    const exit = await server.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(server.stderr()).toContain(name);
    expect(server.messages().some((line) => line.startsWith('cloudprice listening'))).toBe(false);
  });
});

describe('a port in use', () => {
  it('stops start-up with exit 2 and one line naming PORT, before any migration or sync', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const dataDir = tempDataDir();
      const server = spawnServer({ ...baseEnv(dataDir), PORT: String(port) });
      const exit = await server.exited;
      expect(exit.code).toBe(2);
      const fatal = server.stdout.map(parseLogLine).filter((line) => line?.level === 'fatal');
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toContain(`PORT: cannot listen on 127.0.0.1:${port}`);
      expect(fatal[0]!['variable']).toBe('PORT');
      expect(server.messages().some((m) => m.startsWith('cloudprice listening'))).toBe(false);
      // Nothing half-started: not even the database was created.
      expect(existsSync(path.join(dataDir, 'cloudprice.db'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});

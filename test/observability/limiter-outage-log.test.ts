// Issue 35 item 8: while Redis was down, each refused request wrote a 1.3 KB error line with a
// stack trace, a log flood at the rate of the traffic. Now an outage writes one line when the
// limiter's store fails and one when it answers again; a refused request writes only its short
// request line, and the refusals are counted on /metrics. The real server runs against a
// private redis-server that the test kills and starts again (never the shared one).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, parseLogLine } from '../sync/server-process.js';
import { spawnServer } from '../sync/server-process.js';
import { IS_CI } from '../support/infra-backends.js';
import {
  findRedisServerBinary,
  freePort,
  killRedisServer,
  startRedisServer,
} from '../support/throwaway-redis.js';
import { eventually } from '../support/wait.js';

const API_KEY = 'limiter-outage-test-key-0123456789';
const REFUSED = 30;
const redisServer = findRedisServerBinary();
const dirs: string[] = [];
let redis: ChildProcess | undefined;

afterAll(async () => {
  await killAllServers();
  await killRedisServer(redis);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(redisServer === undefined && !IS_CI)('rate limiter store outage', () => {
  it('logs one line when the store fails and one when it is back, not one per refused request', async () => {
    const redisPort = await freePort();
    redis = await startRedisServer(redisServer!, redisPort);
    const metricsPort = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-limiter-outage-'));
    dirs.push(dataDir);
    const server = spawnServer({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: API_KEY,
      LOG_LEVEL: 'info',
      SYNC_INTERVAL: '0',
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      METRICS_PORT: String(metricsPort),
    });
    const url = await server.listening();
    // Every 503 (the ones asked for, and those while the connection heals).
    let refusedTotal = 0;
    const get = async () => {
      const response = await fetch(`${url}/instances?limit=1`, {
        headers: { 'x-api-key': API_KEY },
      });
      await response.arrayBuffer();
      if (response.status === 503) refusedTotal += 1;
      return response.status;
    };
    expect(await get()).toBe(200);

    // Counted from before the kill: the outage line may be written as the connection drops,
    // before the first refused request (seen on a loaded machine).
    const before = server.stdout.length;
    await killRedisServer(redis);
    const statuses: number[] = [];
    for (let i = 0; i < REFUSED; i++) statuses.push(await get());
    expect(statuses).toEqual(Array<number>(REFUSED).fill(503));

    redis = await startRedisServer(redisServer!, redisPort);
    // The connection heals by itself within about a second.
    await eventually(async () => expect(await get()).toBe(200), 15_000);
    await server.line(/rate.limit.*(answers again|recovered)|rate_limiter recovered/, 5_000);

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const refusals = metrics
      .split('\n')
      .filter((line) => line.startsWith('cloudprice_rate_limiter_unavailable_total{'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    expect(refusals).toBe(refusedTotal);

    await server.stop('SIGTERM');
    const lines = server.stdout.slice(before).map((text) => ({ text, line: parseLogLine(text) }));
    const requestLines = lines.filter(({ line }) => line?.msg === 'request');
    const others = lines.filter(({ line }) => line?.msg !== 'request');
    // Every refused request: its one short request line, no stack trace.
    const refused = requestLines.filter(({ line }) => line?.['status'] === 503);
    expect(refused).toHaveLength(refusedTotal);
    for (const { text } of refused) {
      expect(text.length).toBeLessThan(300);
      expect(text).not.toContain('stack');
    }
    // Besides request lines, the outage wrote one error line and one recovery line.
    const outage = others.filter(({ line }) => /rate.?limit/i.test(String(line?.msg)));
    expect(outage.map(({ line }) => line?.level)).toEqual(['error', 'info']);
    // Nothing else at error level: at most one line per component that lost Redis (the
    // invalidation bus shares it; its line may come before the first refused request), none per
    // request.
    const components = lines
      .filter(({ line }) => line?.level === 'error')
      .map(({ line }) => String(line?.['component']));
    expect(components).toContain('rate_limiter');
    expect(new Set(components).size).toBe(components.length);
    expect(components.every((c) => c === 'rate_limiter' || c === 'invalidation_bus')).toBe(true);
  }, 60_000);
});

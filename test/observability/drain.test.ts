// Issue 13 item 3, issue 22 item 9: SIGTERM under load. Every request written to the socket
// before the signal is answered; after it a new connection is refused, /health says
// shutting_down on a connection still open, responses carry Connection: close, idle keep-alive
// connections are closed, and the process exits 0 once no connection is left.
import { request, Agent } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, spawnServer } from '../sync/server-process.js';

const API_KEY = 'drain-test-key-0123456789abcdef';
const dirs: string[] = [];
let sent = 0;

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  /** The request was completely written to the socket before the signal was sent. */
  readonly sentBeforeSignal: boolean;
  readonly status?: number;
  readonly connection?: string;
  readonly body?: string;
  readonly error?: string;
}

function send(
  base: string,
  path: string,
  agent: Agent,
  signalled: () => boolean,
): Promise<Outcome> {
  return new Promise((resolve) => {
    let flushedBefore = false;
    // A fresh client address per request: the rate limit is not what this test is about.
    sent += 1;
    const client = `198.51.${Math.floor(sent / 250) % 250}.${sent % 250}`;
    const headers = { 'x-api-key': API_KEY, 'x-test-client': client };
    const req = request(`${base}${path}`, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          sentBeforeSignal: flushedBefore,
          status: res.statusCode,
          connection: String(res.headers.connection),
          body,
        }),
      );
      res.on('error', (error) =>
        resolve({ sentBeforeSignal: flushedBefore, error: error.message }),
      );
    });
    req.on('finish', () => {
      flushedBefore = !signalled();
    });
    req.on('error', (error) => resolve({ sentBeforeSignal: flushedBefore, error: error.message }));
    req.end();
  });
}

describe('graceful drain on SIGTERM', () => {
  it('answers every request sent before the signal, then says shutting_down and exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-drain-'));
    dirs.push(dataDir);
    const server = spawnServer({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      API_KEYS: API_KEY,
      LOG_LEVEL: 'info',
      SYNC_INTERVAL: '0',
      SHUTDOWN_GRACE: '60s',
      CLIENT_IP_HEADER: 'x-test-client',
    });
    const base = await server.listening();
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    // A balancer's health checks, on one keep-alive connection opened before the signal.
    const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await send(base, '/health', healthAgent, () => false)).status).toBe(200);
    // A keep-alive connection that stays quiet: the drain must not wait for it.
    const quiet = connect(Number(new URL(base).port), '127.0.0.1');
    quiet.on('error', () => undefined);
    const quietClosed = new Promise<void>((resolve) => quiet.once('close', () => resolve()));
    let signalled = false;
    const outcomes: Outcome[] = [];
    // 20 keep-alive clients, each sending the next request when the previous one is answered,
    // uncached pages (distinct offsets) so requests take real work. Each stops once a request
    // fails after the signal (its new connection refused).
    let page = 0;
    const clients = Array.from({ length: 20 }, async () => {
      for (;;) {
        const outcome = await send(
          base,
          `/instances?limit=5&offset=${(page += 1) % 300}`,
          agent,
          () => signalled,
        );
        outcomes.push(outcome);
        if (outcome.error !== undefined && signalled) break;
      }
    });
    // Load is running once 200 requests were answered.
    while (outcomes.length < 200) await new Promise((resolve) => setImmediate(resolve));
    signalled = true;
    server.child.kill('SIGTERM');
    // Asked on the open connection until the drain shows.
    let health: Outcome;
    do health = await send(base, '/health', healthAgent, () => true);
    while (health.status === 200);
    // A new connection is refused once the drain has begun.
    const fresh = await send(base, '/health', new Agent(), () => true);
    await Promise.all(clients);
    await quietClosed;
    const exit = await server.exited;
    agent.destroy();
    healthAgent.destroy();

    expect(exit).toEqual({ code: 0, signal: null });
    const before = outcomes.filter((o) => o.sentBeforeSignal);
    expect(before.length).toBeGreaterThan(200);
    const failedBefore = before.filter((o) => o.status !== 200);
    expect(failedBefore, JSON.stringify(failedBefore.slice(0, 3))).toEqual([]);
    // Responses during the drain tell keep-alive clients to go elsewhere.
    expect(outcomes.filter((o) => o.connection === 'close').length).toBeGreaterThan(0);
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body!)).toMatchObject({ status: 'shutting_down' });
    expect(health.connection).toBe('close');
    expect(fresh.error).toMatch(/ECONNREFUSED/);
    // Every connection closed, the quiet one included: it exited without waiting for the 60 s
    // grace period.
    expect(server.messages()).toContain('drained: every connection closed');
  }, 120_000);
});

// Issue 22 item 9: SIGTERM while 20 keep-alive clients keep sending. A request the server
// accepted is answered (a full response, never a reset), a request after it stopped accepting
// is refused at connect, and the process exits within SHUTDOWN_GRACE + 1 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, spawnServer } from '../sync/server-process.js';

const API_KEY = 'shutdown-test-key-0123456789abcdef';
const GRACE_MS = 5_000;
const CLIENTS = 20;
const dirs: string[] = [];

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  readonly status?: number;
  readonly connection?: string;
  /** The error's code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...) when there was no response. */
  readonly error?: string;
  readonly message?: string;
  /** ms after the signal the request was started (negative: before it). */
  readonly startedAt: number;
}

function errorCode(error: unknown): string {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return cause?.code ?? code ?? String(error);
}

function serverEnv(graceMs: number): Record<string, string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-shutdown-'));
  dirs.push(dataDir);
  return {
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    API_KEYS: API_KEY,
    LOG_LEVEL: 'info',
    SYNC_INTERVAL: '0',
    SHUTDOWN_GRACE: `${graceMs}ms`,
    CLIENT_IP_HEADER: 'x-test-client',
  };
}

describe('SIGTERM under continuous keep-alive load', () => {
  it('answers every accepted request and exits within SHUTDOWN_GRACE + 1 s', async () => {
    const server = spawnServer(serverEnv(GRACE_MS));
    const base = await server.listening();
    const pool = new Pool(base, { connections: CLIENTS, pipelining: 1 });
    let signalAt = Infinity;
    let exitedAt = Infinity;
    void server.exited.then(() => (exitedAt = performance.now()));
    const outcomes: Outcome[] = [];
    let sent = 0;

    async function send(): Promise<Outcome> {
      sent += 1;
      // A fresh client address per request and uncached pages: the rate limit and the cache are
      // not what this test is about.
      const client = `198.51.${Math.floor(sent / 250) % 250}.${sent % 250}`;
      const startedAt = performance.now() - signalAt;
      try {
        const response = await pool.request({
          method: 'GET',
          path: `/instances?limit=5&offset=${sent % 300}`,
          headers: { 'x-api-key': API_KEY, 'x-test-client': client },
        });
        await response.body.text();
        const connection = String(response.headers['connection']);
        return { status: response.statusCode, connection, startedAt };
      } catch (error) {
        return {
          error: errorCode(error),
          message: (error as Error).message,
          startedAt,
        };
      }
    }

    // Every client sends its next request as soon as the previous one ended, whatever the
    // answer, until the process is gone and its own request was refused.
    const clients = Array.from({ length: CLIENTS }, async () => {
      for (;;) {
        const outcome = await send();
        outcomes.push(outcome);
        if (outcome.error !== undefined && exitedAt !== Infinity) return;
        // After a refusal before the exit, do not spin.
        if (outcome.error === 'ECONNREFUSED') await new Promise((r) => setTimeout(r, 5));
      }
    });
    while (outcomes.length < 300) await new Promise((resolve) => setTimeout(resolve, 10));
    signalAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    await Promise.all(clients);
    await pool.destroy();

    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitedAt - signalAt).toBeLessThan(GRACE_MS + 1_000);
    // Every request is answered in full or refused at connect (nothing listening any more),
    // never reset: no ECONNRESET, no "other side closed".
    const failed = outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNREFUSED');
    expect(failed, JSON.stringify(failed.slice(0, 5))).toEqual([]);
    const before = outcomes.filter((o) => o.startedAt < 0);
    expect(before.length).toBeGreaterThan(300);
    expect(before.filter((o) => o.status !== 200)).toEqual([]);
    // Once the process handled the signal, requests on the open connections were answered with
    // `Connection: close`; the clients' new connections were then refused.
    expect(outcomes.filter((o) => o.connection === 'close').length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.error === 'ECONNREFUSED').length).toBeGreaterThan(0);
  }, 120_000);

  it('exits within SHUTDOWN_GRACE + 1 s when a request never ends', async () => {
    const graceMs = 2_000;
    const server = spawnServer(serverEnv(graceMs));
    const base = new URL(await server.listening());
    // A request whose body never arrives: in flight until the grace period is over.
    const socket = connect(Number(base.port), '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      [
        'POST /recommend HTTP/1.1',
        'Host: cloudprice.test',
        `X-API-Key: ${API_KEY}`,
        'Content-Type: application/json',
        'Content-Length: 1000',
        '',
        '{',
      ].join('\r\n'),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalAt = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const elapsed = performance.now() - signalAt;
    await closed;

    expect(exit).toEqual({ code: 0, signal: null });
    expect(elapsed).toBeGreaterThanOrEqual(graceMs);
    expect(elapsed).toBeLessThan(graceMs + 1_000);
    expect(server.messages()).toContain('grace period over: closing connections');
  }, 60_000);
});

// Issue 15 (suspected): many slow or silent clients each held a socket for REQUEST_TIMEOUT, with
// no bound on how many. Now HEADERS_TIMEOUT ends silent connections much sooner and
// MAX_CONNECTIONS bounds them. Real sockets on a real listening server.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { TEST_API_KEY, createTestApp, type TestApp } from '../support/test-app.js';

/** An open connection that sends `bytes` (maybe nothing) and then waits; records what comes back. */
interface IdleConnection {
  readonly socket: Socket;
  readonly connected: Promise<void>;
  readonly closed: Promise<string>;
}

function idleConnection(port: number, bytes = ''): IdleConnection {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const connected = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      if (bytes !== '') socket.write(bytes);
      resolve();
    }),
  );
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, connected, closed };
}

async function instancesStatus(base: string): Promise<number> {
  const response = await fetch(`${base}/instances?limit=1`, {
    headers: { 'x-api-key': TEST_API_KEY, connection: 'close' },
  });
  await response.arrayBuffer();
  return response.status;
}

/** Resolves once the server counts `count` open connections. */
async function serverConnections(t: TestApp, count: number): Promise<void> {
  for (;;) {
    const open = await new Promise<number>((resolve, reject) =>
      t.app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))),
    );
    if (open >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('2,000 idle connections', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  const idle: IdleConnection[] = [];

  beforeAll(async () => {
    // The default cap; a headers deadline long enough that none is closed while the test runs.
    t = await createTestApp({ HEADERS_TIMEOUT: '5m', REQUEST_TIMEOUT: '5m' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => {
    for (const connection of idle) connection.socket.destroy();
    await t.close();
  });

  it('do not stop normal requests', { timeout: 120_000 }, async () => {
    // Half send nothing, half start a request and stop (slowloris). Opened 100 at a time so the
    // listen backlog never overflows into SYN retries.
    for (let i = 0; i < 2_000; i += 100) {
      const batch = Array.from({ length: 100 }, (_, j) =>
        idleConnection(port, (i + j) % 2 === 0 ? '' : 'GET /instances HTTP/1.1\r\nHost: x\r\n'),
      );
      idle.push(...batch);
      await Promise.all(batch.map((connection) => connection.connected));
    }
    await serverConnections(t, 2_000);
    for (let i = 0; i < 10; i++) expect(await instancesStatus(base)).toBe(200);
    // They were still open while the requests were served.
    expect(idle.every((connection) => !connection.socket.destroyed)).toBe(true);
  });
});

describe('MAX_CONNECTIONS and HEADERS_TIMEOUT', () => {
  let t: TestApp;
  let base: string;
  let port: number;
  const opened: IdleConnection[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      MAX_CONNECTIONS: '20',
      HEADERS_TIMEOUT: '1s',
      REQUEST_TIMEOUT: '20s',
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterEach(() => {
    for (const connection of opened.splice(0)) connection.socket.destroy();
  });
  afterAll(() => t.close());

  it('closes connections beyond the cap at once, and silent ones after HEADERS_TIMEOUT, not REQUEST_TIMEOUT', async () => {
    const silent = Array.from({ length: 20 }, () => idleConnection(port));
    opened.push(...silent);
    await Promise.all(silent.map((connection) => connection.connected));
    await serverConnections(t, 20);

    // Over the cap: closed by the server without a byte (a 408 would mean a timeout closed it).
    const extra = Array.from({ length: 5 }, () => idleConnection(port));
    opened.push(...extra);
    expect(await Promise.all(extra.map((connection) => connection.closed))).toEqual(
      Array.from({ length: 5 }, () => ''),
    );

    // The silent ones are answered 408 and closed by the headers deadline; REQUEST_TIMEOUT (20 s)
    // is the test's own hang guard (30 s), so only HEADERS_TIMEOUT can have closed them.
    const answers = await Promise.all(silent.map((connection) => connection.closed));
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);

    // With the slots free again, normal requests are served.
    expect(await instancesStatus(base)).toBe(200);
  });
});

describe('HEADERS_TIMEOUT configuration', () => {
  it('defaults to 10 s, or REQUEST_TIMEOUT when that is shorter, and never exceeds it', () => {
    expect(loadConfig({}).headersTimeoutMs).toBe(10_000);
    expect(loadConfig({ REQUEST_TIMEOUT: '2s' }).headersTimeoutMs).toBe(2_000);
    expect(loadConfig({}).maxConnections).toBe(4_096);
    expect(() => loadConfig({ REQUEST_TIMEOUT: '5s', HEADERS_TIMEOUT: '6s' })).toThrow(
      /^HEADERS_TIMEOUT must be/,
    );
    expect(() => loadConfig({ MAX_CONNECTIONS: '0' })).toThrow(/^MAX_CONNECTIONS must be/);
  });
});

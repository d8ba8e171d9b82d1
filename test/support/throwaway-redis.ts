/**
 * A real, private redis-server child process for failure tests: it can be killed, frozen and
 * restarted without touching the shared Redis other suites use. No persistence, loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { eventually } from './wait.js';

/** Absolute path of `redis-server` on PATH, or undefined when it is not installed. */
export function findRedisServerBinary(): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (listen on 0, read it, close). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

/** Resolves once Redis at 127.0.0.1:`port` answers PING; rejects after `timeoutMs`. */
async function waitUntilAnswering(port: number, timeoutMs: number): Promise<void> {
  await eventually(async () => {
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }, timeoutMs);
}

/**
 * Starts `redis-server` on `port` and resolves once it answers. The caller must stop it with
 * {@link killRedisServer} (tests do so in afterAll, whatever happened).
 */
export async function startRedisServer(binary: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) =>
      reject(new Error(`redis-server exited early (code ${code}, signal ${signal})`)),
    );
    child.once('error', reject);
  });
  try {
    await Promise.race([waitUntilAnswering(port, 10_000), exited]);
  } catch (error) {
    await killRedisServer(child);
    throw error;
  }
  exited.catch(() => undefined); // later exits are expected (we kill it)
  return child;
}

/** SIGKILLs `child` (frozen or not) and resolves once it has exited. Safe to call twice. */
export async function killRedisServer(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

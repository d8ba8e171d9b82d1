// Issue 15 item 9 / D5: a running server keeps only SHA-256 digests of its API keys. The real
// process is started, used with its key, and its whole JavaScript heap is written out
// (--heapsnapshot-signal); the key's text must not be in it. Before the fix the frozen
// configuration, the services and the start-up result held every key for the process's life.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/wait.js';
import {
  killAllServers,
  parseLogLine,
  spawnServer,
  type ServerProcess,
} from '../sync/server-process.js';
import { fixtureSources } from '../support/test-app.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-keys-heap-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAllServers();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A server whose heap can be written to `snapshots` on SIGUSR2. */
function startServer(env: Record<string, string>, snapshots: string): ServerProcess {
  return spawnServer({
    DATA_DIR: tempDir(),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SYNC_INTERVAL: '0',
    ...fixtureSources(),
    ...env,
    NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshots}`,
  });
}

/** One authenticated request on a connection of its own, so no socket keeps its headers. */
async function instancesStatus(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/instances?limit=1`, {
    headers: { 'x-api-key': key, connection: 'close' },
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Writes the server's heap and returns it as text. Node takes the snapshot when its main loop
 * gets to the signal, which may be after requests already waiting in the same turn, so the file
 * is read once it exists and parses as a whole (a complete snapshot is one JSON document).
 */
async function heapText(server: ServerProcess, url: string, snapshots: string): Promise<string> {
  server.child.kill('SIGUSR2');
  return await eventually(
    async () => {
      // Keeps the server's loop turning, as a client would.
      const health = await fetch(`${url}/health`, { headers: { connection: 'close' } });
      await health.arrayBuffer();
      const files = readdirSync(snapshots).filter((name) => name.endsWith('.heapsnapshot'));
      if (files.length !== 1) throw new Error(`${files.length} heap snapshots written so far`);
      const text = readFileSync(path.join(snapshots, files[0]!), 'utf8');
      JSON.parse(text);
      return text;
    },
    60_000,
    200,
  );
}

// Starting a server and writing its heap takes tens of seconds on a loaded machine: hang guards.
describe(
  'plaintext API keys kept in memory for the life of the process',
  { timeout: 180_000 },
  () => {
    it('a key from API_KEYS is not in the heap of the running server', async () => {
      // Held as bytes here, so the test's own strings cannot be what is found.
      const keyBytes = Buffer.from(`heapcheck-${randomBytes(24).toString('hex')}`);
      const snapshots = tempDir();
      const server = startServer({ API_KEYS: keyBytes.toString() }, snapshots);
      const url = await server.listening(150_000);
      expect(await instancesStatus(url, keyBytes.toString())).toBe(200);
      const heap = await heapText(server, url, snapshots);
      // The snapshot is real: it holds strings the server does keep.
      expect(heap).toContain('cloudprice');
      expect(heap.includes(keyBytes.toString())).toBe(false);
      await server.stop();
    });

    it('a generated key is printed once and then not in the heap either', async () => {
      const snapshots = tempDir();
      const server = startServer({}, snapshots);
      const url = await server.listening(150_000);
      const at = await server.line(/^Generated an API key/);
      const key = String(parseLogLine(server.stdout[at]!)?.['apiKey']);
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await instancesStatus(url, key)).toBe(200);
      const heap = await heapText(server, url, snapshots);
      expect(heap).toContain('cloudprice');
      expect(heap.includes(key)).toBe(false);
      await server.stop();
    });

    it('keys read from a keys file are not in the heap', async () => {
      const keyBytes = Buffer.from(`heapfile-${randomBytes(24).toString('hex')}`);
      const dataDir = tempDir();
      const snapshots = tempDir();
      const keyFile = path.join(dataDir, 'keys');
      const { writeKeysFile } = await import('../../src/keys/key-file.js');
      writeKeysFile(keyFile, [keyBytes.toString()]);
      const server = startServer({ DATA_DIR: dataDir, API_KEYS_FILE: keyFile }, snapshots);
      const url = await server.listening(150_000);
      expect(await instancesStatus(url, keyBytes.toString())).toBe(200);
      const heap = await heapText(server, url, snapshots);
      expect(heap.includes(keyBytes.toString())).toBe(false);
      await server.stop();
    });
  },
);

// Issue 22 item 5: on SQLite the provider lock was an in-process mutex, so two processes on one
// database file (`cloudprice sync` beside the server, or two CLI runs) synced one provider at
// once; D22/D24 say never. Two real `cloudprice sync provider_a` processes here, on one SQLite
// file, against a real local upstream whose first /regions answer the test holds back: the
// second process must wait for the first and report its run (D24), not fetch and apply again.
// SQLite only: PostgreSQL's advisory locks are tested in test/storage and test/sync.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { sleep, waitFor } from '../support/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/snapshots/provider_a/', import.meta.url));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cloudprice(
  args: readonly string[],
  env: Record<string, string>,
): { pid: number; done: Promise<Run> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: process.env['HOME'] ?? '/tmp',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<Run>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { pid: child.pid!, done };
}

/** Whether process `pid` has `file` open (Linux /proc). */
function hasOpen(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

describe('one provider synced by one process at a time on SQLite (issue 22 item 5)', () => {
  let upstream: Server;
  let baseUrl: string;
  let dataDir: string;
  const requests: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-two-processes-'));
    // provider_a's upstream: the first /regions answer waits for the test's gate.
    upstream = createServer((req, res) => {
      const url = (req.url ?? '/').split('?', 1)[0]!;
      requests.push(url);
      const file =
        url === '/provider_a/regions'
          ? 'regions.json'
          : url === '/provider_a/linode/types'
            ? 'linode/types.json'
            : undefined;
      if (file === undefined) return void res.writeHead(404).end();
      const send = () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(readFileSync(path.join(FIXTURES, file)));
      const first = url === '/provider_a/regions' && requests.filter((r) => r === url).length === 1;
      if (first) void gate.then(send);
      else send();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    release();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a second process waits for the first and reports its run instead of syncing again', async () => {
    const env = {
      DATA_DIR: dataDir,
      PROVIDER_A_URL: `${baseUrl}/provider_a`,
      LOG_LEVEL: 'silent',
    };
    const database = path.join(dataDir, 'cloudprice.db');
    const first = cloudprice(['sync', 'provider_a', '--json'], env);
    // The first process holds the provider lock and waits for /regions.
    await waitFor(() => requests.includes('/provider_a/regions'), 30_000);
    const second = cloudprice(['sync', 'provider_a', '--json'], env);
    // The second has the database open, and some time to reach the lock (or, without one, to
    // fetch /regions a second time, which is answered at once).
    await waitFor(() => hasOpen(second.pid, database), 30_000);
    await sleep(2_000);
    release();
    const [one, two] = await Promise.all([first.done, second.done]);
    expect(one.code, one.stderr).toBe(0);
    expect(two.code, two.stderr).toBe(0);

    expect(requests.filter((r) => r === '/provider_a/regions')).toHaveLength(1);
    const reportOne = JSON.parse(one.stdout) as { providers: { pricing_synced: number }[] };
    const reportTwo = JSON.parse(two.stdout) as { providers: { pricing_synced: number }[] };
    expect(reportTwo.providers[0]?.pricing_synced).toBe(reportOne.providers[0]?.pricing_synced);
    const db = openSqlite(database, { readonly: true });
    try {
      const runs = db
        .prepare(`select count(*) as n from sync_runs where provider = ?`)
        .get('provider_a') as { n: number };
      expect(runs.n).toBe(1);
      const locks = db.prepare('select count(*) as n from sync_locks').get() as { n: number };
      expect(locks.n).toBe(0);
    } finally {
      db.close();
    }
  }, 90_000);
});

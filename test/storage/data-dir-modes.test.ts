// Issue 35 item 5: the data directory holds webhook secrets (in the database) and the generated
// API key, so what the server creates there is private to its user: the directory 0700, the
// SQLite database, its -wal and -shm files and the keys file 0600, whatever the umask lets
// through for ordinary files (the child runs with the usual 022).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killAllServers, spawnServer } from '../sync/server-process.js';

const parent = mkdtempSync(path.join(tmpdir(), 'cloudprice-modes-'));

afterAll(async () => {
  await killAllServers();
  rmSync(parent, { recursive: true, force: true });
});

const mode = (file: string) => statSync(file).mode & 0o777;

describe('files the server creates in its data directory', () => {
  it('are readable by their owner only', async () => {
    const dataDir = path.join(parent, 'fresh', 'data');
    const previous = process.umask(0o022);
    let server;
    try {
      server = spawnServer({ DATA_DIR: dataDir, PORT: '0', SYNC_INTERVAL: '0' });
    } finally {
      process.umask(previous);
    }
    const url = await server.listening(60_000);
    // A request that reads the database, so the WAL and its index exist for certain.
    await fetch(`${url}/health`);
    const db = path.join(dataDir, 'cloudprice.db');
    expect(mode(dataDir).toString(8)).toBe('700');
    for (const file of [db, `${db}-wal`, `${db}-shm`]) {
      expect(existsSync(file), file).toBe(true);
      expect(mode(file).toString(8), file).toBe('600');
    }
    const keys = path.join(dataDir, 'api-keys');
    expect(mode(keys).toString(8)).toBe('600');
    await server.stop('SIGTERM');
  });
});

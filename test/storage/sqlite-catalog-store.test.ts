// What only the SQLite store promises: its file, its directory and its journal mode.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openSqlite } from '../../src/storage/sqlite/open-sqlite.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { catalog, offer, readAll, run } from './catalog-fixtures.js';

describe('SQLite catalogue store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudprice-sqlite-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the missing directories and a WAL-mode file', async () => {
    const path = join(dir, 'a', 'b', 'catalog.db');
    const store = await createCatalogStore(`sqlite:${path}`);
    await store.migrate();
    await store.close();
    expect(existsSync(path)).toBe(true);
    const raw = openSqlite(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('keeps the data across a restart, opened through a file: URL', async () => {
    const url = pathToFileURL(join(dir, 'catalog.db')).href;
    const first = await createCatalogStore(url);
    await first.migrate();
    await first.applyProviderCatalog(
      catalog('provider_c', [
        offer({ instanceId: 'c', regionCode: 'ap-east-1', hourlyMicros: 13_600 }),
      ]),
      run('provider_c'),
    );
    await first.close();
    const second = await createCatalogStore(url);
    try {
      await second.migrate();
      expect(
        (await readAll(second)).map((r) => [r.instanceId, r.regionName, r.hourlyMicros]),
      ).toEqual([['c', 'Hong Kong', 13_600]]);
    } finally {
      await second.close();
    }
  });
});

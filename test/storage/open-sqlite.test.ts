// better-sqlite3 13's bundled binary crashes Node.js 20 (Node-API 9) the moment it is loaded, so
// every connection must be opened by openSqlite, which picks the binary this runtime can load
// (ADR 0005, amendment "better-sqlite3 13").
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED_BINARY_NODE_API,
  openSqlite,
  sqliteBindingPlan,
} from '../../src/storage/sqlite/open-sqlite.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OPENER = path.join('src', 'storage', 'sqlite', 'open-sqlite.ts');

function typescriptFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixture' ? [] : typescriptFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

describe('openSqlite', () => {
  it('is the only code that loads better-sqlite3 (others import its types only)', () => {
    const loaders = ['src', 'test', 'scripts', 'bench']
      .flatMap(typescriptFiles)
      .filter((file) => file !== OPENER)
      .filter((file) =>
        /import\s+(?!type\b)[^;]*from\s+'better-sqlite3'|require\('better-sqlite3'\)/.test(
          readFileSync(path.join(ROOT, file), 'utf8'),
        ),
      );
    expect(loaders).toEqual([]);
  });

  it('uses the bundled binary on Node-API 10 and newer, a local build below', () => {
    const nodeApi = Number(process.versions.napi);
    const { localBinary, packageDir } = sqliteBindingPlan();
    if (nodeApi >= BUNDLED_BINARY_NODE_API) {
      expect(localBinary).toBeUndefined();
    } else {
      expect(localBinary).toBe(
        path.join(packageDir, `build-node-api-${nodeApi}`, 'better_sqlite3.node'),
      );
    }
  });

  it('opens a connection that runs SQL on this runtime', () => {
    const db = openSqlite(':memory:');
    try {
      const row = db.prepare('select sqlite_version() as version').get() as { version: string };
      expect(row.version).toMatch(/^3\.\d+\.\d+$/);
    } finally {
      db.close();
    }
  });
});

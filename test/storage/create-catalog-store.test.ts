import { describe, expect, it } from 'vitest';
import { createCatalogStore, parseDatabaseUrl } from '../../src/storage/create-catalog-store.js';

describe('parseDatabaseUrl', () => {
  const cases: [string, ReturnType<typeof parseDatabaseUrl>][] = [
    [
      'postgres://u:p@db:5432/app',
      { kind: 'postgres', connectionString: 'postgres://u:p@db:5432/app' },
    ],
    [
      'postgresql://db/app?sslmode=require',
      { kind: 'postgres', connectionString: 'postgresql://db/app?sslmode=require' },
    ],
    ['PostgreSQL://db/app', { kind: 'postgres', connectionString: 'PostgreSQL://db/app' }],
    ['sqlite:data/catalog.db', { kind: 'sqlite', path: 'data/catalog.db' }],
    [
      'sqlite:///var/lib/cloudprice/catalog.db',
      { kind: 'sqlite', path: '/var/lib/cloudprice/catalog.db' },
    ],
    ['sqlite://./catalog.db', { kind: 'sqlite', path: './catalog.db' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['file:data/catalog.db', { kind: 'sqlite', path: 'data/catalog.db' }],
    [
      'file:///var/lib/cloudprice/my%20catalog.db',
      { kind: 'sqlite', path: '/var/lib/cloudprice/my catalog.db' },
    ],
    ['./data/catalog.db', { kind: 'sqlite', path: './data/catalog.db' }],
    ['/abs/catalog.db', { kind: 'sqlite', path: '/abs/catalog.db' }],
    [':memory:', { kind: 'sqlite', path: ':memory:' }],
  ];
  for (const [url, expected] of cases) {
    it(`reads ${url}`, () => {
      expect(parseDatabaseUrl(url)).toEqual(expected);
    });
  }

  it('refuses other schemes without echoing credentials', () => {
    expect(() => parseDatabaseUrl('mysql://root:hunter2@db/app')).toThrow(
      /unsupported database URL scheme "mysql:"/,
    );
    try {
      parseDatabaseUrl('mysql://root:hunter2@db/app');
    } catch (error) {
      expect(String(error)).not.toContain('hunter2');
    }
  });

  it('refuses an empty URL or one without a file', () => {
    expect(() => parseDatabaseUrl('  ')).toThrow(/empty/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/no SQLite file/);
  });
});

describe('createCatalogStore', () => {
  it('rejects, not throws, for an unsupported URL', async () => {
    const result = createCatalogStore('redis://127.0.0.1:6379');
    await expect(result).rejects.toThrow(/unsupported/);
  });

  it('opens a working in-memory SQLite store', async () => {
    const store = await createCatalogStore(':memory:', { displayNames: { provider_b: 'B Cloud' } });
    try {
      await store.migrate();
      expect(await store.countAvailable()).toBe(0);
    } finally {
      await store.close();
    }
  });
});

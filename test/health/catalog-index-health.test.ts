// /health's catalog_index extension (issue 9): whether the catalogue reads are answered from the
// in-memory index and which committed catalogue version it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthService } from '../../src/health/health-service.js';
import type { CatalogIndexStatus } from '../../src/catalog/index/catalog-index-holder.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface CatalogIndexBody {
  status: string;
  serving_reads: boolean;
  version: number | null;
  records: number;
  built_at: string | null;
  store_failing: boolean;
}

describe('GET /health catalog_index', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const catalogIndex = async () => {
    const response = await t.app.inject({ url: '/health', headers: auth });
    return response.json<{ components: { catalog_index: CatalogIndexBody } }>().components
      .catalog_index;
  };

  it('names the version and size of the index serving reads, and follows a new version', async () => {
    const first = await catalogIndex();
    expect(first).toMatchObject({ status: 'healthy', serving_reads: true, store_failing: false });
    expect(first.version).toBe(t.services.catalog.current!.version);
    expect(first.records).toBe(t.services.catalog.current!.size);
    expect(Date.parse(first.built_at!)).not.toBeNaN();

    await loadCatalogs(t.services.store, generateCatalogs(300, 3));
    await t.services.catalog.refresh();
    const second = await catalogIndex();
    expect(second.version).toBe(await t.services.store.catalogVersion());
    expect(second.version).toBeGreaterThan(first.version!);
    expect(second.records).toBe(t.services.catalog.current!.size);
  });
});

describe('catalog_index status', () => {
  const health = (status: CatalogIndexStatus) =>
    createHealthService({
      store: t0.store,
      counters: t0.counters,
      counterBackend: 'memory',
      catalog: { status: () => status },
    });
  let t0: { store: TestApp['services']['store']; counters: TestApp['services']['counters'] };
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
    t0 = { store: app.services.store, counters: app.services.counters };
  });
  afterAll(() => app.close());

  it('is degraded while the store fails and the last index serves, unhealthy with no index', async () => {
    const serving = { version: 7, records: 10, builtAt: 0, checking: false };
    const failing = await health({ ...serving, failing: true }).check();
    expect(failing.components.catalog_index).toEqual({
      status: 'degraded',
      serving_reads: true,
      version: 7,
      records: 10,
      built_at: '1970-01-01T00:00:00.000Z',
      store_failing: true,
    });
    const none = await health({
      version: undefined,
      records: 0,
      builtAt: undefined,
      failing: false,
      checking: true,
    }).check();
    expect(none.components.catalog_index).toMatchObject({
      status: 'unhealthy',
      serving_reads: false,
      version: null,
      built_at: null,
    });
  });
});

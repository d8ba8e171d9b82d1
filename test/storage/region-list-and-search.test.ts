// D53 (several regions) and D54 (`q`, ASCII case-insensitive substring of id or name) mean the
// same on every path: the SQL query (as_of reads and the reference) on SQLite and PostgreSQL,
// the in-memory index that answers /instances, and a plain reference filter written here.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/catalog/index/catalog-index.js';
import { foldAsciiCase } from '../../src/catalog/text-search.js';
import type { CatalogStore } from '../../src/storage/catalog-store.js';
import type { InstanceFilter } from '../../src/catalog/record-query.js';
import type { InstanceRow } from '../../src/catalog/records.js';
import { createCatalogStore } from '../../src/storage/create-catalog-store.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';

/** Names that trip a careless LIKE or a Unicode-folding lower(). */
const TRICKY_NAMES = [
  '100% General_2 \\ backslash',
  'Degrees \u212A only', // lower-cases to ASCII k under Unicode rules, not under ASCII folding
  'Ångström GENERAL',
  'Ｆｕｌｌ width',
  'plain under_score',
];

const FILTERS: readonly InstanceFilter[] = [
  { regions: ['icn', 'nrt'] },
  { regions: ['ap-east-1', 'ap-northeast', 'itm'] },
  { regions: ['icn', 'nrt'], provider: 'provider_c' },
  { text: 'general' },
  { text: 'c-gpu' },
  { text: '%' },
  { text: '_' },
  { text: '\\' },
  { text: '100% general_2' },
  { text: 'k' },
  { text: 'degrees \u212a' },
  { text: 'ångström' },
  { text: 'Ångström'.replace(/[A-Z]/g, (c) => c.toLowerCase()) },
  { text: 'ｆｕｌｌ' },
  { text: 'no such text anywhere' },
  { text: 'general', regions: ['icn', 'ap-northeast-1'], minVcpu: 2 },
];

function reference(rows: readonly InstanceRow[], filter: InstanceFilter): number[] {
  return rows
    .filter((row) => filter.regions === undefined || filter.regions.includes(row.regionCode))
    .filter((row) => filter.provider === undefined || row.providerName === filter.provider)
    .filter((row) => filter.minVcpu === undefined || row.vcpu >= filter.minVcpu)
    .filter(
      (row) =>
        filter.text === undefined ||
        foldAsciiCase(row.instanceId).includes(filter.text) ||
        foldAsciiCase(row.instanceName).includes(filter.text),
    )
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

for (const backend of await storeBackends()) {
  describeStoreBackend('region lists and name search', backend, () => {
    let database: IsolatedDatabase;
    let store: CatalogStore;
    beforeAll(async () => {
      database = await backend.isolate();
      store = await createCatalogStore(database.url, {});
      await store.migrate();
      // A name belongs to an instance type (all its regions): rename whole types.
      const catalogs = generateCatalogs(300, 9).map((catalog, c) => {
        const ids = [...new Set(catalog.offers.map((offer) => offer.instanceId))];
        const renamed = new Map(
          TRICKY_NAMES.filter((_, i) => i % 3 === c).map((name, i) => [ids[i * 2]!, name]),
        );
        return {
          ...catalog,
          offers: catalog.offers.map((offer) => ({
            ...offer,
            instanceName: renamed.get(offer.instanceId) ?? offer.instanceName,
          })),
        };
      });
      await loadCatalogs(store, catalogs);
    });
    afterAll(async () => {
      await store.close();
      await database.drop();
    });

    it('matches the same records in SQL, in the index and in the reference', async () => {
      const snapshot = await store.readCatalog();
      const index = CatalogIndex.build(snapshot);
      for (const filter of FILTERS) {
        const query = { filter, sort: 'monthly_price' as const, order: 'asc' as const };
        const expected = reference(snapshot.rows, filter);
        const sql = await store.queryInstances({ ...query, limit: 10_000, offset: 0 });
        const fromIndex = index.query({ ...query, limit: 10_000, offset: 0 });
        expect(
          [...sql.ids].sort((a, b) => a - b),
          JSON.stringify(filter),
        ).toEqual(expected);
        expect(fromIndex.ids, JSON.stringify(filter)).toEqual(sql.ids);
        expect(fromIndex.total).toBe(expected.length);
      }
      // The tricky names are all there, and some filters match some of them.
      expect(reference(snapshot.rows, { text: '%' }).length).toBeGreaterThan(0);
      for (const name of TRICKY_NAMES) {
        expect(
          snapshot.rows.some((r) => r.instanceName === name),
          name,
        ).toBe(true);
      }
      expect(reference(snapshot.rows, { text: 'k' })).not.toContain(
        snapshot.rows.find((r) => r.instanceName.startsWith('Degrees'))?.id,
      );
      expect(reference(snapshot.rows, { text: 'k' }).length).toBeGreaterThan(0);
    });
  });
}

// Honest cells and vendor names (issue 24, D55), from real syncs of the bundled snapshots' test
// copy, on every backend: `field_notes` tells a zero that is "not included" or "not published"
// from a real one, the numbers stay as they were, and providers are named for their vendors.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fieldNotes } from '../../src/catalog/model.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface Record {
  id: number;
  instance_id: string;
  storage_gb: number;
  transfer_tb: number;
  network_speed_gbps: number;
  field_notes: { [field: string]: string };
  provider: { name: string; display_name: string };
}
interface Page {
  data: { instances: Record[]; pagination: { has_more: boolean } };
}

for (const backend of await storeBackends()) {
  describeStoreBackend('honest cells and vendor names', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let client = 0;
    const get = async <T>(url: string, app = t) => {
      const response = await app.app.inject({
        url,
        headers: auth,
        remoteAddress: `10.58.${Math.floor(++client / 200)}.${client % 200}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    };
    async function all(query: string, app = t): Promise<Record[]> {
      const records: Record[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await get<Page>(`/instances?limit=100&offset=${offset}${query}`, app);
        records.push(...page.data.instances);
        if (!page.data.pagination.has_more) return records;
      }
    }

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url });
      const sync = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_a', 'provider_b', 'provider_c'] },
      });
      expect(sync.statusCode, sync.body).toBe(200);
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('names providers for their vendors by default (D55), identifiers unchanged', async () => {
      const names = new Map<string, string>();
      for (const record of await all(''))
        names.set(record.provider.name, record.provider.display_name);
      expect(Object.fromEntries(names)).toEqual({
        provider_a: 'Linode',
        provider_b: 'Vultr',
        provider_c: 'AWS',
      });
    });

    it('lets configuration rename a provider (PROVIDER_B_DISPLAY_NAME)', async () => {
      const renamed = await createTestApp({
        DATABASE_URL: database.url,
        PROVIDER_B_DISPLAY_NAME: 'Vultr Cloud Compute',
      });
      try {
        const records = await all('&provider=provider_b', renamed);
        expect(records.length).toBeGreaterThan(0);
        for (const r of records) expect(r.provider.display_name).toBe('Vultr Cloud Compute');
        const a = await all('&provider=provider_a', renamed);
        expect(a[0]!.provider.display_name).toBe('Linode');
      } finally {
        await renamed.close();
      }
    });

    it('marks AWS storage 0 (EBS only) and AWS transfer 0 as not included, keeping the zeros', async () => {
      const aws = await all('&provider=provider_c');
      const ebsOnly = aws.filter((r) => r.storage_gb === 0);
      const localDisk = aws.filter((r) => r.storage_gb > 0);
      expect(ebsOnly.length).toBeGreaterThan(0);
      expect(localDisk.length).toBeGreaterThan(0);
      for (const r of ebsOnly) {
        expect(r.field_notes, r.instance_id).toEqual({
          storage_gb: 'not_included',
          transfer_tb: 'not_included',
        });
      }
      for (const r of localDisk) {
        expect(r.field_notes, r.instance_id).toEqual({ transfer_tb: 'not_included' });
        expect(r.transfer_tb).toBe(0);
      }
      // The recording states a network figure for every current-generation type; the test copy
      // holds no previous-generation one, so nothing to flag there.
      for (const r of aws) expect(r.network_speed_gbps).toBeGreaterThan(0);
    });

    it("marks Vultr network speed 0 as not published, Linode's as not recorded, nothing else", async () => {
      for (const [provider, note] of [
        ['provider_a', 'not_recorded'],
        ['provider_b', 'not_published'],
      ] as const) {
        const records = await all(`&provider=${provider}`);
        expect(records.length).toBeGreaterThan(0);
        for (const r of records) {
          expect(r.network_speed_gbps).toBe(0);
          expect(r.field_notes, r.instance_id).toEqual({ network_speed_gbps: note });
          expect(r.storage_gb).toBeGreaterThan(0);
          expect(r.transfer_tb).toBeGreaterThan(0);
        }
      }
    });

    it('says the same in a past catalogue (as_of, SQL) and in a record history', async () => {
      const now = await all('&provider=provider_c');
      const past = await all(`&provider=provider_c&as_of=${new Date().toISOString()}`);
      expect(past.map((r) => [r.id, r.field_notes])).toEqual(now.map((r) => [r.id, r.field_notes]));
      const first = now.find((r) => r.storage_gb === 0)!;
      const history = await get<{ data: { instance: Record } }>(`/instances/${first.id}/history`);
      expect(history.data.instance.field_notes).toEqual(first.field_notes);
    });
  });
}

it('flags a network speed only when the recording left it out (Linode, AWS previous generation)', () => {
  const values = { storageGb: 25, transferTb: 1 };
  expect(fieldNotes('provider_a', { ...values, networkSpeedGbps: 1 })).toEqual({});
  expect(fieldNotes('provider_a', { ...values, networkSpeedGbps: 0 })).toEqual({
    network_speed_gbps: 'not_recorded',
  });
  expect(fieldNotes('provider_c', { ...values, networkSpeedGbps: 5 })).toEqual({});
  expect(fieldNotes('provider_c', { ...values, networkSpeedGbps: 0 })).toEqual({
    network_speed_gbps: 'not_recorded',
  });
});

// D56 cities through the whole app, on every backend: `city` on /instances (index and as_of
// paths), /instance-types (`columns=city`), /changes (SQL), `cities` on /recommend, GET /regions.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REGION_CODES } from '../../src/catalog/model.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';
import { catalog, offer, run } from '../storage/catalog-fixtures.js';

const T1 = new Date('2026-01-02T00:00:00.000Z');
const T2 = new Date('2026-01-03T00:00:00.000Z');
const OBSERVED_A = new Date('2024-07-11T00:00:00.000Z');
const OBSERVED_B = new Date('2025-12-18T00:00:00.000Z');

const A = catalog('provider_a', [
  offer({ instanceId: 'a1', regionCode: 'ap-northeast', monthlyMicros: 5_000_000 }),
  offer({ instanceId: 'a1', regionCode: 'ap-south', monthlyMicros: 5_000_000 }),
  offer({ instanceId: 'a1', regionCode: 'ap-southeast', monthlyMicros: 6_000_000 }),
  offer({ instanceId: 'a4', regionCode: 'ap-south', memoryMb: 4096, monthlyMicros: 20_000_000 }),
]);
const B = (icnMonthly: number) =>
  catalog('provider_b', [
    offer({ instanceId: 'b1', regionCode: 'nrt', monthlyMicros: 6_000_000 }),
    offer({ instanceId: 'b1', regionCode: 'icn', monthlyMicros: icnMonthly }),
  ]);

interface Instance {
  id: number;
  instance_id: string;
  provider: { name: string };
  region: { region_code: string; city: string };
}
interface InstancesBody {
  data: {
    instances: Instance[];
    pagination: { total: number };
    metadata: { filters_applied: Record<string, unknown> };
  };
}
interface TypesBody {
  data: {
    instance_types: {
      provider: string;
      instance_id: string;
      prices: Record<string, { id: number; monthly_price: number }>;
      cheapest_region: string;
    }[];
    metadata: Record<string, unknown>;
  };
}
interface ChangesBody {
  data: { changes: { kind: string; instance: { region_code: string } }[] };
}
interface RegionsBody {
  data: {
    providers: { name: string; display_name: string; block_storage: string | null }[];
    regions: {
      provider: string;
      region_code: string;
      region_name: string;
      city: string;
      country_code: string;
      instances: number;
      observed_at: string | null;
    }[];
    cities: {
      city: string;
      name: string;
      country_code: string;
      regions: { provider: string; region_code: string }[];
    }[];
  };
}

for (const backend of await storeBackends()) {
  describeStoreBackend('cities (D56)', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;
    let client = 0;
    const get = async <T>(url: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: auth,
        remoteAddress: `10.56.0.${++client}`,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    };
    const regionsOf = (body: InstancesBody) =>
      body.data.instances.map((i) => i.region.region_code).sort();

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url });
      const store = t.services.store;
      const source = (observedAt: Date) => ({ kind: 'snapshot' as const, observedAt, source: 'x' });
      await store.applyProviderCatalog(
        { ...A, dataSource: source(OBSERVED_A) },
        run('provider_a', T1),
      );
      for (const [monthly, at] of [
        [5_000_000, T1],
        [7_000_000, T2],
      ] as const) {
        await store.applyProviderCatalog(
          { ...B(monthly), dataSource: source(OBSERVED_B) },
          run('provider_b', at),
        );
      }
      await t.services.catalog.refresh();
    });
    afterAll(async () => {
      await t?.close();
      await database?.drop();
    });

    it('gives every record the city of its region', async () => {
      const body = await get<InstancesBody>('/instances?limit=100');
      const cities = Object.fromEntries(
        body.data.instances.map((i) => [i.region.region_code, i.region.city]),
      );
      expect(cities).toEqual({
        'ap-northeast': 'tokyo',
        'ap-south': 'osaka',
        'ap-southeast': 'singapore',
        nrt: 'tokyo',
        icn: 'seoul',
      });
    });

    it('filters /instances by one city or several, echoing them in a fixed order', async () => {
      const tokyo = await get<InstancesBody>('/instances?city=tokyo');
      expect(regionsOf(tokyo)).toEqual(['ap-northeast', 'nrt']);
      expect(tokyo.data.metadata.filters_applied).toEqual({ city: 'tokyo' });

      const two = await get<InstancesBody>('/instances?city=seoul,tokyo,seoul');
      expect(regionsOf(two)).toEqual(['ap-northeast', 'icn', 'nrt']);
      expect(two.data.metadata.filters_applied).toEqual({ city: 'tokyo,seoul' });
    });

    it('with region too, both must hold; nothing in common answers an empty list', async () => {
      const both = await get<InstancesBody>('/instances?region=nrt,icn&city=tokyo');
      expect(regionsOf(both)).toEqual(['nrt']);
      expect(both.data.metadata.filters_applied).toEqual({ region: 'icn,nrt', city: 'tokyo' });

      const none = await get<InstancesBody>('/instances?region=icn&city=tokyo');
      expect(none.data.instances).toEqual([]);
      expect(none.data.pagination.total).toBe(0);
    });

    it('never answers a city query from the cache entry of the same regions without it', async () => {
      const plain = await get<InstancesBody>('/instances?region=nrt');
      const withCity = await get<InstancesBody>('/instances?region=nrt&city=tokyo');
      expect(plain.data.metadata.filters_applied).toEqual({ region: 'nrt' });
      expect(withCity.data.metadata.filters_applied).toEqual({ region: 'nrt', city: 'tokyo' });
      expect(withCity.data.instances).toEqual(plain.data.instances);
    });

    it('filters a past catalogue (as_of, read by SQL) and the CSV export alike', async () => {
      const past = await get<InstancesBody>(`/instances?as_of=${T2.toISOString()}&city=seoul`);
      expect(regionsOf(past)).toEqual(['icn']);
      const empty = await get<InstancesBody>(
        `/instances?as_of=${T2.toISOString()}&city=seoul&region=nrt`,
      );
      expect(empty.data.instances).toEqual([]);
      const csv = await t.app.inject({
        url: '/instances?format=csv&city=osaka',
        headers: auth,
        remoteAddress: `10.56.1.${++client}`,
      });
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.trim().split('\r\n').slice(1);
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line.split(',')[2]).toBe('ap-south');
    });

    it('lists /instance-types only in the regions of the cities, by region by default', async () => {
      const body = await get<TypesBody>('/instance-types?city=tokyo,osaka');
      // Every region in those cities is a column, with or without records.
      expect(body.data.metadata['regions']).toEqual([
        'ap-northeast',
        'ap-south',
        'nrt',
        'itm',
        'ap-northeast-1',
        'ap-northeast-3',
      ]);
      expect(body.data.metadata).not.toHaveProperty('columns');
      const a1 = body.data.instance_types.find((r) => r.instance_id === 'a1')!;
      expect(Object.keys(a1.prices)).toEqual(['ap-northeast', 'ap-south']);
      expect(a1.cheapest_region).toBe('ap-northeast');
    });

    it('keys prices by city with columns=city, cheapest_region a city slug', async () => {
      const body = await get<TypesBody>('/instance-types?columns=city');
      expect(body.data.metadata).toMatchObject({
        columns: 'city',
        cities: ['tokyo', 'seoul', 'osaka', 'singapore', 'hong-kong'],
      });
      const a1 = body.data.instance_types.find((r) => r.instance_id === 'a1')!;
      expect(Object.keys(a1.prices)).toEqual(['tokyo', 'osaka', 'singapore']);
      expect(a1.prices['singapore']!.monthly_price).toBe(6);
      // Equal prices in Tokyo and Osaka: the earlier column (Tokyo) is named.
      expect(a1.cheapest_region).toBe('tokyo');
      const b1 = body.data.instance_types.find((r) => r.instance_id === 'b1')!;
      expect(b1.prices).toMatchObject({ tokyo: { monthly_price: 6 }, seoul: { monthly_price: 7 } });
      expect(Object.keys(b1.prices)).toEqual(['tokyo', 'seoul']);
      expect(b1.cheapest_region).toBe('tokyo');

      // The same cell is the same record whichever the keys.
      const byRegion = await get<TypesBody>('/instance-types');
      const b1r = byRegion.data.instance_types.find((r) => r.instance_id === 'b1')!;
      expect(b1r.prices['icn']!.id).toBe(b1.prices['seoul']!.id);
      expect(b1r.cheapest_region).toBe('nrt');
    });

    it('with columns=city, regions and city narrow the columns together', async () => {
      const body = await get<TypesBody>(
        '/instance-types?columns=city&city=seoul,singapore&regions=icn,ap-southeast,nrt',
      );
      expect(body.data.metadata['regions']).toEqual(['icn', 'ap-southeast']);
      expect(body.data.metadata['cities']).toEqual(['seoul', 'singapore']);
      expect(
        Object.fromEntries(
          body.data.instance_types.map((r) => [r.instance_id, Object.keys(r.prices)]),
        ),
      ).toEqual({ a1: ['singapore'], b1: ['seoul'] });
    });

    it('filters /changes by city (SQL), both holding with region', async () => {
      const since = '2026-01-01';
      const seoul = await get<ChangesBody>(`/changes?since=${since}&city=seoul`);
      expect(seoul.data.changes.map((c) => [c.kind, c.instance.region_code])).toEqual([
        ['added', 'icn'],
        ['price_increased', 'icn'],
      ]);
      const tokyo = await get<ChangesBody>(
        `/changes?since=${since}&city=tokyo&provider=provider_b`,
      );
      expect(tokyo.data.changes.map((c) => c.instance.region_code)).toEqual(['nrt']);
      const none = await get<ChangesBody>(`/changes?since=${since}&city=tokyo&region=icn`);
      expect(none.data.changes).toEqual([]);
      const all = await get<ChangesBody>(`/changes?since=${since}`);
      const some = await get<ChangesBody>(
        `/changes?since=${since}&city=tokyo,seoul,osaka,singapore`,
      );
      expect(some.data.changes).toEqual(all.data.changes);
    });

    it('recommends only in the requested cities, and nothing when regions disagree', async () => {
      const recommend = async (payload: object) => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/recommend',
          headers: auth,
          payload: { stack: ['nginx'], scale: 'small', ...payload },
          remoteAddress: `10.56.2.${++client}`,
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<{ data: { recommendations: { region_code: string }[] } }>().data
          .recommendations;
      };
      const osaka = await recommend({ cities: ['osaka'] });
      expect(osaka.length).toBeGreaterThan(0);
      expect(new Set(osaka.map((r) => r.region_code))).toEqual(new Set(['ap-south']));
      const seoul = await recommend({ cities: ['seoul', 'seoul'], regions: ['icn', 'nrt'] });
      expect(seoul.map((r) => r.region_code)).toEqual(['icn']);
      expect(await recommend({ cities: ['hong-kong'], regions: ['nrt'] })).toEqual([]);
    });

    it('lists every region with its city, record count and observation date, and the cities', async () => {
      const body = await get<RegionsBody>('/regions');
      // The providers with their display names, so a page needs no table of its own.
      expect(body.data.providers).toEqual([
        { name: 'provider_a', display_name: 'Linode', block_storage: null },
        { name: 'provider_b', display_name: 'Vultr', block_storage: null },
        { name: 'provider_c', display_name: 'AWS', block_storage: 'EBS' },
      ]);
      expect(body.data.regions.map((r) => r.region_code)).toEqual(REGION_CODES);
      const byCode = Object.fromEntries(body.data.regions.map((r) => [r.region_code, r]));
      expect(byCode['ap-south']).toEqual({
        provider: 'provider_a',
        region_code: 'ap-south',
        region_name: 'Osaka',
        // The provider's own name for the region (extension), beside the specification's code.
        provider_region_id: 'jp-osa',
        city: 'osaka',
        country_code: 'JP',
        instances: 2,
        observed_at: OBSERVED_A.toISOString(),
      });
      expect(byCode['icn']).toMatchObject({
        instances: 1,
        city: 'seoul',
        observed_at: OBSERVED_B.toISOString(),
      });
      // provider_c never synced: its regions are listed, empty and undated.
      expect(byCode['ap-east-1']).toMatchObject({
        city: 'hong-kong',
        region_name: 'Hong Kong',
        country_code: 'HK',
        instances: 0,
        observed_at: null,
      });
      expect(body.data.cities.map((c) => [c.city, c.name, c.country_code])).toEqual([
        ['tokyo', 'Tokyo', 'JP'],
        ['seoul', 'Seoul', 'KR'],
        ['osaka', 'Osaka', 'JP'],
        ['singapore', 'Singapore', 'SG'],
        ['hong-kong', 'Hong Kong', 'HK'],
      ]);
      expect(body.data.cities[0]!.regions).toEqual([
        { provider: 'provider_a', region_code: 'ap-northeast' },
        { provider: 'provider_b', region_code: 'nrt' },
        { provider: 'provider_c', region_code: 'ap-northeast-1' },
      ]);
    });

    it('counts /regions against the one /instances budget', async () => {
      const from = '10.56.9.9';
      t.setNow(FIXED_NOW + 3_600_000);
      try {
        for (let i = 0; i < 99; i++) {
          const r = await t.app.inject({
            url: '/instances?limit=1',
            headers: auth,
            remoteAddress: from,
          });
          expect(r.statusCode).toBe(200);
        }
        const last = await t.app.inject({ url: '/regions', headers: auth, remoteAddress: from });
        expect(last.statusCode).toBe(200);
        const refused = await t.app.inject({ url: '/regions', headers: auth, remoteAddress: from });
        expect(refused.statusCode).toBe(429);
      } finally {
        t.setNow(FIXED_NOW);
      }
    });
  });
}

// Time moving through three versions of every provider's upstream data (issue 10 item 4),
// synced one after another through the real app against every backend: version 2 raises one
// type's price, lowers another's and removes a third; version 3 brings the removed type back
// and adds a new one. The feed, the history rows, the as_of answers and the queued webhook
// bodies must say exactly that, and nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWebhook } from '../../src/events/webhook-service.js';
/** The three real providers, by name (this suite serves each one's upstream format). */
type ProviderName = 'provider_a' | 'provider_b' | 'provider_c';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { FIXTURE_SNAPSHOTS, auth, createTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, unknown>;
const read = (relative: string): Json =>
  JSON.parse(readFileSync(path.join(FIXTURE_SNAPSHOTS, relative), 'utf8')) as Json;
const clone = <T>(value: T): T => structuredClone(value);
const PROVIDERS: ProviderName[] = ['provider_a', 'provider_b', 'provider_c'];
const C_REGIONS = [
  'ap-east-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
];
const cPath = (region: string) =>
  `provider_c/offers/v1.0/aws/AmazonEC2/current/${region}/index.json`;

/** What a version does to one provider's types (by upstream type id). */
interface Version {
  readonly rise?: string;
  readonly drop?: string;
  readonly remove?: string;
  /** A copy of `from` under the id `as`. */
  readonly add?: { readonly from: string; readonly as: string };
}

const scale = (value: unknown, factor: number) => Math.round(Number(value) * factor * 1e6) / 1e6;
const factorOf = (version: Version, id: string) =>
  id === version.rise ? 1.5 : id === version.drop ? 0.5 : 1;

/** provider_a (Linode shape): `data[]` types with `price` and `region_prices`. */
function providerA(version: Version): Json {
  const doc = clone(read('provider_a/linode/types.json'));
  let types = doc['data'] as Json[];
  for (const type of types) {
    const factor = factorOf(version, String(type['id']));
    const prices = [type['price'] as Json, ...((type['region_prices'] as Json[]) ?? [])];
    for (const price of prices) {
      price['hourly'] = scale(price['hourly'], factor);
      price['monthly'] = scale(price['monthly'], factor);
    }
  }
  if (version.add) {
    const copy = clone(types.find((t) => t['id'] === version.add!.from)!);
    copy['id'] = version.add.as;
    copy['label'] = `Added ${version.add.as}`;
    types.push(copy);
  }
  types = types.filter((t) => t['id'] !== version.remove);
  doc['data'] = types;
  doc['results'] = types.length;
  return doc;
}

/** provider_b (Vultr shape): `plans[]` with `monthly_cost` and `hourly_cost`. */
function providerB(version: Version): Json {
  const doc = clone(read('provider_b/plans.json'));
  let plans = doc['plans'] as Json[];
  for (const plan of plans) {
    const factor = factorOf(version, String(plan['id']));
    plan['monthly_cost'] = scale(plan['monthly_cost'], factor);
    plan['hourly_cost'] = scale(plan['hourly_cost'], factor);
  }
  if (version.add) {
    const copy = clone(plans.find((p) => p['id'] === version.add!.from)!);
    copy['id'] = version.add.as;
    plans.push(copy);
  }
  plans = plans.filter((p) => p['id'] !== version.remove);
  doc['plans'] = plans;
  return doc;
}

/** provider_c (AWS price list): products by sku, their on-demand prices under terms. */
function providerC(version: Version, region: string): Json {
  const doc = clone(read(cPath(region)));
  const products = doc['products'] as Record<string, Json>;
  const onDemand = (doc['terms'] as Json)['OnDemand'] as Record<string, Record<string, Json>>;
  const typeOf = (sku: string) => String((products[sku]!['attributes'] as Json)['instanceType']);
  for (const sku of Object.keys(products)) {
    const type = typeOf(sku);
    const factor = factorOf(version, type);
    for (const term of Object.values(onDemand[sku] ?? {})) {
      for (const dimension of Object.values(term['priceDimensions'] as Record<string, Json>)) {
        const price = dimension['pricePerUnit'] as Json;
        price['USD'] = scale(price['USD'], factor).toFixed(10);
      }
    }
    if (version.add?.from === type) {
      const newSku = `ADDED${sku}`.slice(0, 24);
      const product = clone(products[sku]!);
      product['sku'] = newSku;
      (product['attributes'] as Json)['instanceType'] = version.add.as;
      products[newSku] = product;
      onDemand[newSku] = JSON.parse(
        JSON.stringify(onDemand[sku] ?? {}).replaceAll(sku, newSku),
      ) as Record<string, Json>;
    }
    if (type === version.remove) {
      delete products[sku];
      delete onDemand[sku];
    }
  }
  return doc;
}

function serve(fake: FakeUpstream, versions: Record<ProviderName, Version>): void {
  fake.setJson('/provider_a/linode/types', providerA(versions.provider_a));
  fake.setJson('/provider_b/plans', providerB(versions.provider_b));
  for (const region of C_REGIONS) {
    fake.setJson(`/${cPath(region)}`, providerC(versions.provider_c, region));
  }
}

interface ChangeJson {
  id: number;
  at: string;
  sync_id: string;
  kind: string;
  purchase_option: string;
  instance: { id: number; provider: string; region_code: string; instance_id: string };
  old: { hourly_price: number; monthly_price: number } | null;
  new: { hourly_price: number; monthly_price: number } | null;
  change_pct: number | null;
}
interface RecordJson {
  id: number;
  instance_id: string;
  provider: { name: string };
  region: { code: string };
  pricing: { hourly_price: number; monthly_price: number };
}

/** The newest item's time: every provider's sync of that version had committed by then. */
const latest = (items: readonly ChangeJson[]) =>
  items.map((c) => c.at).reduce((a, b) => (a > b ? a : b));
/** When a version's sync of `provider` completed (its items' time). */
const syncedAt = (items: readonly ChangeJson[], provider: string) =>
  items.find((c) => c.instance.provider === provider)!.at;

for (const backend of await storeBackends()) {
  describeStoreBackend('three versions of every upstream', backend, () => {
    let database: IsolatedDatabase;
    let fake: FakeUpstream;
    let t: TestApp;
    let client = 0;
    const get = async <T>(url: string): Promise<T> => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: auth,
        remoteAddress: `10.9.0.${++client % 250}`,
      });
      expect(response.statusCode, url).toBe(200);
      return response.json<{ data: T }>().data;
    };
    const sync = async (force = false) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        remoteAddress: `10.9.1.${++client % 250}`,
        payload: { providers: PROVIDERS, force },
      });
      expect(response.statusCode).toBe(200);
      const report = response.json<{ data: { sync_id: string; success: boolean } }>().data;
      expect(report.success, JSON.stringify(report)).toBe(true);
      return report.sync_id;
    };
    const allRecords = async (asOf?: string): Promise<RecordJson[]> => {
      const records: RecordJson[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await get<{ instances: RecordJson[] }>(
          `/instances?limit=100&offset=${offset}&sort_by=vcpu${asOf ? `&as_of=${asOf}` : ''}`,
        );
        records.push(...page.instances);
        if (page.instances.length < 100) return records;
      }
    };
    /** The whole feed: on-demand items (the default), or every option's with `options`. */
    const feed = async (options = false): Promise<ChangeJson[]> => {
      const items: ChangeJson[] = [];
      let cursor = '';
      for (;;) {
        const page = await get<{ changes: ChangeJson[]; next_cursor: string | null }>(
          `/changes?since=2000-01-01&limit=500${options ? '&purchase_option=all' : ''}${cursor}`,
        );
        items.push(...page.changes);
        if (page.next_cursor === null) return items;
        cursor = `&cursor=${encodeURIComponent(page.next_cursor)}`;
      }
    };

    beforeAll(async () => {
      database = await backend.isolate();
      fake = await startFakeUpstream();
      t = await createTestApp({
        DATABASE_URL: database.url,
        PROVIDER_A_URL: `${fake.url}/provider_a`,
        PROVIDER_B_URL: `${fake.url}/provider_b`,
        PROVIDER_C_URL: `${fake.url}/provider_c`,
      });
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await fake?.close();
      await database?.drop();
    });

    it('records exactly what each version changed', { timeout: 300_000 }, async () => {
      const created = await createWebhook(
        t.services.store.webhooks,
        { url: new URL('https://93.184.215.14/hook'), events: ['price.changed'], filter: {} },
        { allowPrivate: false, timeoutMs: 1_000 },
      );
      expect(created.ok).toBe(true);

      // Version 1: the fixtures as they are.
      serve(fake, { provider_a: {}, provider_b: {}, provider_c: {} });
      await sync();
      const v1 = await allRecords();
      const v1Feed = await feed();
      expect(v1Feed.every((c) => c.kind === 'added')).toBe(true);
      expect(v1Feed.map((c) => c.instance.id).sort((a, b) => a - b)).toEqual(
        v1.map((r) => r.id).sort((a, b) => a - b),
      );
      const t1 = latest(v1Feed);

      // Per provider: four of its types (sorted ids), in regions where they are offered.
      const roles = Object.fromEntries(
        PROVIDERS.map((provider) => {
          const ids = [
            ...new Set(v1.filter((r) => r.provider.name === provider).map((r) => r.instance_id)),
          ].sort();
          expect(ids.length).toBeGreaterThan(4);
          const [rise, drop, remove, template] = ids as [string, string, string, string];
          return [provider, { rise, drop, remove, template, added: `${template}-added` }];
        }),
      ) as Record<
        ProviderName,
        { rise: string; drop: string; remove: string; template: string; added: string }
      >;
      const recordsOf = (records: RecordJson[], provider: ProviderName, type: string) =>
        records.filter((r) => r.provider.name === provider && r.instance_id === type);

      // Version 2: a rise, a drop, a removal per provider.
      serve(
        fake,
        Object.fromEntries(
          PROVIDERS.map((p) => [
            p,
            { rise: roles[p].rise, drop: roles[p].drop, remove: roles[p].remove },
          ]),
        ) as Record<ProviderName, Version>,
      );
      const sync2 = await sync();
      const v2Feed = (await feed()).slice(v1Feed.length);
      const expected2 = PROVIDERS.flatMap((p) => [
        ...recordsOf(v1, p, roles[p].rise).map((r) => ({
          id: r.id,
          kind: 'price_increased',
          old: r.pricing,
        })),
        ...recordsOf(v1, p, roles[p].drop).map((r) => ({
          id: r.id,
          kind: 'price_decreased',
          old: r.pricing,
        })),
        ...recordsOf(v1, p, roles[p].remove).map((r) => ({
          id: r.id,
          kind: 'removed',
          old: r.pricing,
        })),
      ]).sort((a, b) => a.id - b.id);
      expect(
        v2Feed
          .map((c) => ({ id: c.instance.id, kind: c.kind, old: c.old }))
          .sort((a, b) => a.id - b.id),
      ).toEqual(
        expected2.map((e) => ({
          id: e.id,
          kind: e.kind,
          old: { hourly_price: e.old.hourly_price, monthly_price: e.old.monthly_price },
        })),
      );
      expect(new Set(v2Feed.map((c) => c.sync_id))).toEqual(new Set([sync2]));
      const v2 = await allRecords();
      for (const change of v2Feed) {
        if (change.kind === 'removed') {
          expect(change.new).toBeNull();
          expect(v2.some((r) => r.id === change.instance.id)).toBe(false);
          continue;
        }
        const now = v2.find((r) => r.id === change.instance.id)!;
        expect(change.new).toEqual({
          hourly_price: now.pricing.hourly_price,
          monthly_price: now.pricing.monthly_price,
        });
        // Monthly prices are whole cents, so the change is 50 % only up to that rounding.
        const pct =
          ((change.new!.monthly_price - change.old!.monthly_price) * 100) /
          change.old!.monthly_price;
        expect(change.change_pct).toBeCloseTo(pct, 1);
        expect(Math.abs(Math.abs(pct) - 50)).toBeLessThan(1);
      }
      const t2 = latest(v2Feed);

      // Version 3: the removed type returns, a new type appears; prices stay as in version 2.
      serve(
        fake,
        Object.fromEntries(
          PROVIDERS.map((p) => [
            p,
            {
              rise: roles[p].rise,
              drop: roles[p].drop,
              add: { from: roles[p].template, as: roles[p].added },
            },
          ]),
        ) as Record<ProviderName, Version>,
      );
      await sync();
      const all = await feed();
      const v3Feed = all.slice(v1Feed.length + v2Feed.length);
      const v3 = await allRecords();
      const expected3 = PROVIDERS.flatMap((p) => [
        ...recordsOf(v1, p, roles[p].remove).map((r) => ({ id: r.id, kind: 'returned' })),
        ...recordsOf(v3, p, roles[p].added).map((r) => ({ id: r.id, kind: 'added' })),
      ]).sort((a, b) => a.id - b.id);
      expect(PROVIDERS.every((p) => recordsOf(v3, p, roles[p].added).length > 0)).toBe(true);
      expect(
        v3Feed.map((c) => ({ id: c.instance.id, kind: c.kind })).sort((a, b) => a.id - b.id),
      ).toEqual(expected3);
      const t3 = latest(v3Feed);

      const [b1, b2] = [syncedAt(v1Feed, 'provider_b'), syncedAt(v2Feed, 'provider_b')];
      const [a1, a2, a3] = [v1Feed, v2Feed, v3Feed].map((items) => syncedAt(items, 'provider_a'));
      // History of a raised record: two periods, the first closed by the second sync.
      const raised = recordsOf(v1, 'provider_b', roles.provider_b.rise)[0]!;
      const history = await get<{
        history: {
          valid_from: string;
          valid_to: string | null;
          monthly_price: number;
          available: boolean;
        }[];
      }>(`/instances/${raised.id}/history`);
      expect(
        history.history.map((h) => [h.valid_from, h.valid_to, h.monthly_price, h.available]),
      ).toEqual([
        [b2, null, v2.find((r) => r.id === raised.id)!.pricing.monthly_price, true],
        [b1, b2, raised.pricing.monthly_price, true],
      ]);
      // A removed and returned record: three periods.
      const gone = recordsOf(v1, 'provider_a', roles.provider_a.remove)[0]!;
      const goneHistory = await get<{
        history: { valid_from: string; valid_to: string | null; available: boolean }[];
      }>(`/instances/${gone.id}/history`);
      expect(goneHistory.history.map((h) => [h.valid_from, h.valid_to, h.available])).toEqual([
        [a3, null, true],
        [a2, a3, false],
        [a1, a2, true],
      ]);

      // as_of at each sync answers that version's catalogue exactly.
      const ids = (records: RecordJson[]) =>
        records.map((r) => [r.id, r.pricing.monthly_price]).sort((a, b) => a[0]! - b[0]!);
      expect(ids(await allRecords(t1))).toEqual(ids(v1));
      expect(ids(await allRecords(t2))).toEqual(ids(v2));
      expect(ids(await allRecords(t3))).toEqual(ids(v3));

      // The queued price.changed bodies list exactly the feed's items, per provider sync.
      const queued = await t.services.store.webhooks.claimDue(
        'test',
        Date.now() + 86_400_000,
        60_000,
        100,
      );
      const bodies = queued.map(
        (d) =>
          JSON.parse(d.payload) as {
            type: string;
            data: {
              provider: string;
              sync_id: string;
              part: number;
              parts: number;
              changes: ChangeJson[];
            };
          },
      );
      // Every option's items (D61): the fixture's AWS types carry Reserved prices, whose first
      // fill adds more than one part's worth.
      expect(bodies.every((b) => b.type === 'price.changed')).toBe(true);
      expect(new Set(bodies.map((b) => `${b.data.provider} ${b.data.sync_id}`)).size).toBe(9);
      const fromBodies = bodies.flatMap((b) => b.data.changes).sort((a, b) => a.id - b.id);
      expect(fromBodies).toEqual((await feed(true)).sort((a, b) => a.id - b.id));
      expect(fromBodies.filter((c) => c.purchase_option === 'on_demand')).toEqual(
        [...all].sort((a, b) => a.id - b.id),
      );
    });
  });
}

// D57: /health data_source tells how old each provider's figures are (`age_days`, whole days,
// rounded down) and whether they are `stale` (age_days > DATA_STALE_DAYS, default 90), without
// changing the provider statuses (D32). On every backend: the observation date is stored.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderName } from '../../src/catalog/model.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { ageDays } from '../../src/catalog/freshness.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { catalog, offer, run } from '../storage/catalog-fixtures.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

interface DataSource {
  kind: string;
  observed_at: string;
  source: string;
  age_days: number;
  stale: boolean;
}
interface HealthBody {
  components: {
    providers: { name: ProviderName; status: string; data_source: DataSource | null }[];
  };
}

const REGION: Record<ProviderName, string> = {
  provider_a: 'ap-northeast',
  provider_b: 'icn',
  provider_c: 'ap-east-1',
};

/** A successful sync just now of figures observed `ageMs` ago. */
async function syncObserved(t: TestApp, provider: ProviderName, ageMs: number) {
  const observedAt = new Date(Date.now() - ageMs);
  await t.services.store.applyProviderCatalog(
    {
      ...catalog(provider, [offer({ instanceId: `${provider}-1`, regionCode: REGION[provider]! })]),
      dataSource: { kind: 'snapshot', observedAt, source: `${provider} recording` },
    },
    run(provider, new Date()),
  );
  return observedAt;
}

async function providers(t: TestApp) {
  const response = await t.app.inject({ method: 'GET', url: '/health', headers: auth });
  const body = response.json<HealthBody>();
  return Object.fromEntries(body.components.providers.map((p) => [p.name, p]));
}

describe('ageDays (D57)', () => {
  const now = Date.UTC(2026, 10, 26, 12, 0, 0);
  it('counts whole elapsed days, rounded down', () => {
    expect(ageDays(new Date(now), now)).toBe(0);
    expect(ageDays(new Date(now - DAY + 1), now)).toBe(0);
    expect(ageDays(new Date(now - DAY), now)).toBe(1);
    expect(ageDays(new Date(now - 91 * DAY + 1), now)).toBe(90);
    expect(ageDays(new Date('2024-02-21T08:20:21.000Z'), now)).toBe(1009);
  });
  it('is 0, never negative, for an observation time after now', () => {
    expect(ageDays(new Date(now + 5 * DAY), now)).toBe(0);
  });
});

describe('DATA_STALE_DAYS', () => {
  it('defaults to 90 and takes a whole number of days', () => {
    expect(loadConfig({}).dataStaleDays).toBe(90);
    expect(loadConfig({ DATA_STALE_DAYS: '30' }).dataStaleDays).toBe(30);
    expect(loadConfig({ DATA_STALE_DAYS: '0' }).dataStaleDays).toBe(0);
  });
  it.each(['-1', '1.5', 'ninety', '36501'])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ DATA_STALE_DAYS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_STALE_DAYS: value })).toThrow(/^DATA_STALE_DAYS /);
  });
});

for (const backend of await storeBackends()) {
  describeStoreBackend('GET /health data_source freshness (D57)', backend, () => {
    let database: IsolatedDatabase;
    const apps: TestApp[] = [];
    const newApp = async (env: Record<string, string> = {}) => {
      const t = await createTestApp({ DATABASE_URL: database.url, ...env });
      apps.push(t);
      return t;
    };
    beforeAll(async () => {
      database = await backend.isolate();
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((t) => t.close()));
    });
    afterAll(async () => {
      await database.drop();
    });

    it('reports age_days and stale per provider, statuses unchanged (D32)', async () => {
      const t = await newApp();
      const oldA = await syncObserved(t, 'provider_a', 91 * DAY + HOUR);
      const edgeB = await syncObserved(t, 'provider_b', 90 * DAY + HOUR);
      const byName = await providers(t);
      expect(byName['provider_a']!.data_source).toEqual({
        kind: 'snapshot',
        observed_at: oldA.toISOString(),
        source: 'provider_a recording',
        age_days: 91,
        stale: true,
      });
      // 90 days is not more than 90: not stale.
      expect(byName['provider_b']!.data_source).toMatchObject({
        observed_at: edgeB.toISOString(),
        age_days: 90,
        stale: false,
      });
      // Synced a moment ago: healthy, however old the figures (staleness is shown, not a status).
      expect(byName['provider_a']!.status).toBe('healthy');
      expect(byName['provider_b']!.status).toBe('healthy');
      // Never synced: no data source at all.
      expect(byName['provider_c']!.data_source).toBeNull();
    });

    it('follows DATA_STALE_DAYS', async () => {
      // The same database: provider_b's figures are now 90 days old.
      const t = await newApp({ DATA_STALE_DAYS: '30' });
      const fresh = await syncObserved(t, 'provider_c', 29 * DAY);
      const byName = await providers(t);
      expect(byName['provider_b']!.data_source).toMatchObject({ age_days: 90, stale: true });
      expect(byName['provider_c']!.data_source).toMatchObject({
        observed_at: fresh.toISOString(),
        age_days: 29,
        stale: false,
      });
    });
  });
}

// A provider that exists only in tests, registered exactly as the real ones are: a folder with
// its definition, passed in the list the configuration is loaded with. Its upstream is one JSON
// document, `GET /catalog.json`, listing offers per region in our units; a local HTTP server
// (test/support/fake-upstream.ts) serves it.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { INSTANCE_FAMILIES, type InstanceFamily } from '../../../src/catalog/model.js';
import type { ProviderDefinition } from '../../../src/providers/provider-definition.js';
import type { ProviderAdapter, ProviderCatalog } from '../../../src/catalog/offers.js';
import type { UpstreamClient } from '../../../src/sync/upstream/upstream-client.js';
import { UpstreamError } from '../../../src/sync/upstream/upstream-error.js';

export const TEST_PROVIDER_NAME = 'test_provider';

const Offer = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  region: Type.String({ minLength: 1, maxLength: 64 }),
  vcpu: Type.Integer({ minimum: 1, maximum: 1024 }),
  memory_mb: Type.Integer({ minimum: 1 }),
  storage_gb: Type.Integer({ minimum: 0 }),
  family: Type.Unsafe<InstanceFamily>({ type: 'string', enum: [...INSTANCE_FAMILIES] }),
  hourly_micros: Type.Integer({ minimum: 1 }),
});
const Document = Compile(Type.Object({ offers: Type.Array(Offer, { maxItems: 1000 }) }));

/** One offer as the test upstream writes it. */
export type TestUpstreamOffer = Static<typeof Offer>;

function createAdapter(client: UpstreamClient): ProviderAdapter {
  return {
    name: TEST_PROVIDER_NAME,
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      const body = await client.getJson('/catalog.json', signal);
      if (!Document.Check(body)) {
        throw new UpstreamError('UPSTREAM_INVALID_DATA', `${TEST_PROVIDER_NAME}: bad catalog.json`);
      }
      const ours = new Set(testProvider.regions.map((r) => r.upstreamId ?? r.regionCode));
      const offers = body.offers
        .filter((o) => ours.has(o.region))
        .map((o) => ({
          instanceId: o.id,
          instanceName: o.id,
          vcpu: o.vcpu,
          memoryMb: o.memory_mb,
          storageGb: o.storage_gb,
          transferTb: 1,
          networkSpeedGbps: 1,
          gpuCount: 0,
          gpuType: null,
          family: o.family,
          regionCode: o.region,
          hourlyMicros: o.hourly_micros,
          monthlyMicros: o.hourly_micros * 730,
        }));
      return {
        provider: TEST_PROVIDER_NAME,
        regionCodes: [...new Set(offers.map((o) => o.regionCode))],
        offers,
        skippedRecords: 0,
      };
    },
  };
}

export const testProvider: ProviderDefinition = Object.freeze<ProviderDefinition>({
  name: TEST_PROVIDER_NAME,
  displayName: 'Test Cloud',
  envKey: 'TEST',
  upstreamName: 'Test Cloud API',
  regions: [
    { regionCode: 'tc-tokyo', regionName: 'Tokyo', countryCode: 'JP', city: 'tokyo' },
    { regionCode: 'tc-seoul', regionName: 'Seoul', countryCode: 'KR', city: 'seoul' },
  ],
  // Its upstream publishes no storage for diskless types: 0 is "not included".
  fieldNotes: (values) => (values.storageGb === 0 ? { storage_gb: 'not_included' as const } : {}),
  fieldNoteCases: { not_included: ['storage_gb 0'] },
  createAdapter,
  // Its upstream is whatever a test serves: it has no recorded or live snapshot.
  loadSnapshotTools: () => Promise.reject(new Error(`${TEST_PROVIDER_NAME} has no snapshots`)),
});

// provider_b: Vultr's public catalogue (API v2 shape).
import type { ProviderDefinition } from '../provider-definition.js';
import { createProviderBAdapter } from './adapter.js';
import { PROVIDER_B_NAME, PROVIDER_B_REGIONS } from './regions.js';

export const providerB = Object.freeze<ProviderDefinition>({
  name: PROVIDER_B_NAME,
  displayName: 'Vultr',
  envKey: 'B',
  upstreamName: 'Vultr API v2',
  regions: PROVIDER_B_REGIONS,
  // The plans API publishes no network speed; the adapter always writes 0.
  fieldNotes: (values) =>
    values.networkSpeedGbps === 0 ? { network_speed_gbps: 'not_published' as const } : {},
  fieldNoteCases: { not_published: ['network_speed_gbps'] },
  // The bundled snapshot's generator (snapshot/generate.ts) infers which plans Osaka sells and
  // says so in its source text; a live sync or a refreshed snapshot reads the plans' locations.
  inferredRegions: (source) =>
    source.kind === 'snapshot' && source.source.includes('Osaka (itm) availability inferred')
      ? ['itm']
      : [],
  createAdapter: (client) => createProviderBAdapter({ client }),
  loadSnapshotTools: async () => (await import('./snapshot/tools.js')).snapshotTools,
});

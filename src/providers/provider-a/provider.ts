// provider_a: Linode's public catalogue (API v4 shape).
import type { ProviderDefinition } from '../provider-definition.js';
import { createProviderAAdapter } from './adapter.js';
import { PROVIDER_A_NAME, PROVIDER_A_REGIONS } from './regions.js';

export const providerA = Object.freeze<ProviderDefinition>({
  name: PROVIDER_A_NAME,
  displayName: 'Linode',
  envKey: 'A',
  upstreamName: 'Linode API v4',
  regions: PROVIDER_A_REGIONS,
  // network_speed_gbps is `network_out` / 1000, and 0 when the document leaves `network_out`
  // out: Linode's API states it for every type, the bundled 2024 recording does not.
  fieldNotes: (values) =>
    values.networkSpeedGbps === 0 ? { network_speed_gbps: 'not_recorded' as const } : {},
  fieldNoteCases: {
    not_recorded: ["network_speed_gbps when the recording leaves out Linode's network_out"],
  },
  createAdapter: (client) => createProviderAAdapter({ client }),
  loadSnapshotTools: async () => (await import('./snapshot/tools.js')).snapshotTools,
});

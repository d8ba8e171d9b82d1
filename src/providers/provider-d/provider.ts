// provider_d: Google Cloud Compute Engine on-demand prices (D65), served only when PROVIDERS
// names it. Its upstream is the snapshot layout (schema.ts), or Cyclenerd's weekly pricing.yml
// when PROVIDER_D_URL names a `.yml`/`.yaml` file (pricing-file.ts): Google publishes no keyless
// price file of its own.
import type { FieldNotes } from '../../catalog/field-notes.js';
import type { ProviderDefinition } from '../provider-definition.js';
import { createProviderDAdapter } from './adapter.js';
import { isPricingFileUrl } from './fetch.js';
import { bundledReferenceUrl } from './reference.js';
import { PROVIDER_D_NAME, PROVIDER_D_REGIONS } from './regions.js';

export const providerD = Object.freeze<ProviderDefinition>({
  name: PROVIDER_D_NAME,
  displayName: 'Google Cloud',
  envKey: 'D',
  upstreamName:
    'Google Cloud Billing Catalog API prices (snapshot layout, or Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml)',
  regions: PROVIDER_D_REGIONS,
  optIn: true,
  // storage_gb 0: no bundled Local SSD (Persistent Disk is bought apart); transfer_tb is always
  // 0 (egress is billed per GB); network 0 only where no egress bandwidth is recorded.
  fieldNotes: (values) => {
    const notes: FieldNotes = {};
    if (values.storageGb === 0) notes.storage_gb = 'not_included';
    if (values.transferTb === 0) notes.transfer_tb = 'not_included';
    if (values.networkSpeedGbps === 0) notes.network_speed_gbps = 'not_recorded';
    return notes;
  },
  blockStorage: 'Persistent Disk',
  fieldNoteCases: {
    not_included: ['storage_gb 0 = Persistent Disk only', 'transfer_tb 0 = billed per GB'],
    not_recorded: ['network_speed_gbps of the few types without a recorded egress bandwidth'],
  },
  isLiveFile: isPricingFileUrl,
  createAdapter: (client, context) =>
    createProviderDAdapter({
      client,
      ...(isPricingFileUrl(client.baseUrl)
        ? {
            pricingFile: {
              upstreamClient: (baseUrl: string) => context.upstreamClient(baseUrl),
              referenceUrl: bundledReferenceUrl(),
            },
          }
        : {}),
    }),
  loadSnapshotTools: async () => (await import('./snapshot/tools.js')).snapshotTools,
});

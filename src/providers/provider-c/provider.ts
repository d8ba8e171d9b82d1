// provider_c: AWS EC2 Linux prices (Price List Bulk API offer files), with spot prices and AWS's
// spot advice from their own feeds (D61).
import type { FieldNotes } from '../../catalog/field-notes.js';
import type { ProviderDefinition } from '../provider-definition.js';
import { createProviderCAdapter } from './adapter.js';
import { PROVIDER_C_NAME, PROVIDER_C_REGIONS } from './regions.js';
import { spotFeedSources } from './spot-sync.js';

export const providerC = Object.freeze<ProviderDefinition>({
  name: PROVIDER_C_NAME,
  displayName: 'AWS',
  envKey: 'C',
  upstreamName: 'AWS Price List Bulk API',
  regions: PROVIDER_C_REGIONS,
  // storage_gb 0 is "EBS only" (no instance storage; EBS volumes are bought apart); transfer_tb
  // is always 0: EC2 includes no data transfer, it is billed per GB.
  fieldNotes: (values) => {
    const notes: FieldNotes = {};
    if (values.storageGb === 0) notes.storage_gb = 'not_included';
    if (values.transferTb === 0) notes.transfer_tb = 'not_included';
    // 0 only where the offer file has no networkPerformance (parse.ts): the 2025 recording
    // holds none for previous-generation types, though AWS states one.
    if (values.networkSpeedGbps === 0) notes.network_speed_gbps = 'not_recorded';
    return notes;
  },
  blockStorage: 'EBS',
  fieldNoteCases: {
    not_included: ['storage_gb 0 = EBS only', 'transfer_tb 0 = billed per GB'],
    not_recorded: ['network_speed_gbps of previous-generation types in the bundled recording'],
  },
  createAdapter: (client, context) =>
    createProviderCAdapter({ client, spotFeeds: spotFeedSources(context) }),
  loadSnapshotTools: async () => (await import('./snapshot/tools.js')).snapshotTools,
});

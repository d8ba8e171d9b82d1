// provider_a's snapshot tools, as the snapshot scripts ask the registry for them.
import path from 'node:path';
import type { ProviderSnapshotTools } from '../../provider-definition.js';
import { generateProviderASnapshot } from './generate.js';
import { refreshProviderA } from './refresh.js';

/** Linode regions the test copy keeps: our three cities, Sydney and Jakarta (region prices). */
const FIXTURE_LINODE_REGIONS = new Set([
  'ap-northeast',
  'jp-osa',
  'ap-south',
  'ap-southeast',
  'id-cgk',
]);

export const snapshotTools: ProviderSnapshotTools = {
  async generate(bundled, fixtures) {
    await generateProviderASnapshot(path.join(bundled, 'provider_a'));
    await generateProviderASnapshot(path.join(fixtures, 'provider_a'), {
      keepRegion: (id) => FIXTURE_LINODE_REGIONS.has(id),
    });
  },
  refresh: (snapshots) => refreshProviderA(snapshots),
};

// provider_d's snapshot tools, as the snapshot scripts ask the registry for them: the bundled
// snapshot holds every recorded type, its test copy a few (generate.ts FIXTURE_TYPES).
import path from 'node:path';
import type { ProviderSnapshotTools } from '../../provider-definition.js';
import { PROVIDER_D_NAME } from '../regions.js';
import { generateProviderDSnapshot } from './generate.js';

export const snapshotTools: ProviderSnapshotTools = {
  async generate(bundled, fixtures) {
    await generateProviderDSnapshot(path.join(bundled, PROVIDER_D_NAME));
    await generateProviderDSnapshot(path.join(fixtures, PROVIDER_D_NAME), true);
  },
  // Google publishes no keyless price file to refresh from: the snapshot is rebuilt from newer
  // recordings (data/sources/) with snapshots:generate instead.
  refresh: () =>
    Promise.resolve(
      'skipped: no live upstream; record newer figures into data/sources/ and run npm run snapshots:generate',
    ),
};

// provider_b's snapshot tools, as the snapshot scripts ask the registry for them: the test copy
// is the whole snapshot.
import path from 'node:path';
import type { ProviderSnapshotTools } from '../../provider-definition.js';
import { generateProviderBSnapshot } from './generate.js';
import { refreshProviderB } from './refresh.js';

export const snapshotTools: ProviderSnapshotTools = {
  async generate(bundled, fixtures) {
    for (const dir of [bundled, fixtures])
      await generateProviderBSnapshot(path.join(dir, 'provider_b'));
  },
  refresh: (snapshots) => refreshProviderB(snapshots),
};

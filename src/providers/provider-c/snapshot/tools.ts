// provider_c's snapshot tools, as the snapshot scripts ask the registry for them: the test copy
// keeps a subset of the recorded types (fixture-subset.ts).
import path from 'node:path';
import type { ProviderSnapshotTools } from '../../provider-definition.js';
import { isFixtureRow } from './fixture-subset.js';
import { generateProviderCSnapshot } from './generate.js';
import { refreshProviderC } from './refresh.js';

export const snapshotTools: ProviderSnapshotTools = {
  async generate(bundled, fixtures) {
    await generateProviderCSnapshot(path.join(bundled, 'provider_c'));
    await generateProviderCSnapshot(path.join(fixtures, 'provider_c'), { keep: isFixtureRow });
  },
  refresh: (snapshots) => refreshProviderC(path.join(snapshots, 'provider_c')),
};

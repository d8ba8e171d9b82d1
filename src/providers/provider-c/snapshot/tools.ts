// provider_c's snapshot tools, as the snapshot scripts ask the registry for them: the test copy
// keeps a subset of the recorded types (fixture-subset.ts).
import path from 'node:path';
import type { ProviderSnapshotTools } from '../../provider-definition.js';
import { isFixtureRow } from './fixture-subset.js';
import { generateProviderCSnapshot } from './generate.js';
import { generateAwsMachineFacts } from './machine-facts-generate.js';
import { refreshProviderC } from './refresh.js';
import { writeSpotAdvisorSnapshot } from './spot-advisor.js';

export const snapshotTools: ProviderSnapshotTools = {
  async generate(bundled, fixtures) {
    await generateProviderCSnapshot(path.join(bundled, 'provider_c'));
    await generateProviderCSnapshot(path.join(fixtures, 'provider_c'), {
      keep: isFixtureRow,
      recordings: false,
    });
    // After the offer files, whose generator replaces the folder. The test copy holds all the
    // advice too (about 100 KB): it is read by types, so a subset would gain nothing.
    await writeSpotAdvisorSnapshot(path.join(bundled, 'provider_c'));
    await writeSpotAdvisorSnapshot(path.join(fixtures, 'provider_c'));
  },
  refresh: (snapshots) => refreshProviderC(path.join(snapshots, 'provider_c')),
  generateFacts: async () => {
    await generateAwsMachineFacts();
  },
};

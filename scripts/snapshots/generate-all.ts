// Every bundled snapshot and its test copy, from the recorded figures (see
// scripts/generate-snapshots.ts).
import path from 'node:path';
import { isFixtureRow } from './fixture-subset.js';
import { generateProviderASnapshot } from './generate-provider-a-snapshot.js';
import { generateProviderBSnapshot } from './generate-provider-b-snapshot.js';
import { generateProviderCSnapshot } from './generate-provider-c-snapshot.js';

/** Linode regions the test copy keeps: our three cities, Sydney and Jakarta (region prices). */
const FIXTURE_LINODE_REGIONS = new Set([
  'ap-northeast',
  'jp-osa',
  'ap-south',
  'ap-southeast',
  'id-cgk',
]);

/** Writes `<bundled>/provider_{a,b,c}` and `<fixtures>/provider_{a,b,c}`. */
export async function generateAllSnapshots(bundled: string, fixtures: string): Promise<void> {
  await generateProviderASnapshot(path.join(bundled, 'provider_a'));
  await generateProviderASnapshot(path.join(fixtures, 'provider_a'), {
    keepRegion: (id) => FIXTURE_LINODE_REGIONS.has(id),
  });
  for (const dir of [bundled, fixtures]) {
    await generateProviderBSnapshot(path.join(dir, 'provider_b'));
  }
  await generateProviderCSnapshot(path.join(bundled, 'provider_c'));
  await generateProviderCSnapshot(path.join(fixtures, 'provider_c'), { keep: isFixtureRow });
}

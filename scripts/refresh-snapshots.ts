// npm run snapshots:refresh — regenerates the bundled snapshots (data/snapshots/) from the three
// providers' live public catalogues. Needs internet access. Each provider's files are written
// all together or not at all; a provider that fails keeps its previous snapshot, and the script
// exits non-zero naming what failed.
// Usage: npx tsx scripts/refresh-snapshots.ts [snapshots directory]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { refreshProviderA } from './snapshots/provider-a.js';
import { refreshProviderB } from './snapshots/provider-b.js';
import { refreshProviderC } from './snapshots/provider-c.js';

const snapshotsDir =
  process.argv[2] ?? fileURLToPath(new URL('../data/snapshots/', import.meta.url));

const refreshers = [
  ['provider_a', () => refreshProviderA(snapshotsDir)],
  ['provider_b', () => refreshProviderB(snapshotsDir)],
  ['provider_c', () => refreshProviderC(path.join(snapshotsDir, 'provider_c'))],
] as const;

for (const [name, refresh] of refreshers) {
  try {
    const result = await refresh();
    console.log(`${name}: refreshed`, result);
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

// npm run snapshots:refresh — regenerates the bundled snapshots (data/snapshots/) from every
// registered provider's live public catalogue. Needs internet access. Each provider's files are
// written all together or not at all; a provider that fails keeps its previous snapshot, and the
// script exits non-zero naming what failed.
// Usage: npx tsx scripts/refresh-snapshots.ts [snapshots directory]
import { fileURLToPath } from 'node:url';
import { PROVIDERS } from '../src/providers/registry.js';

const snapshotsDir =
  process.argv[2] ?? fileURLToPath(new URL('../data/snapshots/', import.meta.url));

for (const provider of PROVIDERS) {
  try {
    const tools = await provider.loadSnapshotTools();
    const result = await tools.refresh(snapshotsDir);
    console.log(`${provider.name}: refreshed`, result);
  } catch (error) {
    console.error(`${provider.name}: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

// npm run snapshots:generate — rebuilds the bundled snapshots (data/snapshots/) from the recorded
// upstream figures in data/sources/, offline and deterministically, and the small test copy of
// them (test/fixtures/snapshots/: what each provider's snapshot tools keep) that tests use when
// they do not need the whole catalogue. Exits non-zero,
// naming the file, row and column, on bad or partial recorded data; writes nothing invented.
// (`npm run snapshots:refresh` instead reads the live upstreams.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateAllMachineFacts, generateAllSnapshots } from './snapshots/generate-all.js';

const root = fileURLToPath(new URL('../', import.meta.url));

try {
  await generateAllSnapshots(
    path.join(root, 'data', 'snapshots'),
    path.join(root, 'test', 'fixtures', 'snapshots'),
  );
  await generateAllMachineFacts();
  console.log(
    'snapshots generated: data/snapshots/, test/fixtures/snapshots/ and the machine-facts modules',
  );
} catch (error) {
  console.error(
    `snapshot generation failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}

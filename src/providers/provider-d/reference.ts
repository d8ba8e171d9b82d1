// The reference a pricing.yml sync reads beside the file (pricing-file.ts): the bundled snapshot
// directory shipped with the code, found from this module's place: src/providers/provider-d/
// (tsx, tests) is three levels below the package root, dist/src/providers/provider-d/ four.
// SNAPSHOT_DIR does not move it: it is the recorded machine-type list, not a configured upstream.
import { existsSync } from 'node:fs';

/** The file:// URL of the bundled data/snapshots/provider_d/ directory. */
export function bundledReferenceUrl(): string {
  for (const up of ['../../../', '../../../../']) {
    const dir = new URL(`${up}data/snapshots/provider_d/`, import.meta.url);
    if (existsSync(new URL('machine-types.json', dir))) return dir.href;
  }
  throw new Error('provider_d: the bundled data/snapshots/provider_d/ directory is missing');
}

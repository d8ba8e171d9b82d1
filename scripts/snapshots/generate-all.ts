// Every bundled snapshot and its test copy, from the recorded figures (see
// scripts/generate-snapshots.ts): each registered provider's own generator, in registry order.
import { PROVIDERS } from '../../src/providers/registry.js';

/** Writes `<bundled>/<name>/` and `<fixtures>/<name>/` for every registered provider. */
export async function generateAllSnapshots(bundled: string, fixtures: string): Promise<void> {
  for (const provider of PROVIDERS) {
    const tools = await provider.loadSnapshotTools();
    await tools.generate(bundled, fixtures);
  }
}

/** Rewrites every provider's generated machine-facts module (D62, D63) in its folder. */
export async function generateAllMachineFacts(): Promise<void> {
  for (const provider of PROVIDERS) {
    const tools = await provider.loadSnapshotTools();
    await tools.generateFacts?.();
  }
}

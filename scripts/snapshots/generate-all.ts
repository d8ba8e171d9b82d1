// Every bundled snapshot and its test copy, from the recorded figures (see
// scripts/generate-snapshots.ts): each registered provider's own generator, in registry order.
import type { ProviderDefinition } from '../../src/providers/provider-definition.js';
import { PROVIDERS } from '../../src/providers/registry.js';

/** Writes `<bundled>/<name>/` and `<fixtures>/<name>/` for every provider of `providers`. */
export async function generateAllSnapshots(
  bundled: string,
  fixtures: string,
  providers: readonly ProviderDefinition[] = PROVIDERS,
): Promise<void> {
  for (const provider of providers) {
    const tools = await provider.loadSnapshotTools();
    await tools.generate(bundled, fixtures);
  }
}

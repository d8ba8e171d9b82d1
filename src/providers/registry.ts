// The providers this service serves, in the order the API lists them. Each is one folder
// (src/providers/<name>/: adapter, region table with cities, display name, field notes); adding
// one is its folder and one line here (docs/architecture.md, "Adding a provider"). Importing this
// module installs the ones served by default as the catalogue's providers (catalog/model.ts
// installProviders); the composition root installs those the PROVIDERS setting enables (D65,
// config.ts), so a test can add a provider, or enable an opt-in one, the same way.
import { installProviders } from '../catalog/model.js';
import type { ProviderDefinition } from './provider-definition.js';
import { providerA } from './provider-a/provider.js';
import { providerB } from './provider-b/provider.js';
import { providerC } from './provider-c/provider.js';
import { providerD } from './provider-d/provider.js';

export const PROVIDERS: readonly ProviderDefinition[] = Object.freeze([
  providerA,
  providerB,
  providerC,
  providerD,
]);

/** The providers a start without PROVIDERS serves (D65): every one not marked `optIn`. */
export function defaultProviders(
  registry: readonly ProviderDefinition[] = PROVIDERS,
): readonly ProviderDefinition[] {
  return registry.filter((p) => p.optIn !== true);
}

installProviders(defaultProviders());

// The providers the OpenAPI document's examples show: the registered ones, in registry order,
// so an example names a provider only through the registry.
import type { ProviderDefinition } from '../../providers/provider-definition.js';
import { PROVIDERS } from '../../providers/registry.js';

function registered(index: number): ProviderDefinition {
  const provider = PROVIDERS[index];
  if (provider === undefined) throw new Error(`the examples need provider ${index + 1}`);
  return provider;
}

export const FIRST_PROVIDER = registered(0);
export const SECOND_PROVIDER = registered(1);
export const THIRD_PROVIDER = registered(2);

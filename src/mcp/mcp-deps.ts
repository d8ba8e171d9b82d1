// The tools' dependencies from the composition root's services (server and CLI alike).
import type { ProviderName } from '../catalog/model.js';
import type { AppServices } from '../http/app-services.js';
import { ProvenanceNotes } from './provenance.js';
import type { McpDeps } from './tool-types.js';

export function createMcpDeps(
  services: Pick<AppServices, 'config' | 'listing' | 'catalog' | 'rates' | 'store' | 'health'>,
  log: McpDeps['log'],
): McpDeps {
  const { providers, registry } = services.config;
  const displayNames: Record<ProviderName, string> = Object.fromEntries(
    registry.map((p) => [p.name, providers[p.name]!.displayName]),
  );
  return {
    listing: services.listing,
    catalog: services.catalog,
    rates: services.rates,
    store: services.store,
    health: services.health,
    config: services.config,
    displayNames,
    provenance: new ProvenanceNotes(services.store, services.catalog, displayNames),
    log,
  };
}

// The tools' dependencies from the composition root's services (server and CLI alike).
import type { ProviderName } from '../catalog/model.js';
import type { Config } from '../config.js';
import { ProvenanceNotes } from './provenance.js';
import type { McpDeps } from './tool-types.js';

/** The services the tools take from the composition root: the same ones the routes are given. */
export type McpServices = Pick<McpDeps, 'listing' | 'catalog' | 'rates' | 'store' | 'health'> & {
  readonly config: Pick<Config, 'providers' | 'registry' | 'dataStaleDays'>;
};

export function createMcpDeps(services: McpServices, log: McpDeps['log']): McpDeps {
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

import type { ProviderName } from '../../catalog/model.js';
import type { Config } from '../../config.js';
import type { ProviderAdapter } from '../../catalog/offers.js';
import { createUpstreamClient } from '../upstream/http-upstream-client.js';
import type { UpstreamClient, UpstreamClientOptions } from '../upstream/upstream-client.js';
import { USER_AGENT } from '../upstream/user-agent.js';
import { withProvenance } from '../provenance.js';
import { createProviderAAdapter } from './provider-a/adapter.js';
import { createProviderBAdapter } from './provider-b/adapter.js';
import { createProviderCAdapter } from './provider-c/adapter.js';

export function upstreamOptions(config: Config, provider: ProviderName): UpstreamClientOptions {
  return {
    baseUrl: config.providers[provider].baseUrl,
    ...config.upstream,
    userAgent: USER_AGENT,
  };
}

/**
 * One adapter per provider, each reading its configured source (live, test server or snapshot),
 * its catalogues carrying their provenance (D37).
 */
export function createProviderAdapters(config: Config): Record<ProviderName, ProviderAdapter> {
  const build = (
    provider: ProviderName,
    create: (client: UpstreamClient) => ProviderAdapter,
  ): ProviderAdapter => {
    const options = upstreamOptions(config, provider);
    const client = createUpstreamClient(options);
    return withProvenance(create(client), { provider, baseUrl: options.baseUrl, client });
  };
  return {
    provider_a: build('provider_a', (client) => createProviderAAdapter({ client })),
    provider_b: build('provider_b', (client) => createProviderBAdapter({ client })),
    provider_c: build('provider_c', (client) => createProviderCAdapter({ client })),
  };
}

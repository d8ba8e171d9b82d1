import type { ProviderName } from '../../catalog/model.js';
import type { Config } from '../../config.js';
import type { ProviderAdapter } from '../offer.js';
import { createUpstreamClient } from '../upstream/http-upstream-client.js';
import type { UpstreamClientOptions } from '../upstream/upstream-client.js';
import { createProviderAAdapter } from './provider-a/adapter.js';
import { createProviderBAdapter } from './provider-b/adapter.js';
import { createProviderCAdapter } from './provider-c/adapter.js';

export const USER_AGENT =
  'cloudprice/0.1 (catalogue sync; +https://github.com/cloudprice/cloudprice)';

export function upstreamOptions(config: Config, provider: ProviderName): UpstreamClientOptions {
  return {
    baseUrl: config.providers[provider].baseUrl,
    ...config.upstream,
    userAgent: USER_AGENT,
  };
}

/** One adapter per provider, each reading its configured source (live, test server or snapshot). */
export function createProviderAdapters(config: Config): Record<ProviderName, ProviderAdapter> {
  return {
    provider_a: createProviderAAdapter({
      client: createUpstreamClient(upstreamOptions(config, 'provider_a')),
    }),
    provider_b: createProviderBAdapter({
      client: createUpstreamClient(upstreamOptions(config, 'provider_b')),
    }),
    provider_c: createProviderCAdapter({
      client: createUpstreamClient(upstreamOptions(config, 'provider_c')),
    }),
  };
}

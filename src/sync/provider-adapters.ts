// The composition of each registered provider's adapter with its configured upstream client
// and the provenance of its catalogues (D37).
import type { ProviderName } from '../catalog/model.js';
import type { Config } from '../config.js';
import type {
  ProviderAdapterContext,
  ProviderDefinition,
} from '../providers/provider-definition.js';
import type { ProviderAdapter } from '../catalog/offers.js';
import { createUpstreamClient } from './upstream/http-upstream-client.js';
import type { UpstreamClientOptions } from './upstream/upstream-client.js';
import { USER_AGENT } from './upstream/user-agent.js';
import { withProvenance } from './provenance.js';

export function upstreamOptions(config: Config, provider: ProviderName): UpstreamClientOptions {
  return {
    baseUrl: config.providers[provider]!.baseUrl,
    ...config.upstream,
    userAgent: USER_AGENT,
  };
}

/**
 * D61: the purchase-option feeds configured for `provider`. PROVIDER_C_SPOT_* belong to the
 * provider of letter C (AWS), as config.ts reads them.
 */
function optionFeedsOf(
  config: Config,
  provider: ProviderDefinition,
): ProviderAdapterContext['optionFeeds'] {
  if (provider.envKey !== 'C') return {};
  const { pricesUrl, adviceUrl, bundledAdviceUrl } = config.providerCSpot;
  return {
    ...(pricesUrl === undefined
      ? {}
      : { spot: { url: pricesUrl, setting: 'PROVIDER_C_SPOT_URL', bundled: false } }),
    ...(adviceUrl === undefined
      ? {}
      : {
          spot_advice: {
            url: adviceUrl,
            setting: 'PROVIDER_C_SPOT_ADVICE_URL',
            bundled: adviceUrl === bundledAdviceUrl,
          },
        }),
  };
}

/**
 * One adapter per provider of `config.registry`, each reading its configured source (live, test
 * server or snapshot), its catalogues carrying their provenance (D37).
 */
export function createProviderAdapters(config: Config): Record<ProviderName, ProviderAdapter> {
  const build = (provider: ProviderDefinition): ProviderAdapter => {
    const options = upstreamOptions(config, provider.name);
    const client = createUpstreamClient(options);
    const context: ProviderAdapterContext = {
      optionFeeds: optionFeedsOf(config, provider),
      upstreamClient: (baseUrl: string) => createUpstreamClient({ ...options, baseUrl }),
    };
    return withProvenance(provider.createAdapter(client, context), {
      provider: provider.name,
      upstreamName: provider.upstreamName,
      baseUrl: options.baseUrl,
      client,
      liveFile: provider.isLiveFile?.(options.baseUrl) ?? false,
    });
  };
  return Object.fromEntries(config.registry.map((p) => [p.name, build(p)]));
}

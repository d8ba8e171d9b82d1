// Builds the exchange-rate service from configuration: FX_RATES_URL through the same upstream
// client as the providers (timeouts, retries, redirects), the bundled recording as fallback.
import type { Config } from '../config.js';
import { USER_AGENT } from '../sync/provider-adapters.js';
import { createUpstreamClient } from '../sync/upstream/http-upstream-client.js';
import { createEcbRatesAdapter, ECB_MAX_BYTES, ratesLocation } from './ecb-fetch.js';
import {
  createExchangeRateService,
  type ExchangeRateService,
  type ExchangeRateServiceDeps,
  type RatesOrigin,
} from './exchange-rates.js';

const ECB_SOURCE = 'European Central Bank euro foreign exchange reference rates';

function origin(config: Config, documentUrl: string): RatesOrigin {
  const { baseUrl, path } = ratesLocation(documentUrl);
  const client = createUpstreamClient({
    ...config.upstream,
    baseUrl,
    maxResponseBytes: Math.min(config.upstream.maxResponseBytes, ECB_MAX_BYTES),
    userAgent: USER_AGENT,
    documentKind: 'xml',
  });
  const url = new URL(documentUrl);
  const live = url.protocol !== 'file:';
  return {
    adapter: createEcbRatesAdapter(client, path),
    kind: live ? 'live' : 'snapshot',
    // Never a server path (D37): the host for live rates, "bundled recording" for a file.
    source: live ? `${ECB_SOURCE} (${url.host})` : `${ECB_SOURCE} (bundled recording)`,
  };
}

export function createExchangeRates(
  config: Config,
  log: ExchangeRateServiceDeps['log'],
): ExchangeRateService {
  const primary = origin(config, config.fx.ratesUrl);
  const fallback =
    config.fx.ratesUrl === config.fx.bundledRatesUrl
      ? undefined
      : origin(config, config.fx.bundledRatesUrl);
  return createExchangeRateService({ primary, ...(fallback && { fallback }), log });
}

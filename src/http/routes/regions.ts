import type { FastifyInstance } from 'fastify';
import type { ProviderName } from '../../catalog/model.js';
import { regionsOverview } from '../../catalog/regions-overview.js';
import type { AppServices } from '../app-services.js';
import { queryFailure } from '../query-failure.js';
import { ApiKeySecurity, commonErrorResponses, withExamples } from '../schemas/common.js';
import { REGIONS_RESPONSE_EXAMPLE, RegionsResponse } from '../schemas/regions.js';
import { INSTANCES_RATE_LIMIT } from './instances.js';

// GET /regions (D56): places by city, with record counts from the current catalogue index and
// each provider's observation date from its last successful sync (as /health shows it). Counts
// against the /instances rate limit (one budget for catalogue reads).

export function regionsRoute(app: FastifyInstance, { catalog, store, config }: AppServices): void {
  const vary = config.corsOrigins.length > 0 ? 'X-API-Key, Origin' : 'X-API-Key';
  const displayNames = Object.fromEntries(
    Object.entries(config.providers).map(([name, source]) => [name, source.displayName]),
  );

  app.get(
    '/regions',
    {
      config: { rateLimit: INSTANCES_RATE_LIMIT, rateLimitScope: '/instances' },
      schema: {
        operationId: 'listRegions',
        tags: ['instances'],
        summary: 'Regions and cities, with record counts and when their prices were observed',
        description:
          'Every region of the table with its city (D56), the available records it holds (`instances`) and when its provider’s figures were observed upstream (`observed_at`, D37; null before the first sync); and every city with its regions, so a client can offer one "Tokyo" and send `city=tokyo`; and (extension) every provider with its display name (D55) and the name of the network block storage it sells apart, if any. No parameters. Counts against the /instances rate limit.',
        security: ApiKeySecurity,
        response: {
          200: withExamples(RegionsResponse, REGIONS_RESPONSE_EXAMPLE),
          ...commonErrorResponses(),
        },
      },
    },
    async (request, reply) => {
      let data;
      try {
        const index = catalog.current ?? (await catalog.ready());
        const observedAt = new Map<ProviderName, Date>();
        for (const state of await store.providerStates()) {
          if (state.dataSource !== null)
            observedAt.set(state.provider, state.dataSource.observedAt);
        }
        data = regionsOverview(index.records, observedAt, displayNames);
      } catch (error) {
        request.log.error({ err: error }, 'regions query failed');
        throw queryFailure(error);
      }
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('vary', vary)
        .send({ success: true, data });
    },
  );
}

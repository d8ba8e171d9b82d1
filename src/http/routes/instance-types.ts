import type { FastifyInstance } from 'fastify';
import { parseInstanceTypesQuery } from '../../catalog/instance-types/instance-types-query.js';
import { InstanceTypesReader } from '../../catalog/instance-types/instance-types-reader.js';
import type { AppServices } from '../app-services.js';
import { queryFailure } from '../query-failure.js';
import { invalidParameter } from '../../api/parameter-error.js';
import { ApiKeySecurity, commonErrorResponses, withExamples } from '../schemas/common.js';
import {
  INSTANCE_TYPES_RESPONSE_EXAMPLE,
  InstanceTypeRow,
  InstanceTypesQuery,
  InstanceTypesResponse,
} from '../schemas/instance-types.js';
import { INSTANCES_RATE_LIMIT } from './instances.js';

// GET /instance-types (D46), answered from the catalogue index. Counts against the /instances
// rate limit (one budget for catalogue reads).

export function instanceTypesRoute(
  app: FastifyInstance,
  { catalog, rates, config }: AppServices,
): void {
  app.addSchema(InstanceTypeRow);
  const reader = new InstanceTypesReader(catalog);
  const vary = config.corsOrigins.length > 0 ? 'X-API-Key, Origin' : 'X-API-Key';

  app.get(
    '/instance-types',
    {
      config: { rateLimit: INSTANCES_RATE_LIMIT, rateLimitScope: '/instances' },
      schema: {
        operationId: 'listInstanceTypes',
        tags: ['instances'],
        summary: 'Instance types with their prices per region side by side',
        description:
          'One row per (provider, instance type) with its available records in the listed `regions` (D46): the /instances filters (provider, vCPU, memory, max_price, family, GPU, q) select the records, then records are grouped per type. `max_price` applies per region: a region above it has no cell. `currency` converts every price as /instances does (a cell equals the record /instances shows). Bad parameters (an unknown currency, a malformed region list, a limit over 100...): 400 INVALID_PARAMETER with details {parameter, value, reason[, allowed]}. Counts against the /instances rate limit.',
        security: ApiKeySecurity,
        querystring: InstanceTypesQuery,
        response: {
          200: withExamples(InstanceTypesResponse, INSTANCE_TYPES_RESPONSE_EXAMPLE),
          ...commonErrorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const parsed = parseInstanceTypesQuery(
        request.query as Record<string, unknown>,
        rates.current(),
      );
      if (!parsed.ok) throw invalidParameter(parsed.problem);
      let body: Buffer;
      try {
        body = await reader.read(parsed.value);
      } catch (error) {
        request.log.error({ err: error }, 'instance types query failed');
        throw queryFailure(error);
      }
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('vary', vary)
        .send(body);
    },
  );
}

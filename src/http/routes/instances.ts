import type { FastifyInstance } from 'fastify';
import { echoValue } from '../../catalog/echo-value.js';
import { CACHE_TTL_SECONDS } from '../../catalog/instance-listing.js';
import { parseInstanceQuery } from '../../catalog/instance-query.js';
import { parseAsOf } from '../../history/history-query.js';
import { listAsOf } from '../../history/history-service.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../errors.js';
import { invalidParameter } from '../parameter-error.js';
import { ApiKeySecurity, commonErrorResponses, withExamples } from '../schemas/common.js';
import { INSTANCES_RESPONSE_EXAMPLE } from '../schemas/examples.js';
import { InstanceRecord, InstancesQuery, InstancesResponse } from '../schemas/instances.js';

export const INSTANCES_RATE_LIMIT = 100;

export function instancesRoute(
  app: FastifyInstance,
  { listing, config, rates, store }: AppServices,
): void {
  app.addSchema(InstanceRecord);
  const vary = config.corsOrigins.length > 0 ? 'X-API-Key, Origin' : 'X-API-Key';
  const cacheControl = `public, max-age=${CACHE_TTL_SECONDS}`;

  app.get(
    '/instances',
    {
      config: { rateLimit: INSTANCES_RATE_LIMIT },
      schema: {
        operationId: 'listInstances',
        tags: ['instances'],
        summary: 'List instances with filters, sorting and pagination',
        description:
          'Available records only. Responses are cached for 300 s per normalised query; a successful sync empties the cache. Any invalid parameter gives 400 INVALID_PARAMETER with details {parameter, value, reason[, allowed]}; a parameter given twice is invalid; unknown parameters are ignored.',
        security: ApiKeySecurity,
        querystring: InstancesQuery,
        response: {
          200: withExamples(InstancesResponse, INSTANCES_RESPONSE_EXAMPLE),
          ...commonErrorResponses(400),
        },
      },
    },
    async (request, reply) => {
      const parsed = parseInstanceQuery(request.query as Record<string, unknown>, rates.current());
      if (!parsed.ok) {
        const { parameter, value, reason, allowed } = parsed.problem;
        throw new AppError(
          'INVALID_PARAMETER',
          `Invalid value for parameter "${parameter}": ${reason}`,
          {
            parameter,
            value: echoValue(value),
            reason,
            ...(allowed && { allowed }),
          },
        );
      }
      // D41: a past catalogue comes from the store's history, never from the listing's cache.
      const asOf = parseAsOf(request.query as Record<string, unknown>, new Date());
      if (!asOf.ok) throw invalidParameter(asOf.problem);
      let body;
      try {
        body =
          asOf.value === undefined
            ? await listing.list(parsed.value)
            : await listAsOf(store, parsed.value, asOf.value);
      } catch (error) {
        request.log.error({ err: error }, 'instance query failed');
        throw new AppError('QUERY_FAILED', 'Query execution failed');
      }
      // The body is already JSON bytes: Fastify sends a Buffer as it is.
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('cache-control', asOf.value === undefined ? cacheControl : 'no-store')
        .header('vary', vary)
        .send(body);
    },
  );
}

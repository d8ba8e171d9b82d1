import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { exportInstancesCsv } from '../../catalog/instance-export.js';
import { CACHE_TTL_SECONDS } from '../../catalog/instance-listing.js';
import { CSV_MAX_LIMIT, MAX_LIMIT, parseInstanceQuery } from '../../catalog/instance-query.js';
import { parseAsOf } from '../../history/history-query.js';
import { listAsOf } from '../../history/history-service.js';
import type { AppServices } from '../app-services.js';
import { queryFailure } from '../query-failure.js';
import { invalidParameter } from '../../api/parameter-error.js';
import { responseFormat } from '../response-format.js';
import { ApiKeySecurity, commonErrorResponses, withExamples } from '../schemas/common.js';
import { INSTANCES_RESPONSE_EXAMPLE } from '../schemas/examples.js';
import { InstanceRecord, InstancesQuery, InstancesResponse } from '../schemas/instances.js';

export const INSTANCES_RATE_LIMIT = 100;

/**
 * The raw request as the listing remembers it after a validated request: what the answer depends
 * on besides the catalogue version and the exchange rates (both start a new cache), i.e. the URL
 * (path and query string as sent) and the Accept header (D47). Neither can hold a line break.
 */
function rawRequestKey(request: FastifyRequest): string {
  const accept = request.headers.accept;
  return accept === undefined ? `N\n${request.url}` : `A${accept}\n${request.url}`;
}

/** A store or index failure: logged, and the client gets queryFailure's envelope (503 or 500). */
function queryFailed(request: FastifyRequest) {
  return (error: unknown): never => {
    request.log.error({ err: error }, 'instance query failed');
    throw queryFailure(error);
  };
}

export function instancesRoute(
  app: FastifyInstance,
  { listing, config, rates, store, catalog }: AppServices,
): void {
  app.addSchema(InstanceRecord);
  // Accept chooses between JSON and CSV (D47), so a cache must key on it too.
  const vary = config.corsOrigins.length > 0 ? 'X-API-Key, Accept, Origin' : 'X-API-Key, Accept';
  const cacheControl = `public, max-age=${CACHE_TTL_SECONDS}`;
  // A JSON listing's headers; one helper for both paths, so a hit answered early sends the same.
  const sendJson = (reply: FastifyReply, cache: string, body: Buffer | string) =>
    reply
      .header('cache-control', cache)
      .header('vary', vary)
      .header('content-type', 'application/json; charset=utf-8')
      .send(body);

  app.get(
    '/instances',
    {
      config: {
        rateLimit: INSTANCES_RATE_LIMIT,
        // A repeated request answered from the response cache in the onRequest hook, once the
        // rate limit and the key have passed, without parsing or validating again: only a raw
        // request that a validated current-catalogue JSON request named gets there (ADR 0009).
        cachedReply: (request, reply) => {
          const body = listing.cachedFor(rawRequestKey(request));
          return body === undefined ? undefined : sendJson(reply, cacheControl, body);
        },
      },
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
      const query = request.query as Record<string, unknown>;
      const format = responseFormat(query['format'], request.headers.accept);
      if (!format.ok) throw invalidParameter(format.problem);
      const csv = format.format === 'csv';
      const parsed = parseInstanceQuery(query, rates.current(), {
        maxLimit: csv ? CSV_MAX_LIMIT : MAX_LIMIT,
      });
      if (!parsed.ok) throw invalidParameter(parsed.problem);
      // D41: a past catalogue comes from the store's history, never from the listing's cache.
      const asOf = parseAsOf(query, new Date(), parsed.value.purchaseOption);
      if (!asOf.ok) throw invalidParameter(asOf.problem);
      const cache = asOf.value === undefined ? cacheControl : 'no-store';
      if (csv) {
        const exported = await exportInstancesCsv(
          { catalog, store },
          parsed.value,
          asOf.value,
        ).catch(queryFailed(request));
        return reply
          .header('cache-control', cache)
          .header('vary', vary)
          .header('content-type', 'text/csv; charset=utf-8; header=present')
          .header('content-disposition', 'attachment; filename="instances.csv"')
          .header('x-total-count', String(exported.total))
          .send(exported.csv);
      }
      const body = await (
        asOf.value === undefined
          ? listing.list(parsed.value, rawRequestKey(request))
          : listAsOf(store, parsed.value, asOf.value)
      ).catch(queryFailed(request));
      // The body is already JSON bytes: Fastify sends a Buffer as it is.
      return sendJson(reply, cache, body);
    },
  );
}

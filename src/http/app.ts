// buildApp(services): the Fastify instance with everything every endpoint shares, in the order
// DECISIONS fixes: CORS preflight, rate limit, authentication, body, then validation.
// It never listens; main.ts does, and tests inject into it or listen on port 0.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from '../config.js';
import { boundPipelining, watchWrites } from '../infra/write-watchdog.js';
import { createLogger, silentLogger } from '../observability/logger.js';
import { noopMetrics } from '../observability/metrics.js';
import { apiKeyOf, createApiKeyVerifier } from './auth.js';
import { createClientAddressResolver } from './client-address.js';
import { handleClientError } from './client-errors.js';
import { installErrorHandling, routerError, sendError } from './error-handler.js';
import { AppError, MESSAGES } from '../api/errors.js';
import { registerJsonParser } from './json-body.js';
import { registerCompression } from './compression.js';
import { openApiOptions } from './openapi.js';
import { CounterStoreFullError } from '../infra/memory/memory-counter-store.js';
import { createRateLimiter, rateLimitHeaders, type RateDecision } from './rate-limit.js';
import { RequestLogController } from './request-log.js';
import { recordRoutes } from './route-table.js';
import { routeTraitsOf, type RouteTraits } from './route-traits.js';
import { registerRoutes } from './routes/index.js';
import { ErrorEnvelope } from './schemas/common.js';
import { createCorsPolicy, createMcpCorsPolicy, isMcpUrl } from './security-headers.js';
import type { AppServices } from './app-services.js';

export const BODY_LIMIT_BYTES = 10 * 1024;
/** D7a: failed authentications per client address and clock minute before 429. */
export const AUTH_FAILURE_LIMIT = 20;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests per client address per minute on this route; absent = unlimited (D8). */
    rateLimit?: number;
    /** Served without a key and without a rate limit: the web UI's files, which hold no data. */
    public?: boolean;
    /** Routes naming the same scope share one budget (default: the route's own path). */
    rateLimitScope?: string;
    /**
     * Asked at the end of the onRequest hook (after CORS, rate limit, key and body size) for a
     * GET: the reply it sent, or undefined to go on to validation and the handler.
     */
    cachedReply?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
  }
}

export async function buildApp(services: AppServices): Promise<FastifyInstance> {
  const { config } = services;
  // One logger for the whole process (D52): main.ts hands in its own; otherwise one is built
  // with the same format from the configuration.
  const logger =
    services.logger === false
      ? silentLogger()
      : (services.logger ?? createLogger({ level: config.logLevel, format: config.logFormat }));
  const metrics = services.metrics ?? noopMetrics;
  const appCors = createCorsPolicy(config.corsOrigins);
  const mcpCors = createMcpCorsPolicy(config.mcpAllowedOrigins, appCors);
  const logController = new RequestLogController(metrics);
  const app = Fastify({
    // Always a logger instance: Fastify then follows every response to its end, where the
    // request log controller writes its one line and records it in the metrics (D60, D51).
    loggerInstance: logger,
    logController,
    bodyLimit: BODY_LIMIT_BYTES,
    serverFactory: (handler) => createHttpServer(config, logger, handler),
    clientErrorHandler: handleClientError,
    // A path the router cannot decode (bad percent-encoding) or a parameter over its length cap
    // is answered before any hook runs: the headers every response carries are set here, and
    // its request line written when it ends (Fastify follows only routed responses to their end).
    frameworkErrors: (error, request, reply) => {
      const cors = isMcpUrl(request.url) ? mcpCors : appCors;
      reply.headers(cors.headersFor(request.headers.origin)).header('x-request-id', request.id);
      reply.raw.once('finish', () => logController.requestCompleted(null, request, reply));
      void sendError(reply, routerError(error));
    },
    genReqId: () => randomUUID(),
    return503OnClosing: true,
  });
  // First, so the table holds every route (app.registeredRoutes).
  const routes = recordRoutes(app);
  // Validation is done by the domain parsers, which speak the specification's error
  // vocabulary; route schemas describe requests for the OpenAPI document (docs/adr/0002).
  app.setValidatorCompiler(() => () => true);
  app.addSchema(ErrorEnvelope);
  await app.register(swagger, openApiOptions());
  registerJsonParser(app);
  registerCompression(app);
  installErrorHandling(app, routes);

  const clientAddress = createClientAddressResolver(config.clientIpHeader);
  const verifyKey = createApiKeyVerifier(services.apiKeyDigests);
  const consume = createRateLimiter(services.counters, services.now);
  app.decorateRequest('routeTraits', null);

  // Whether the last request the counter store failed (issue 35): the watch hears only changes,
  // so an outage writes one line when it starts and one when it ends, however many requests it
  // refuses in between (each is counted in cloudprice_rate_limiter_unavailable_total and writes
  // its request line).
  let limiterFailing = false;

  async function rateLimit(
    route: RouteTraits,
    scope: string,
    client: string,
    limit: number,
    untrusted = false,
  ): Promise<RateDecision> {
    try {
      const decision = await consume(scope, client, limit, untrusted);
      if (limiterFailing) {
        limiterFailing = false;
        services.limiterWatch.recovered('requests');
      }
      return decision;
    } catch (error) {
      // Fail closed (D11): no counter, no service. A full table (a flood of new client
      // addresses) is an expected state, not a failure of the store.
      metrics.rateLimiterUnavailable(route.scope);
      if (!limiterFailing && !(error instanceof CounterStoreFullError)) {
        limiterFailing = true;
        services.limiterWatch.failed('requests', error);
      }
      throw new AppError('SERVICE_UNAVAILABLE', MESSAGES.SERVICE_UNAVAILABLE, undefined, {
        'retry-after': '5',
      });
    }
  }

  function tooMany(decision: RateDecision): AppError {
    return new AppError(
      'RATE_LIMIT_EXCEEDED',
      MESSAGES.RATE_LIMIT_EXCEEDED,
      { limit: decision.limit, window: '1m', retry_after: decision.resetSeconds },
      { 'retry-after': String(decision.resetSeconds), ...rateLimitHeaders(decision) },
    );
  }

  /**
   * One request against `scope`'s budget of `limit` a minute (D8), 429 over it; the onRequest hook
   * charges each route so, and POST /mcp each tools/call against the endpoint it mirrors (D59).
   */
  const charge = async (
    request: FastifyRequest,
    reply: FastifyReply,
    scope: string,
    limit: number,
    client: string = clientAddress(request),
    untrusted = false,
  ): Promise<void> => {
    const route = request.routeTraits ?? routeTraitsOf(request);
    const decision = await rateLimit(route, scope, client, limit, untrusted);
    reply.headers(rateLimitHeaders(decision));
    if (!decision.allowed) {
      metrics.rateLimitRejected(scope, 'route');
      throw tooMany(decision);
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    const route = routeTraitsOf(request);
    request.routeTraits = route;
    const origin = request.headers.origin;
    const cors = isMcpUrl(request.url) ? mcpCors : appCors;
    reply.headers(cors.headersFor(origin)).header('x-request-id', request.id);

    // 1. CORS preflight, answered without a key: browsers cannot send one on it (D12).
    if (
      request.method === 'OPTIONS' &&
      origin !== undefined &&
      request.headers['access-control-request-method'] !== undefined
    ) {
      return reply.code(204).headers(cors.preflightHeadersFor(origin)).send();
    }
    if (route.public) return undefined;

    // 2. Rate limit, answered before authentication so key guessing is throttled too. The key
    // is checked first only to say whether the request may create a counter in the room kept
    // for the valid path (issue 35); the count is the address's one count either way, and a
    // request over its limit gets 429 whether its key is valid or not.
    const client = clientAddress(request);
    const authenticated = verifyKey(apiKeyOf(request.headers, route.label === '/mcp'));
    if (route.rateLimit !== undefined) {
      await charge(request, reply, route.scope, route.rateLimit, client, !authenticated);
    }

    // 3. Authentication; failures are limited on their own (D7a).
    if (!authenticated) {
      const failures = await rateLimit(route, 'auth-failures', client, AUTH_FAILURE_LIMIT, true);
      if (!failures.allowed) {
        metrics.rateLimitRejected(route.scope, 'auth_failures');
        throw tooMany(failures);
      }
      throw new AppError('UNAUTHORIZED', MESSAGES.UNAUTHORIZED);
    }

    // 4. Body size, before reading a byte of it (D13); chunked bodies hit the parser's limit.
    const length = Number(request.headers['content-length'] ?? 0);
    if (length > BODY_LIMIT_BYTES) throw payloadTooLarge();

    // 5. A response-cache hit, answered here rather than after validation (ADR 0009).
    if (route.cachedReply !== undefined && request.method === 'GET') {
      return route.cachedReply(request, reply);
    }
    return undefined;
  });

  await registerRoutes(app, services, charge);
  return app;
}

/**
 * Node's server with our connection bounds. Fastify 5 leaves Node's request timeout off; ours
 * bounds the whole request (headers and body), and the headers alone get a much shorter deadline,
 * so slow or silent clients each hold a socket for HEADERS_TIMEOUT, not REQUEST_TIMEOUT. Node
 * checks both every connectionsCheckingInterval (30 s by default), so check more often than the
 * timeouts themselves. MAX_CONNECTIONS bounds what they can hold at once: beyond it a new
 * connection is closed as soon as it is accepted, and the refusals are logged once a minute.
 * WRITE_TIMEOUT closes a connection whose answer the client does not read (write-watchdog.ts).
 */
function createHttpServer(
  config: Config,
  logger: FastifyBaseLogger,
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const server = createServer(
    {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
    },
    boundPipelining(handler),
  );
  server.maxConnections = config.maxConnections;
  let dropped = 0;
  let droppedLoggedAt = -Infinity;
  watchWrites(server, config.writeTimeoutMs, () => {
    dropped += 1;
    const now = performance.now();
    if (now - droppedLoggedAt < 60_000) return;
    logger.warn(
      { writeTimeoutMs: config.writeTimeoutMs, dropped },
      'connections closed: their responses were not read within WRITE_TIMEOUT',
    );
    droppedLoggedAt = now;
    dropped = 0;
  });
  let refused = 0;
  let loggedAt = -Infinity;
  server.on('drop', () => {
    refused += 1;
    const now = performance.now();
    if (now - loggedAt < 60_000) return;
    logger.warn(
      { maxConnections: config.maxConnections, refused },
      'connections refused: MAX_CONNECTIONS open connections',
    );
    loggedAt = now;
    refused = 0;
  });
  return server;
}

export function payloadTooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body is larger than ${BODY_LIMIT_BYTES} bytes`);
}

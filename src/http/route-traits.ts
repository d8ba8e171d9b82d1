// What the app's hooks read of a request's route (its config and pattern), taken once per route.
// Fastify 5's `request.routeOptions` builds a new 12-field object on every read, and a request
// read it three times in the onRequest hook and once more for the metrics; now once, in the
// onRequest hook, which leaves the route's traits on the request for what comes after.
import type { FastifyContextConfig, FastifyRequest } from 'fastify';

export interface RouteTraits {
  /** Served without a key and without a rate limit (FastifyContextConfig.public). */
  readonly public: boolean;
  /** Requests per client address per minute; undefined = unlimited. */
  readonly rateLimit: number | undefined;
  /** The rate-limit budget the route counts against, and its label in rate-limit metrics. */
  readonly scope: string;
  readonly cachedReply: FastifyContextConfig['cachedReply'];
  /**
   * The route's label in the HTTP metrics: its pattern (`/instances/:id/history`), never the
   * URL, so a client cannot grow the series; 'unmatched' for every path no route matches (404).
   */
  readonly label: string;
  /** The request line is written at debug, not info (D60: /health probes, web UI files). */
  readonly logAtDebug: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The matched route's traits, set first thing in the onRequest hook (null before). */
    routeTraits: RouteTraits | null;
  }
}

/** Keyed by the route's config object, which Fastify keeps for the route's lifetime. */
const byRoute = new WeakMap<object, RouteTraits>();

const UNMATCHED: RouteTraits = Object.freeze({
  public: false,
  rateLimit: undefined,
  scope: 'unknown',
  cachedReply: undefined,
  label: 'unmatched',
  logAtDebug: false,
});

/**
 * Probes and the web UI's files (and `/`, its redirect): frequent, and nothing an operator reads
 * request by request.
 */
function quietRoute(url: string | undefined): boolean {
  return url === '/health' || url === '/' || url === '/ui' || url?.startsWith('/ui/') === true;
}

/** The traits of the request's route, made on the route's first request. */
export function routeTraitsOf(request: FastifyRequest): RouteTraits {
  const route = request.routeOptions;
  // The 404 handler's config is `{}`; the optional chain is Fastify's own (context.config?.url).
  const config = route.config as FastifyContextConfig | undefined;
  if (config === undefined) return UNMATCHED;
  let traits = byRoute.get(config);
  if (traits === undefined) {
    traits = Object.freeze({
      public: config.public === true,
      rateLimit: config.rateLimit,
      scope: config.rateLimitScope ?? route.url ?? 'unknown',
      cachedReply: config.cachedReply,
      label: route.url ?? 'unmatched',
      logAtDebug: quietRoute(route.url),
    });
    byRoute.set(config, traits);
  }
  return traits;
}

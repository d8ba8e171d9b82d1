// The routes the app serves, as Fastify registers them (its documented onRoute hook, which also
// sees the HEAD routes it adds beside each GET). One list: the 405 answer's Allow header reads it,
// and so does the per-route security suite, so a new route is in both without anyone copying it.
import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  readonly method: string;
  /** The route's pattern as registered: `/instances/:id/history`, `/ui/*`. */
  readonly url: string;
  /** Served without a key and without a rate limit (FastifyContextConfig.public). */
  readonly public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, in registration order; complete once the app is ready. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

/**
 * Starts recording `app`'s routes and exposes them as `app.registeredRoutes`. Call it before any
 * route is registered: the hook sees only routes added after it, in this context and its children.
 */
export function recordRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });
  app.decorate('registeredRoutes', routes);
  return routes;
}

// Every answered request into the HTTP metrics (D51), recorded from Fastify's log controller:
// Fastify calls its `requestCompleted` once per request when the response has ended (`finish`,
// or `error` on the raw response), right after the onResponse hooks and with the same
// reply.elapsedTime they see. An onResponse hook doing this cost Fastify's hook runner on every
// request on top of the metrics' own updates (three closures, and a promise and a microtask for
// an async hook): docs/performance.md, "Metrics overhead".
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { routeTraitsOf } from './route-traits.js';

export class MetricsLogController extends LogController {
  readonly #metrics: Metrics;

  constructor(metrics: Metrics) {
    super();
    this.#metrics = metrics;
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    metadata?: Record<string, unknown>,
  ): void {
    // routeTraits is null only if the onRequest hook never ran for this request.
    const route = request.routeTraits ?? routeTraitsOf(request);
    this.#metrics.httpRequest(
      route.label,
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    super.requestCompleted(error, request, reply, metadata);
  }
}

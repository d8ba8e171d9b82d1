// One log line per answered request (D60), and the request into the HTTP metrics (D51), both
// from Fastify's log controller: Fastify calls `requestCompleted` once per request when the
// response has ended (`finish`, or `error` on the raw response), with the same
// reply.elapsedTime an onResponse hook would see, without the hook runner's closures, promise
// and microtask per request. Fastify's own two request lines ("incoming request", "request
// completed") are switched off (`disableRequestLogging`); this line replaces both.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { routeTraitsOf } from './route-traits.js';

/** What a request line says besides `reqId` (the request's child logger adds it). */
export interface RequestLine {
  readonly method: string;
  /** The URL's path; the query string is left out whole, so no parameter value is logged. */
  readonly path: string;
  readonly status: number;
  /** From the request received to the response sent, milliseconds (two decimals). */
  readonly duration_ms: number;
}

export class RequestLogController extends LogController {
  readonly #metrics: Metrics;

  constructor(metrics: Metrics) {
    super({ disableRequestLogging: true });
    this.#metrics = metrics;
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // routeTraits is null only if the onRequest hook never ran for this request.
    const route = request.routeTraits ?? routeTraitsOf(request);
    const elapsedMs = reply.elapsedTime;
    this.#metrics.httpRequest(route.label, request.method, reply.statusCode, elapsedMs / 1000);
    const url = request.url;
    const query = url.indexOf('?');
    const line: RequestLine = {
      method: request.method,
      path: query < 0 ? url : url.slice(0, query),
      status: reply.statusCode,
      duration_ms: Math.round(elapsedMs * 100) / 100,
    };
    if (error) request.log.error({ ...line, err: error }, 'request failed');
    else if (route.logAtDebug) request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  }

  // The two framework failures that leave no other trace keep their lines whatever
  // disableRequestLogging says: each is the only record of why a response was a 500.
  override serializerError(
    error: Error,
    request: FastifyRequest,
    _reply: FastifyReply,
    metadata: { statusCode: number },
  ): void {
    request.log.error(
      { err: error, statusCode: metadata.statusCode },
      'the serializer for the given status code failed',
    );
  }

  override writeHeadError(error: Error, request: FastifyRequest): void {
    request.log.warn({ err: error }, error.message);
  }
}

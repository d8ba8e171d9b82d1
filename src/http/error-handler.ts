import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, errorBody, MESSAGES, type ErrorCode } from '../api/errors.js';
import { mcpRefusalBody } from './mcp-messages.js';
import type { RegisteredRoute } from './route-table.js';

/** Fastify's own errors, mapped into our vocabulary (D4, D13). */
const FRAMEWORK_ERRORS: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'INVALID_CONTENT_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_VALIDATION: 'INVALID_PARAMETER',
};

const FRAMEWORK_MESSAGES: Partial<Record<ErrorCode, string>> = {
  PAYLOAD_TOO_LARGE: 'Request body is larger than 10240 bytes',
  INVALID_CONTENT_TYPE: 'Content-Type must be application/json',
  INVALID_JSON: 'Request body is not valid JSON',
  INVALID_PARAMETER: 'Invalid request',
};

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  reply.code(error.status).header('cache-control', 'no-store');
  // POST /mcp speaks JSON-RPC: its refusals are JSON-RPC errors an MCP client shows (D66).
  if (reply.request.routeTraits?.label === '/mcp' && reply.request.method === 'POST') {
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .send(mcpRefusalBody(error.code, error.message, error.details));
  }
  return reply.send(errorBody(error.code, error.message, error.details));
}

/**
 * The client error for what the router refuses before routing: a path whose percent-encoding
 * does not decode to UTF-8 (FST_ERR_BAD_URL) or a path parameter over its length cap.
 */
export function routerError(error: FastifyError): AppError {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new AppError('INVALID_PARAMETER', 'A path segment is longer than the server accepts');
  }
  return new AppError('MALFORMED_REQUEST', 'The request path is not valid percent-encoded UTF-8');
}

/** A route pattern with parameters (`/instances/:id/history`) as a regular expression. */
const patternOf = (url: string) =>
  new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+').replaceAll('.', '\\.')}$`);

/**
 * The methods served on `path`, exactly or by a pattern with parameters (for 405 on
 * `/instances/1/history`); undefined when no route has that path.
 */
function methodsOn(routes: readonly RegisteredRoute[], path: string): string[] | undefined {
  const url =
    routes.find((route) => route.url === path)?.url ??
    routes.find((route) => route.url.includes(':') && patternOf(route.url).test(path))?.url;
  if (url === undefined) return undefined;
  return [...new Set(routes.filter((route) => route.url === url).map((route) => route.method))];
}

/**
 * The one error handler, plus 404/405 (D3). Client errors keep their code; anything else is a
 * 500 whose detail goes to the log with the request id, never to the client. `routes` is the
 * app's route table (route-table.ts), read when a request matches no route.
 */
export function installErrorHandling(
  app: FastifyInstance,
  routes: readonly RegisteredRoute[],
): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error);
    const code = FRAMEWORK_ERRORS[error.code ?? ''];
    if (code !== undefined) {
      return sendError(reply, new AppError(code, FRAMEWORK_MESSAGES[code] ?? error.message));
    }
    if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
      return sendError(reply, new AppError('INVALID_JSON', FRAMEWORK_MESSAGES.INVALID_JSON!));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.debug({ err: error }, 'client error from the framework');
      return sendError(
        reply,
        new AppError('INVALID_PARAMETER', FRAMEWORK_MESSAGES.INVALID_PARAMETER!),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, new AppError('INTERNAL_ERROR', MESSAGES.INTERNAL_ERROR));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const methods = methodsOn(routes, path);
    if (methods !== undefined) {
      const allow = [...methods].sort().join(', ');
      return sendError(
        reply,
        new AppError(
          'METHOD_NOT_ALLOWED',
          `Method ${request.method} is not allowed on ${path}`,
          undefined,
          {
            allow,
          },
        ),
      );
    }
    return sendError(reply, new AppError('NOT_FOUND', `No route ${request.method} ${path}`));
  });
}

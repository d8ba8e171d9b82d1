import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { AppError, errorBody, MESSAGES, type ErrorCode } from './errors.js';

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
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send(errorBody(error.code, error.message, error.details));
}

/**
 * The one error handler, plus 404/405 (D3). Client errors keep their code; anything else is a
 * 500 whose detail goes to the log with the request id, never to the client.
 */
export function installErrorHandling(app: FastifyInstance): void {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });

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

  /** Route paths with parameters (`/instances/:id/history`) as patterns, for 405 on them. */
  const patterns = () =>
    [...methodsByPath.keys()]
      .filter((url) => url.includes(':'))
      .map((url) => ({
        url,
        pattern: new RegExp(`^${url.replace(/:[^/]+/g, '[^/]+').replaceAll('.', '\\.')}$`),
      }));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '';
    const methods =
      methodsByPath.get(path) ??
      methodsByPath.get(patterns().find(({ pattern }) => pattern.test(path))?.url ?? '');
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

import { Type, type Static, type TSchema } from 'typebox';
import { ERROR_CODES, MESSAGES, errorBody, type ErrorBody } from '../../api/errors.js';

/**
 * A string from a closed list, as `{ type: 'string', enum }`. A union of literals would say the
 * same, but fast-json-stringify serialises an anyOf by validating each branch per value, which
 * is slow on a hot path; `enum` is a plain string to it, and reads better in the OpenAPI document.
 */
export function StringEnum<T extends string>(
  values: readonly T[],
  options: { description?: string } = {},
) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

/**
 * StringEnum over a list the registry installs (PROVIDER_NAMES, REGION_CODES): the schema holds
 * the list itself, not a copy, so it names the providers the app was built with.
 */
export function InstalledEnum(values: readonly string[], options: { description?: string } = {}) {
  return Type.Unsafe<string>({ type: 'string', enum: values, ...options });
}

/**
 * The schema with examples, each typed against it. @fastify/swagger moves a request body's or
 * response's `examples` onto its media type in the OpenAPI document, and `redocly lint`
 * (test/http/openapi.lint.test.ts) checks every example against its schema, so an example that
 * drifts from the schema fails twice: here at compile time, there at run time.
 */
export function withExamples<T extends TSchema>(
  schema: T,
  ...examples: [Static<T>, ...Static<T>[]]
): T {
  return { ...schema, examples };
}

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: StringEnum(ERROR_CODES),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error response (spec section 7).' },
);

/** What each status means, and a typical body, for the OpenAPI document. */
const ERROR_RESPONSES: Record<number, { description: string; example: ErrorBody }> = {
  400: {
    description: 'Invalid request: the error code and details say which part.',
    example: errorBody(
      'INVALID_PARAMETER',
      'Invalid value for parameter "limit": must be from 1 to 100',
      {
        parameter: 'limit',
        value: '0',
        reason: 'must be from 1 to 100',
      },
    ),
  },
  401: {
    description: 'The X-API-Key header is missing or not a configured key.',
    example: errorBody('UNAUTHORIZED', MESSAGES.UNAUTHORIZED),
  },
  404: {
    description: 'No such resource.',
    example: errorBody('NOT_FOUND', 'Not found'),
  },
  413: {
    description: 'The body is over 10,240 bytes (BODY_LIMIT_BYTES in src/http/app.ts).',
    example: errorBody('PAYLOAD_TOO_LARGE', 'Request body is larger than 10240 bytes'),
  },
  429: {
    description:
      'Over the rate limit, or too many failed authentications, in this clock minute; see Retry-After.',
    example: errorBody('RATE_LIMIT_EXCEEDED', MESSAGES.RATE_LIMIT_EXCEEDED, {
      limit: 100,
      window: '1m',
      retry_after: 42,
    }),
  },
  500: {
    description: 'The request could not be completed.',
    example: errorBody('INTERNAL_ERROR', MESSAGES.INTERNAL_ERROR),
  },
  503: {
    description: 'The rate-limit store cannot be consulted, or the service is shutting down.',
    example: errorBody('SERVICE_UNAVAILABLE', MESSAGES.SERVICE_UNAVAILABLE),
  },
};

/**
 * One error response for the route schema: the shared envelope with this status's description
 * and an example. Pass `example` where the endpoint's typical error differs from the generic one.
 */
export function errorResponse(status: number, example?: ErrorBody) {
  const known = ERROR_RESPONSES[status];
  const body = example ?? known?.example;
  if (body === undefined) throw new Error(`no example error body for status ${status}`);
  // In the media-type form: @fastify/swagger drops the siblings of a bare $ref, example included.
  return {
    description: known?.description ?? 'Error',
    content: { 'application/json': { schema: Type.Ref('ErrorEnvelope'), example: body } },
  };
}

/** Error responses every authenticated, rate-limited endpoint can give. */
export function commonErrorResponses(...extra: readonly number[]) {
  const statuses = [401, 429, 500, 503, ...extra];
  return Object.fromEntries(statuses.map((status) => [status, errorResponse(status)]));
}

export const ApiKeySecurity = [{ apiKey: [] }];

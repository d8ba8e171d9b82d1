import { Type } from 'typebox';
import { ERROR_CODES } from '../errors.js';

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

/** Error responses every authenticated, rate-limited endpoint can give. */
export function commonErrorResponses(...extra: readonly number[]) {
  const statuses = [401, 429, 500, 503, ...extra];
  return Object.fromEntries(statuses.map((status) => [status, Type.Ref('ErrorEnvelope')]));
}

export const ApiKeySecurity = [{ apiKey: [] }];

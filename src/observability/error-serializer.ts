// The `err` serializer every log line uses (issue 15 item 4: a failed apply logged `{"err":{}}`
// because the start-up logger JSON.stringify'd errors, whose own properties are not enumerable).
// Whatever was thrown, the line carries `type`, `message`, `code` and `stack`, and the chain
// of causes (`cause`, AggregateError's `errors`) the same way, so the real reason survives.

export interface SerializedError {
  readonly type: string;
  readonly message: string;
  /**
   * The error's own `code` (ours such as UPSTREAM_TIMEOUT, Node's ECONNREFUSED, PostgreSQL's
   * SQLSTATE) or, for errors without one, their class name (`TypeError`): always present, so a
   * log query can group by it.
   */
  readonly code: string;
  readonly stack: string;
  readonly cause?: SerializedError;
  readonly errors?: readonly SerializedError[];
  readonly [extra: string]: unknown;
}

/** Causes deeper than this are cut: a cyclic or absurd chain must not hang or bloat a line. */
const MAX_DEPTH = 5;
/** Own properties copied besides the standard ones (pg's `detail`, Node's `syscall`, …). */
const EXTRA_KEYS = ['detail', 'syscall', 'address', 'port', 'statusCode', 'status'] as const;

export function serializeError(value: unknown, depth = 0): SerializedError {
  if (!(value instanceof Error)) {
    // `throw "text"` or a rejected promise with a plain object: still one readable error.
    const message = typeof value === 'string' ? value : safeJson(value);
    return {
      type: value === null ? 'null' : typeof value,
      message,
      code: 'NON_ERROR_THROWN',
      stack: '(no stack: a non-Error value was thrown)',
    };
  }
  const own = value as Error & Record<string, unknown>;
  const code = own['code'];
  const result: Record<string, unknown> = {
    type: value.name || value.constructor.name || 'Error',
    message: value.message,
    code:
      typeof code === 'string' || typeof code === 'number'
        ? String(code)
        : value.name || value.constructor.name || 'Error',
    stack: value.stack ?? `${value.name}: ${value.message}`,
  };
  for (const key of EXTRA_KEYS) {
    const extra = own[key];
    if (typeof extra === 'string' || typeof extra === 'number') result[key] = extra;
  }
  if (depth < MAX_DEPTH) {
    if (value.cause !== undefined) result['cause'] = serializeError(value.cause, depth + 1);
    if (value instanceof AggregateError && Array.isArray(value.errors)) {
      result['errors'] = value.errors.slice(0, 10).map((e) => serializeError(e, depth + 1));
    }
  }
  return result as unknown as SerializedError;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

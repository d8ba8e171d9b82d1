// One error vocabulary: the specification's codes (section 7) plus our documented extensions
// (DECISIONS D3, D11, D13). Every error response, the framework's own included, goes through
// `sendError` into the envelope { success: false, error: { code, message, details? } }.

export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  INVALID_PARAMETER: 400,
  MISSING_PARAMETER: 400,
  INVALID_CONTENT_TYPE: 400,
  INVALID_JSON: 400,
  INVALID_STACK: 400,
  EMPTY_STACK: 400,
  UNSUPPORTED_PROVIDERS: 400,
  RATE_LIMIT_EXCEEDED: 429,
  QUERY_FAILED: 500,
  INTERNAL_ERROR: 500,
  SYNC_FAILED: 500,
  // Extensions.
  /** /mcp refuses a browser request from an origin not in MCP_ALLOWED_ORIGINS (D59). */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  SERVICE_UNAVAILABLE: 503,
  // Raised by Node's HTTP parser before routing (client-errors.ts).
  MALFORMED_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export type ErrorDetails = Readonly<Record<string, unknown>>;

/** An error meant for the client: its code, message and details are safe to show. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

export function errorBody(code: ErrorCode, message: string, details?: ErrorDetails): ErrorBody {
  return details === undefined
    ? { success: false, error: { code, message } }
    : { success: false, error: { code, message, details } };
}

export const MESSAGES = {
  UNAUTHORIZED: 'API key is missing or invalid',
  RATE_LIMIT_EXCEEDED: 'Too many requests, please try again later.',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'Service temporarily unavailable, please try again later.',
} as const;

// Security and CORS headers (D12). Everything that does not depend on the request is computed
// once here, so the hot path only copies a frozen object.

const EXPOSED = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id';

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'access-control-expose-headers': EXPOSED,
  'cache-control': 'no-store',
});

const PREFLIGHT_HEADERS = Object.freeze({
  'access-control-allow-methods': 'GET, HEAD, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'X-API-Key, Content-Type',
  'access-control-max-age': '600',
});

export interface CorsPolicy {
  /** Headers for a response to a request carrying `origin` (undefined: no Origin header). */
  headersFor(origin: string | undefined): Readonly<Record<string, string>>;
  preflightHeadersFor(origin: string | undefined): Readonly<Record<string, string>>;
}

/** `*` when no origins are configured; otherwise the matching origin is echoed with Vary: Origin. */
export function createCorsPolicy(allowedOrigins: readonly string[]): CorsPolicy {
  if (allowedOrigins.length === 0) {
    const any = Object.freeze({ ...SECURITY_HEADERS, 'access-control-allow-origin': '*' });
    const preflight = Object.freeze({ ...any, ...PREFLIGHT_HEADERS });
    return { headersFor: () => any, preflightHeadersFor: () => preflight };
  }
  const allowed = new Set(allowedOrigins);
  const noMatch = Object.freeze({ ...SECURITY_HEADERS, vary: 'Origin' });
  const perOrigin = new Map(
    allowedOrigins.map((origin) => [
      origin,
      Object.freeze({ ...noMatch, 'access-control-allow-origin': origin }),
    ]),
  );
  const preflights = new Map(
    [...perOrigin].map(([origin, headers]) => [
      origin,
      Object.freeze({ ...headers, ...PREFLIGHT_HEADERS }),
    ]),
  );
  return {
    headersFor: (origin) =>
      origin !== undefined && allowed.has(origin) ? perOrigin.get(origin)! : noMatch,
    preflightHeadersFor: (origin) =>
      origin !== undefined && allowed.has(origin) ? preflights.get(origin)! : noMatch,
  };
}

/**
 * /mcp for a browser host (D66): an origin in MCP_ALLOWED_ORIGINS gets the request headers the
 * MCP transport sends and the response headers its client reads. Any other origin gets the app's
 * policy (`app`), which cannot drive the tools: POST /mcp refuses its Origin with 403.
 */
const MCP_PREFLIGHT_HEADERS = Object.freeze({
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'X-API-Key, Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID',
  'access-control-max-age': '600',
});
const MCP_EXPOSED = `${EXPOSED}, Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate`;

export function createMcpCorsPolicy(
  allowedOrigins: readonly string[],
  app: CorsPolicy,
): CorsPolicy {
  const noMatch = Object.freeze({ ...SECURITY_HEADERS, vary: 'Origin' });
  const perOrigin = new Map(
    allowedOrigins.map((origin) => [
      origin,
      Object.freeze({
        ...noMatch,
        'access-control-allow-origin': origin,
        'access-control-expose-headers': MCP_EXPOSED,
      }),
    ]),
  );
  const preflights = new Map(
    [...perOrigin].map(([origin, headers]) => [
      origin,
      Object.freeze({ ...headers, ...MCP_PREFLIGHT_HEADERS }),
    ]),
  );
  return {
    headersFor: (origin) =>
      (origin === undefined ? undefined : perOrigin.get(origin)) ?? app.headersFor(origin),
    preflightHeadersFor: (origin) =>
      (origin === undefined ? undefined : preflights.get(origin)) ??
      app.preflightHeadersFor(origin),
  };
}

/** Whether a request URL is /mcp's (with or without a query string). */
export function isMcpUrl(url: string): boolean {
  return url === '/mcp' || url.startsWith('/mcp?');
}

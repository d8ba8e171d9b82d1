// Whether a store call failed because the database could not be reached (down, restarting,
// refusing connections, out of connection slots, or not answering in time), as opposed to a
// query that failed on a database that answered. The first is an outage a client should retry
// after a moment (503 SERVICE_UNAVAILABLE with Retry-After, as for Redis, D11); the second stays
// 500 QUERY_FAILED. Only PostgreSQL can be unreachable: SQLite is a file in this process.

/** Node's socket and resolver errors on the way to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not taking connections: 57P01 admin_shutdown (a
 * stop or restart), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting
 * down), 53300 too_many_connections; the whole class 08 (connection exception) besides.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * node-postgres's own errors, which carry no code: a connection closed under a query, the pool's
 * connect timeout, the client-side query timeout (a frozen database).
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /is not queryable$/,
];

export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
      return true;
    }
  }
  return DRIVER_MESSAGES.some((pattern) => pattern.test(error.message));
}

// Settings shared by the harness and the servers it starts. Importing this builds nothing (a
// client such as sequential-requests.ts may import it without building the tree).

/** The API key every benchmarked app is started with (its API_KEYS). */
export const KEY = 'bench-key-0123456789abcdef';

/** GET /instances with a max_price never asked before in place of `{price}` (a miss each time). */
export const NEW_FILTER_PATH = '/instances?limit=50&sort_by=price&order=desc&max_price={price}';
/** GET /instances asked again and again (a response-cache hit). */
export const CACHED_PATH = '/instances?limit=50&sort_by=price';

/** The header the benchmarked app trusts for the client address (its CLIENT_IP_HEADER). */
export const CLIENT_HEADER = 'x-bench-client';

/** Settings every benchmarked app runs with (beyond the defaults). */
export const benchEnv = {
  // Every request is a new client: a whole bench's addresses must fit in the counter table (the
  // client-flood bench measures the default bound).
  RATE_LIMIT_MAX_COUNTERS: '10000000',
} as const;

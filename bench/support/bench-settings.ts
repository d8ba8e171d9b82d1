// Settings shared by the harness and the servers it starts.

/** The header the benchmarked app trusts for the client address (its CLIENT_IP_HEADER). */
export const CLIENT_HEADER = 'x-bench-client';

/** Settings every benchmarked app runs with (beyond the defaults). */
export const benchEnv = {
  // Each request's client address comes from wrk in this header (bench/wrk/new-client.lua).
  CLIENT_IP_HEADER: CLIENT_HEADER,
  // Every request is a new client: a whole bench's addresses must fit in the counter table (the
  // client-flood bench measures the default bound).
  RATE_LIMIT_MAX_COUNTERS: '10000000',
} as const;

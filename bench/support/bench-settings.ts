// Settings shared by the harness and the servers it starts.

/** The header the benchmarked app trusts for the client address (its CLIENT_IP_HEADER). */
export const CLIENT_HEADER = 'x-bench-client';

/** Settings every benchmarked app runs with (beyond the defaults). */
export const benchEnv = {
  // Every request is a new client: a whole bench's addresses must fit in the counter table (the
  // client-flood bench measures the default bound).
  RATE_LIMIT_MAX_COUNTERS: '10000000',
} as const;

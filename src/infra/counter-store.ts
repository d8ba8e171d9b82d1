/**
 * Fixed-window counters for rate limiting (D8). The memory store serves one process; the Redis
 * store makes several replicas count together. One contract suite (test/infra) runs against both.
 */
export interface CounterStore {
  /**
   * Adds one to `key`'s counter and returns the new count. The counter disappears `ttlMs` after
   * its first increment, so a key that names its window cleans itself up.
   * Rejects when the store cannot be consulted: callers must fail closed (D11).
   * `untrusted`: the request has no valid key. A bounded store then creates the counter (if
   * new) within a separate bound, so such requests cannot fill the room of the others; the
   * count itself is the same one either way (issue 35).
   */
  increment(key: string, ttlMs: number, untrusted?: boolean): Promise<number>;
  /** Resolves when the store answers, rejects when it does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

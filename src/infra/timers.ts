/**
 * Node's timers cannot wait longer than 2^31 - 1 ms (about 24.8 days): a longer delay is
 * replaced by 1 ms (with a TimeoutOverflowWarning), which would turn a long SYNC_INTERVAL into a
 * sync attempt every millisecond.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

// D57: how old a provider's figures are. Age is whole elapsed days since they were observed
// upstream, rounded down and never negative (a clock behind the upstream's); figures are stale
// when their age is more than DATA_STALE_DAYS. /health, /recommend's stale marks and the MCP
// provenance lines all count days this one way.

export const DAY_MS = 86_400_000;

/** DATA_STALE_DAYS when it is not set. */
export const DEFAULT_DATA_STALE_DAYS = 90;

/** D57's age in whole elapsed days. */
export function ageDays(observedAt: Date, now: number): number {
  return Math.max(0, Math.floor((now - observedAt.getTime()) / DAY_MS));
}

/**
 * The latest observation instant that is stale at `now`: whole elapsed days
 * floor((now - observed) / 1 day) > staleDays  <=>  observed <= now - (staleDays + 1) days.
 */
export function staleAtOrBefore(now: number, staleDays: number): number {
  return now - (staleDays + 1) * DAY_MS;
}

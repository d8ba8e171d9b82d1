/**
 * Told when a background connection or subscription fails and when it works again, so the
 * failure is logged once per state change and shown in /health (src/health/component-states.ts).
 * `source` names the connection within the component (`counters`, `bus-subscriber`, ...).
 */
export interface ComponentWatch {
  failed(source: string, error: unknown): void;
  recovered(source: string): void;
}

export const unwatched: ComponentWatch = {
  failed: () => undefined,
  recovered: () => undefined,
};

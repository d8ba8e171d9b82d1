// Where a price comes from and when it was observed (D37, D57), for the views that show prices.
// The record's own `pricing.observed_at` dates a record's price; `/health`'s `data_source` names
// the source and says whether the provider's figures are stale. A recommendation carries neither,
// so its provider's data source dates it.
import { count } from '../format';
import type { DataSource, HealthReport } from '../model';
import { useApi } from '../use-api';
import './provenance.css';

const DAY_MS = 86_400_000;

/** `2024-02-21` from an ISO date-time: the day is what a person compares. */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

/** Whole days from `a` to `b` (ISO date-times), rounded down, never negative. */
export function daysBetween(a: string, b: string): number {
  return Math.max(0, Math.floor(Math.abs(Date.parse(b) - Date.parse(a)) / DAY_MS));
}

/** Each provider's data source (name to source) from /health; empty until it answers. */
export function useDataSources(): ReadonlyMap<string, DataSource> {
  const health = useApi<HealthReport>('/health');
  const sources = new Map<string, DataSource>();
  for (const p of health.data?.components.providers ?? []) {
    if (p.data_source !== undefined && p.data_source !== null) sources.set(p.name, p.data_source);
  }
  return sources;
}

/** "observed 2024-07-11 (868 days ago, stale)", the stale part marked so it cannot be missed. */
export function ObservedText({
  observedAt,
  source,
}: {
  observedAt: string;
  source: DataSource | undefined;
}) {
  const age = source?.age_days;
  return (
    <>
      <time dateTime={observedAt}>{day(observedAt)}</time>
      {source !== undefined && day(source.observed_at) === day(observedAt) && age !== undefined && (
        <> ({count.format(age)} days ago)</>
      )}
      {source?.stale === true && day(source.observed_at) === day(observedAt) && (
        <>
          {' '}
          <span class="badge badge-stale">stale</span>
        </>
      )}
    </>
  );
}

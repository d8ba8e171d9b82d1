// D37/D57: where and when a price comes from. Each record carries `pricing.observed_at`; the
// source is its provider's (`/health` `data_source`, which also says whether the provider's
// figures are stale), so a table names it briefly in each row and in full once, under the rows.
// A recommendation carries neither, so its provider's data source dates it. The page asks
// /health once per key (main.tsx) and every view reads that answer through HealthContext.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { count } from './format';
import type { DataSource, HealthReport, InstanceRecord } from './model';
import { providerLabel } from './places';
import type { Loaded } from './use-api';
import './provenance.css';

export type Sources = Readonly<Record<string, DataSource>>;

/** The app's one /health answer (main.tsx provides it around every view). */
export const HealthContext = createContext<Loaded<HealthReport> | undefined>(undefined);

const DAY_MS = 86_400_000;

/** `2024-02-21` from an ISO date-time: the day is what a person compares. */
export function day(iso: string): string {
  return iso.slice(0, 10);
}

/** Whole days from `a` to `b` (ISO date-times), rounded down, never negative. */
export function daysBetween(a: string, b: string): number {
  return Math.max(0, Math.floor(Math.abs(Date.parse(b) - Date.parse(a)) / DAY_MS));
}

/** The app's /health answer; a view is shown only once it has answered (main.tsx). */
export function useHealth(): Loaded<HealthReport> {
  const health = useContext(HealthContext);
  if (health === undefined) throw new Error('useHealth outside the app (main.tsx provides it)');
  return health;
}

/** Each provider's data source from /health (none when /health failed). */
export function useSources(): Sources {
  const sources: Record<string, DataSource> = {};
  for (const p of useHealth().data?.components.providers ?? []) {
    if (p.data_source) sources[p.name] = p.data_source;
  }
  return sources;
}

/** The day a record's price was observed. */
export function observedDay(r: InstanceRecord): string {
  return day(r.pricing.observed_at);
}

/**
 * The source's name without its details: "Linode API v4 /linode/types, recorded …" reads
 * "Linode API v4" (the text up to the first comma, without a path or a parenthesis).
 */
export function shortSource(source: string): string {
  const head = source
    .split(',')[0]!
    .replace(/\s+[/(:].*$/, '')
    // "AWS EC2 prices as recorded by ec2.shop": the row already names the vendor; the recorder
    // is what tells this source from the vendor's own.
    .replace(/^.*\bas recorded by\s+/i, 'recorded by ')
    .trim();
  return head === '' ? source : head;
}

/** Plain text for copy as CSV or Markdown: the day and the short source. */
export function observedText(r: InstanceRecord, sources: Sources): string {
  const source = sources[r.provider.name];
  return source === undefined
    ? observedDay(r)
    : `${observedDay(r)} · ${shortSource(source.source)}`;
}

export function ObservedCell({ record, sources }: { record: InstanceRecord; sources: Sources }) {
  const source = sources[record.provider.name];
  return (
    <>
      <time dateTime={record.pricing.observed_at}>{observedDay(record)}</time>
      {source !== undefined && ' '}
      {source !== undefined && (
        <span class="source" title={source.source}>
          · {shortSource(source.source)}
        </span>
      )}
    </>
  );
}

/** The full source of every provider in `providers`, once, under a table. */
export function SourcesNote({
  providers,
  sources,
}: {
  providers: readonly string[];
  sources: Sources;
}) {
  const listed = [...new Set(providers)].filter((p) => sources[p] !== undefined);
  if (listed.length === 0) return null;
  return (
    <div class="sources">
      <h2 class="small-heading">Where these prices come from</h2>
      <ul>
        {listed.map((p) => (
          <li key={p}>
            <strong>{providerLabel(p)}</strong> ({sources[p]!.kind}, observed{' '}
            {day(sources[p]!.observed_at)}): {sources[p]!.source}
          </li>
        ))}
      </ul>
    </div>
  );
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
  const sameDay = source !== undefined && day(source.observed_at) === day(observedAt);
  return (
    <>
      <time dateTime={observedAt}>{day(observedAt)}</time>
      {sameDay && age !== undefined && <> ({count.format(age)} days ago)</>}
      {sameDay && source.stale && (
        <>
          {' '}
          <span class="badge badge-stale">stale</span>
        </>
      )}
    </>
  );
}

/**
 * True when the provider's figures infer, rather than record, that it sells types in this region
 * (/health data_source.inferred_regions: the bundled Vultr snapshot's Osaka).
 */
export function isInferred(sources: Sources, provider: string, regionCode: string): boolean {
  return sources[provider]?.inferred_regions?.includes(regionCode) === true;
}

export const INFERRED_REASON =
  'Availability inferred, not recorded: the recording does not say this type is sold here (it is sold in the provider’s Tokyo and Seoul). Check before you buy.';

/** The mark beside a region or price whose availability is inferred (never a bare "cheapest"). */
export function InferredMark() {
  return (
    <span class="badge badge-inferred" title={INFERRED_REASON}>
      availability inferred
      <span class="visually-hidden"> ({INFERRED_REASON})</span>
    </span>
  );
}

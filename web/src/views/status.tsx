// Status: per-provider freshness and data source from /health, and a sync button with its result.
import { useState } from 'preact/hooks';
import { apiJson } from '../api';
import { ErrorMessage, Status } from '../components';
import { count, dateTime } from '../format';
import type { HealthReport, SyncResult } from '../model';
import { providerLabel, providers, regionLabel } from '../places';
import { day, useHealth } from '../provenance';

export function StatusView() {
  const health = useHealth();
  const report = health.data;
  return (
    <section aria-labelledby="status-title">
      <h1 id="status-title">Status</h1>
      <ErrorMessage error={health.error} onRetry={health.reload} />
      <Status loading={health.loading}>
        {report === undefined
          ? 'Loading…'
          : `Checked ${dateTime(report.timestamp)}: ${count.format(report.summary.total_instances)} instances in ${report.summary.total_regions} regions.`}
      </Status>
      {report !== undefined && <Summary report={report} />}
      {report !== undefined && (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Providers">
          <table class="data stack">
            <caption>Providers</caption>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Sync status</th>
                <th scope="col">Prices as of</th>
                <th scope="col">Data source</th>
                <th scope="col">Last sync</th>
                <th scope="col" class="num">
                  Regions
                </th>
                <th scope="col" class="num">
                  Instances
                </th>
              </tr>
            </thead>
            <tbody>
              {report.components.providers.map((p) => (
                <tr key={p.name}>
                  <th scope="row" class="name-col">
                    {providerLabel(p.name)}
                  </th>
                  <td class="card-price" data-label="Sync status">
                    <span class={`badge badge-${p.status}`}>{p.status}</span>
                    {p.error !== undefined && <div class="small">{p.error}</div>}
                  </td>
                  <td class="card-l" data-label="Prices as of">
                    {/* null before the provider's first sync (D37) */}
                    {p.data_source ? (
                      <>
                        {dateTime(p.data_source.observed_at)}
                        <div class="small">
                          {count.format(p.data_source.age_days)} days ago
                          {p.data_source.stale && (
                            <>
                              {' '}
                              <span class="badge badge-degraded">stale</span>
                            </>
                          )}
                          {(p.data_source.inferred_regions ?? []).length > 0 && (
                            <div>{inferredText(p.data_source.inferred_regions ?? [])}</div>
                          )}
                        </div>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td class="wrap card-wide" data-label="Data source">
                    {p.data_source ? (
                      <>
                        <span class="badge">{p.data_source.kind}</span> {p.data_source.source}
                      </>
                    ) : (
                      'not reported'
                    )}
                  </td>
                  <td class="card-r" data-label="Last sync">
                    {dateTime(p.last_sync)} <span class="small">({p.sync_status})</span>
                  </td>
                  <td class="num card-l" data-label="Regions">
                    {p.regions_count}
                  </td>
                  <td class="num card-r" data-label="Instances">
                    {count.format(p.instances_count)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {report !== undefined && (
        <p class="small">
          Database: {report.components.database.status} ({report.components.database.latency_ms} ms)
          {report.components.rate_limiter !== undefined &&
            ` · Rate limiter (${report.components.rate_limiter.backend}): ${report.components.rate_limiter.status}`}
          {report.components.exchange_rates !== undefined &&
            ` · Exchange rates: ${report.components.exchange_rates.status}, as of ${report.components.exchange_rates.as_of}`}
        </p>
      )}
      <SyncPanel onDone={health.reload} />
    </section>
  );
}

/** "Osaka availability inferred, not recorded": a listed record there may not be sold. */
function inferredText(codes: readonly string[]): string {
  return `${codes.map(regionLabel).join(', ')}: which types are sold there is inferred, not recorded`;
}

/**
 * Two questions kept apart: does syncing work (the D32 status, from the last syncs), and are
 * the prices current (D57: when they were observed). A fresh sync of old figures is healthy and
 * stale, and the page says both rather than one word for the two.
 */
function Summary({ report }: { report: HealthReport }) {
  const providers = report.components.providers;
  const syncing = providers.filter((p) => p.status === 'healthy').length;
  const stale = providers.filter((p) => p.data_source?.stale === true);
  const oldest = Math.max(0, ...stale.map((p) => p.data_source?.age_days ?? 0));
  return (
    <dl class="status-summary">
      <div>
        <dt>Service</dt>
        <dd>
          <span class={`badge badge-${report.status}`}>{report.status}</span> database, rate limiter
          and catalogue answer
        </dd>
      </div>
      <div>
        <dt>Syncing</dt>
        <dd>
          <span class={`badge badge-${syncing === providers.length ? 'healthy' : 'degraded'}`}>
            {syncing === providers.length ? 'works' : 'failing'}
          </span>{' '}
          {syncing} of {providers.length} providers synced successfully in the last 24 hours
        </dd>
      </div>
      <div>
        <dt>Prices</dt>
        <dd>
          {stale.length === 0 ? (
            <>
              <span class="badge badge-healthy">current</span> every provider&apos;s prices were
              observed in the last {STALE_WORDS}
            </>
          ) : (
            <>
              <span class="badge badge-degraded">
                {stale.length === providers.length ? 'all old' : 'some old'}
              </span>{' '}
              {stale.length} of {providers.length} providers&apos; prices are stale (
              {stale.map((p) => providerLabel(p.name)).join(', ')}; the oldest observed{' '}
              {count.format(oldest)} days ago). Check the provider&apos;s own price before you buy.
            </>
          )}
        </dd>
      </div>
    </dl>
  );
}

const STALE_WORDS = 'days the server counts as current (DATA_STALE_DAYS, 90 by default)';

function SyncPanel({ onDone }: { onDone: () => void }) {
  // Every provider until the user unticks one (the list arrives with the places).
  const [unticked, setChosen] = useState<string[] | undefined>(undefined);
  const chosen = unticked ?? providers().map((p) => p.name);
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<SyncResult | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <form
      class="sync"
      aria-labelledby="sync-title"
      onSubmit={(event) => {
        event.preventDefault();
        setRunning(true);
        setError(undefined);
        setResult(undefined);
        apiJson<SyncResult>('/sync', { providers: chosen })
          .then((r) => {
            setResult(r);
            onDone();
          })
          .catch((e: unknown) => setError(e))
          .finally(() => setRunning(false));
      }}
    >
      <h2 id="sync-title">Sync now</h2>
      <fieldset>
        <legend>Providers to sync</legend>
        {providers().map(({ name: p }) => (
          <label key={p} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(p)}
              onChange={(e) =>
                setChosen(e.currentTarget.checked ? [...chosen, p] : chosen.filter((c) => c !== p))
              }
            />
            {providerLabel(p)}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={running || chosen.length === 0}>
        {running ? 'Syncing…' : 'Sync'}
      </button>
      <ErrorMessage error={error} />
      <div aria-live="polite">
        {result !== undefined && (
          <div class="sync-result">
            <p>
              Sync {result.sync_id}: {result.success ? 'succeeded' : 'finished with failures'} in{' '}
              {count.format(result.total_duration_ms)} ms.
            </p>
            <ul>
              {result.providers.map((p) => (
                <li key={p.provider}>
                  {providerLabel(p.provider)}:{' '}
                  {!p.success
                    ? `failed — ${p.error_details?.code ?? ''} ${p.error ?? ''}`
                    : p.data_source?.kind === 'snapshot'
                      ? `replayed its recorded snapshot (prices observed ${day(p.data_source.observed_at)}): ${count.format(p.instances_synced)} instance types, ${count.format(p.pricing_synced)} prices in ${p.regions_synced} regions. No live price was fetched.`
                      : `${count.format(p.instances_synced)} instance types, ${count.format(p.pricing_synced)} prices in ${p.regions_synced} regions${p.data_source?.kind === 'live' ? ', fetched live' : ''}`}
                </li>
              ))}
            </ul>
            {result.providers.some((p) => p.data_source?.kind === 'snapshot') && (
              <p class="note">
                <strong>No live prices.</strong> This server reads recorded snapshots, so a sync
                reads the same figures again and the prices stay as old as they were. For live
                prices, start it with each provider&apos;s API as its source (
                {result.providers
                  .filter((p) => p.data_source?.kind === 'snapshot')
                  .map((p) => `${p.provider.toUpperCase()}_URL`)
                  .join(', ')}
                ; docs/configuration.md lists each API&apos;s address).
              </p>
            )}
          </div>
        )}
      </div>
    </form>
  );
}

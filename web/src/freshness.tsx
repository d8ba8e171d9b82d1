// D57: a provider whose figures are stale (/health data_source.stale) is named, with the date its
// prices were observed, above every view, so no price is read without knowing its age.
import { count } from './format';
import type { HealthReport } from './model';
import { providerLabel } from './places';
import { day } from './provenance';
import type { Loaded } from './use-api';

/** `health`: the app's one /health request (main.tsx shows the view once it has answered). */
export function StaleNotice({ health }: { health: Loaded<HealthReport> }) {
  const stale = (health.data?.components.providers ?? []).filter(
    (p) => p.data_source?.stale === true,
  );
  if (stale.length === 0) return null;
  return (
    <aside class="stale-notice" aria-labelledby="stale-title">
      <p>
        <strong id="stale-title">Old prices.</strong>{' '}
        {stale.map((p, i) => (
          <span key={p.name}>
            {i > 0 && (i === stale.length - 1 ? ' and ' : ', ')}
            {providerLabel(p.name)} prices were observed on{' '}
            <time dateTime={p.data_source!.observed_at}>{day(p.data_source!.observed_at)}</time> (
            {count.format(p.data_source!.age_days)} days ago)
          </span>
        ))}
        . Check the provider’s own price before you buy.
      </p>
    </aside>
  );
}

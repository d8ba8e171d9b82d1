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
  // A disclosure: its summary says the essential in one line (and stays on screen); the
  // details are open on wide screens and folded on a phone, where they would push the
  // results below the first screen (styles.css). Toggling it is the person's choice.
  return (
    <aside class="stale-notice" aria-labelledby="stale-title">
      <details open={wide()}>
        <summary>
          <strong id="stale-title">Old prices:</strong>{' '}
          {stale.map((p) => providerLabel(p.name)).join(', ')} observed{' '}
          {count.format(Math.min(...stale.map((p) => p.data_source!.age_days)))}
          {stale.length > 1 &&
            `–${count.format(Math.max(...stale.map((p) => p.data_source!.age_days)))}`}{' '}
          days ago
        </summary>
        <p>
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
      </details>
    </aside>
  );
}

/** Wider than a phone: the notice's details start open. */
function wide(): boolean {
  return matchMedia('(min-width: 40rem)').matches;
}

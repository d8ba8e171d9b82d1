// Recommend: stack chips, scale, budget (and currency) in the URL; POST /recommend on every
// change of the submitted URL; results with score, requirement breakdown, pros and cons.
import { useEffect, useState } from 'preact/hooks';
import { ErrorMessage, Link, Status } from '../components';
import { count, gib, money } from '../format';
import { CURRENCIES, currencyLabel, SCALES, STACKS, type RecommendData } from '../model';
import { cities as allCities, isCity, providerLabel } from '../places';
import { navigate } from '../url-state';
import { useApi } from '../use-api';

export function RecommendView({ params }: { params: URLSearchParams }) {
  const stack = (params.get('stack') ?? '')
    .split(',')
    .filter((s) => (STACKS as readonly string[]).includes(s));
  const scale = (SCALES as readonly string[]).includes(params.get('scale') ?? '')
    ? params.get('scale')!
    : 'small';
  const budget = params.get('budget') ?? '';
  // D56: the same `city` list as Instances and Regions, sent as `cities`.
  const cities = (params.get('city') ?? '').split(',').filter(isCity);
  const currency = params.get('currency') ?? 'USD';
  const submitted = params.get('go') === '1' && stack.length > 0;

  const [chosen, setChosen] = useState(stack);
  const [scaleValue, setScaleValue] = useState(scale);
  const [budgetValue, setBudgetValue] = useState(budget);
  const [currencyValue, setCurrencyValue] = useState(currency);
  const [citiesValue, setCitiesValue] = useState(cities);
  // Back and Forward change the URL: the form follows it.
  useEffect(() => setChosen(stack), [stack.join(',')]);
  useEffect(() => setScaleValue(scale), [scale]);
  useEffect(() => setBudgetValue(budget), [budget]);
  useEffect(() => setCurrencyValue(currency), [currency]);
  useEffect(() => setCitiesValue(cities), [cities.join(',')]);

  const body = submitted
    ? {
        stack,
        scale,
        ...(budget !== '' && Number.isFinite(Number(budget)) ? { budget_max: Number(budget) } : {}),
        ...(currency !== 'USD' ? { currency } : {}),
        ...(cities.length > 0 ? { cities } : {}),
      }
    : undefined;
  const result = useApi<RecommendData>(submitted ? '/recommend' : null, body);

  return (
    <section aria-labelledby="recommend-title">
      <h1 id="recommend-title">Recommend</h1>
      <form
        class="recommend-form"
        onSubmit={(event) => {
          event.preventDefault();
          navigate({
            stack: chosen.join(','),
            scale: scaleValue === 'small' ? undefined : scaleValue,
            budget: budgetValue.trim(),
            currency: currencyValue === 'USD' ? undefined : currencyValue,
            city: allCities()
              .map((c) => c.city)
              .filter((c) => citiesValue.includes(c))
              .join(','),
            go: chosen.length > 0 ? '1' : undefined,
          });
        }}
      >
        <fieldset>
          <legend>Your stack</legend>
          <div class="chips">
            {STACKS.map((s) => {
              const on = chosen.includes(s);
              return (
                <button
                  key={s}
                  type="button"
                  class={`chip${on ? ' is-on' : ''}`}
                  aria-pressed={on}
                  onClick={() => setChosen(on ? chosen.filter((c) => c !== s) : [...chosen, s])}
                >
                  {on && <span aria-hidden="true">✓ </span>}
                  {s}
                </button>
              );
            })}
          </div>
        </fieldset>
        <fieldset>
          <legend>Scale</legend>
          <div class="row">
            {SCALES.map((s) => (
              <label key={s} class="check">
                <input
                  type="radio"
                  name="scale"
                  value={s}
                  checked={scaleValue === s}
                  onChange={() => setScaleValue(s)}
                />
                {s}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Where (optional: any city when none is ticked)</legend>
          <div class="row">
            {allCities().map(({ city: slug, name }) => (
              <label key={slug} class="check">
                <input
                  type="checkbox"
                  checked={citiesValue.includes(slug)}
                  onChange={(e) =>
                    setCitiesValue(
                      e.currentTarget.checked
                        ? [...citiesValue, slug]
                        : citiesValue.filter((c) => c !== slug),
                    )
                  }
                />
                {name}
              </label>
            ))}
          </div>
        </fieldset>
        <div class="row">
          <div class="field">
            <label for="budget">Monthly budget ({currencyValue}, optional)</label>
            <input
              id="budget"
              type="number"
              min="0"
              step="any"
              inputMode="decimal"
              value={budgetValue}
              onInput={(e) => setBudgetValue(e.currentTarget.value)}
            />
          </div>
          <div class="field">
            <label for="rec-currency">Currency</label>
            <select
              id="rec-currency"
              value={currencyValue}
              onChange={(e) => setCurrencyValue(e.currentTarget.value)}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {currencyLabel(c)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="submit" disabled={chosen.length === 0}>
          Recommend
        </button>
        {chosen.length === 0 && <p class="small">Pick at least one part of your stack.</p>}
      </form>
      <ErrorMessage error={result.error} onRetry={result.reload} />
      {submitted && (
        <Status loading={result.loading}>
          {result.loading
            ? 'Finding instances…'
            : result.data !== undefined
              ? `${result.data.recommendations.length} recommendations`
              : ''}
        </Status>
      )}
      {submitted && result.data !== undefined && <Results data={result.data} currency={currency} />}
    </section>
  );
}

function Results({ data, currency }: { data: RecommendData; currency: string }) {
  const { requirements } = data;
  return (
    <>
      <h2>Requirements</h2>
      <p>
        At least <strong>{gib(requirements.min_memory_mb)} GiB</strong> memory (
        {count.format(requirements.min_memory_mb)} MB) and{' '}
        <strong>{requirements.min_vcpu} vCPU</strong>.
      </p>
      <dl class="breakdown">
        {Object.entries(requirements.breakdown).map(([name, value]) => (
          <div key={name}>
            <dt>{name === 'os_overhead' ? 'OS overhead' : name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Recommendations</h2>
      {data.recommendations.length === 0 ? (
        <p>No instance has enough memory for this stack.</p>
      ) : (
        <ol class="cards">
          {data.recommendations.map((r) => (
            <li key={`${r.rank}`} class="card">
              <div class="card-head">
                <span class="rank" aria-label={`Rank ${r.rank}`}>
                  #{r.rank}
                </span>
                <h3>
                  {r.id !== undefined ? (
                    <Link
                      to={{
                        view: 'instance',
                        id: String(r.id),
                        currency: currency === 'USD' ? undefined : currency,
                      }}
                    >
                      {r.instance}
                    </Link>
                  ) : (
                    r.instance
                  )}
                </h3>
                <span class="score" aria-label={`Match score ${r.match_score} of 100`}>
                  {r.match_score}
                  <span class="small">/100</span>
                </span>
              </div>
              <p class="small">
                {providerLabel(r.provider)} · {r.region} · {r.specs.vcpu} vCPU ·{' '}
                {gib(r.specs.memory_mb)} GiB · {r.specs.storage_gb} GB storage
              </p>
              <p class="price">
                {money(r.price.monthly, r.price.currency ?? currency)} / month{' '}
                <span class="small">
                  ({money(r.price.hourly, r.price.currency ?? currency, true)} / hour)
                </span>
              </p>
              <div class="pros-cons">
                <div>
                  <h4>Pros</h4>
                  <ul>
                    {r.pros.length === 0 ? <li>—</li> : r.pros.map((p) => <li key={p}>{p}</li>)}
                  </ul>
                </div>
                <div>
                  <h4>Cons</h4>
                  <ul>
                    {r.cons.length === 0 ? <li>None</li> : r.cons.map((c) => <li key={c}>{c}</li>)}
                  </ul>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

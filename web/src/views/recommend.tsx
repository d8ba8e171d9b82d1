// Recommend: stack chips, scale, budget (and currency) in the URL; POST /recommend on every
// change of the submitted URL; cities and providers narrow the candidates. Each result says why
// it has its rank (recommend-explain.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorMessage, Status } from '../components';
import {
  CURRENCIES,
  currencyLabel,
  knownCurrency,
  SCALES,
  STACKS,
  type RecommendData,
} from '../model';
import {
  cities as allCities,
  isCity,
  placesLoaded,
  providerLabel,
  providers as allProviders,
} from '../places';
import { optionParam, purchaseOptionOf } from '../purchase-options';
import { navigate } from '../url-state';
import { PurchaseOptionField, PurchaseOptionNote } from './purchase-option-field';
import { useApi } from '../use-api';
import { apiAnswer } from '../api';
import { RateNote, type ExchangeRate } from '../rate-note';
import { ALLOCATION_OPTIONS, ARCH_OPTIONS } from './filters';
import { Results } from './recommend-explain';

/** D67's orders, in the page's words (`rank` in the URL, `rank_by` in the body). */
const RANKS = [
  ['fit', 'Best fit'],
  ['price', 'Cheapest meeting the needs'],
  ['performance_per_price', 'CoreMark per price'],
] as const;
/** One of `options`' values, else '' (any). */
function oneOf(value: string | null, options: readonly (readonly [string, string])[]): string {
  return options.some(([v]) => v === value) ? value! : '';
}

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
  // The `provider` of Instances, one or several (comma-separated), sent as `providers`.
  const providers = (params.get('provider') ?? '')
    .split(',')
    .filter((p) => p !== '' && (!placesLoaded() || allProviders().some((k) => k.name === p)));
  const currency = knownCurrency(params.get('currency')) ?? 'USD';
  // D61: the same `purchase_option` as Instances, sent as it is; applied on Recommend.
  const option = purchaseOptionOf(params);
  // D62 and D67: the same `arch` and `cpu_allocation` as Instances, sent as one-item arrays.
  const arch = oneOf(params.get('arch'), ARCH_OPTIONS);
  const allocation = oneOf(params.get('cpu_allocation'), ALLOCATION_OPTIONS);
  const rank = oneOf(params.get('rank'), RANKS) || 'fit';
  const submitted = params.get('go') === '1' && stack.length > 0;

  const [chosen, setChosen] = useState(stack);
  const [scaleValue, setScaleValue] = useState(scale);
  const [budgetValue, setBudgetValue] = useState(budget);
  const [currencyValue, setCurrencyValue] = useState(currency);
  const [optionValue, setOptionValue] = useState(option);
  const [citiesValue, setCitiesValue] = useState(cities);
  const [providersValue, setProvidersValue] = useState(providers);
  const [archValue, setArchValue] = useState(arch);
  const [allocationValue, setAllocationValue] = useState(allocation);
  const [rankValue, setRankValue] = useState(rank);
  // Back and Forward change the URL: the form follows it.
  useEffect(() => setChosen(stack), [stack.join(',')]);
  useEffect(() => setScaleValue(scale), [scale]);
  useEffect(() => setBudgetValue(budget), [budget]);
  useEffect(() => setCurrencyValue(currency), [currency]);
  useEffect(() => setOptionValue(option), [option]);
  useEffect(() => setCitiesValue(cities), [cities.join(',')]);
  useEffect(() => setProvidersValue(providers), [providers.join(',')]);
  useEffect(() => setArchValue(arch), [arch]);
  useEffect(() => setAllocationValue(allocation), [allocation]);
  useEffect(() => setRankValue(rank), [rank]);

  const body = submitted
    ? {
        stack,
        scale,
        ...(budget !== '' && Number.isFinite(Number(budget)) ? { budget_max: Number(budget) } : {}),
        ...(currency !== 'USD' ? { currency } : {}),
        ...(option !== 'on_demand' ? { purchase_option: option } : {}),
        ...(cities.length > 0 ? { cities } : {}),
        ...(providers.length > 0 ? { providers } : {}),
        ...(arch !== '' ? { arch: [arch] } : {}),
        ...(allocation !== '' ? { cpu_allocation: [allocation] } : {}),
        ...(rank !== 'fit' ? { rank_by: rank } : {}),
      }
    : undefined;
  const answer = useApi<{ data: RecommendData; meta?: { exchange_rate?: ExchangeRate } }>(
    submitted ? '/recommend' : null,
    body,
    apiAnswer,
  );
  const result = { ...answer, data: answer.data?.data };
  const rate = answer.data?.meta?.exchange_rate;
  // After the person presses Recommend, the answer is brought into view (on a phone it starts
  // far below the form) and focused, so a screen reader reads on from it.
  const wantResults = useRef(false);
  const resultsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!wantResults.current || result.loading || resultsRef.current === null) return;
    if (result.data === undefined && result.error === undefined) return;
    wantResults.current = false;
    resultsRef.current.scrollIntoView({ block: 'start' });
    resultsRef.current.focus({ preventScroll: true });
  }, [result.data, result.error, result.loading]);

  return (
    <section aria-labelledby="recommend-title">
      <h1 id="recommend-title">Recommend</h1>
      <form
        class="recommend-form"
        onSubmit={(event) => {
          event.preventDefault();
          wantResults.current = true;
          navigate({
            stack: chosen.join(','),
            scale: scaleValue === 'small' ? undefined : scaleValue,
            budget: budgetValue.trim(),
            currency: currencyValue === 'USD' ? undefined : currencyValue,
            purchase_option: optionParam(optionValue),
            city: allCities()
              .map((c) => c.city)
              .filter((c) => citiesValue.includes(c))
              .join(','),
            provider: allProviders()
              .map((p) => p.name)
              .filter((p) => providersValue.includes(p))
              .join(','),
            arch: archValue,
            cpu_allocation: allocationValue,
            rank: rankValue === 'fit' ? undefined : rankValue,
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
        <fieldset>
          <legend>Providers (optional: every provider when none is ticked)</legend>
          <div class="row">
            {allProviders().map(({ name: p }) => (
              <label key={p} class="check">
                <input
                  type="checkbox"
                  checked={providersValue.includes(p)}
                  onChange={(e) =>
                    setProvidersValue(
                      e.currentTarget.checked
                        ? [...providersValue, p]
                        : providersValue.filter((v) => v !== p),
                    )
                  }
                />
                {providerLabel(p)}
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
          <PurchaseOptionField id="rec-option" value={optionValue} onChange={setOptionValue} />
        </div>
        <PurchaseOptionNote id="rec-option" option={optionValue} />
        <div class="row">
          <Choice id="rec-arch" label="Architecture" value={archValue} onChange={setArchValue}>
            {ARCH_OPTIONS}
          </Choice>
          <Choice
            id="rec-allocation"
            label="CPU allocation"
            value={allocationValue}
            onChange={setAllocationValue}
          >
            {ALLOCATION_OPTIONS}
          </Choice>
          <Choice id="rec-rank" label="Order by" value={rankValue} onChange={setRankValue} noAny>
            {RANKS}
          </Choice>
        </div>
        <button type="submit" disabled={chosen.length === 0}>
          Recommend
        </button>
        {chosen.length === 0 && <p class="small">Pick at least one part of your stack.</p>}
      </form>
      <div
        ref={resultsRef}
        tabIndex={-1}
        class="results-anchor"
        role="region"
        aria-label="Recommendation results"
      >
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
        {submitted && result.data !== undefined && (
          <Results data={result.data} currency={currency} rankBy={rank} option={option} />
        )}
        {submitted && result.data !== undefined && (
          <RateNote rate={rate} observed={result.data.recommendations.map((r) => r.observed_at)} />
        )}
      </div>
    </section>
  );
}

/** A select of the form (applied on Recommend, not on change); "Any" first unless `noAny`. */
function Choice({
  id,
  label,
  value,
  onChange,
  noAny = false,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  noAny?: boolean;
  children: readonly (readonly [string, string])[];
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {!noAny && <option value="">Any</option>}
        {children.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

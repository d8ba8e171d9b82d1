// Regions side by side: GET /instance-types (D46) by city (D56: `columns=city`), one price
// column per listed city (a provider has one region per city), every cheapest cell of a row
// marked (equal prices are all cheapest), and "available in all selected cities". The cities,
// filters, sort, page and currency are in the URL (D50); `city` is the Instances filter's own.
import { ErrorMessage, Link, Status } from '../components';
import { count, gib, money } from '../format';
import { FAMILIES, type InstanceTypeRow, type InstanceTypesData } from '../model';
import { cities as allCities, cityName, placesAnswer, providerLabel, regions } from '../places';
import {
  OPTION_LABEL,
  optionParam,
  purchaseOptionOf,
  withPurchaseOption,
} from '../purchase-options';
import { keptState, navigate, type Kept } from '../url-state';
import { PurchaseOptionField, PurchaseOptionNote } from './purchase-option-field';
import { useApi } from '../use-api';
import { RateNote } from '../rate-note';
import { InferredMark, isInferred, useSources, type Sources } from '../provenance';
import { fieldError } from './field-error';
import { nameText } from './instance-columns';
import { activeFilters, NumberFilter } from './filters';
import { displayOf } from './instances';
import {
  FilterForm,
  Pager,
  pageParam,
  pageValue,
  providerOptions,
  SelectField,
  SortHeader,
} from './table-parts';

const PAGE_SIZE = 50;
/** The API's sort_by values (D46); `min_price` (the cheapest region) is the default. */
const SORTS = ['min_price', 'max_price', 'spread', 'vcpu', 'memory', 'instance_id'] as const;
type Sort = (typeof SORTS)[number];
const PASSED = ['provider', 'instance_family', 'min_vcpu', 'min_memory_gb', 'q'] as const;

/** The city slugs in the API's order (GET /regions). */
const cityOrder = (): string[] => allCities().map((c) => c.city);

/** The cities where a provider has a region (all of them for no provider). */
function citiesOf(provider: string): string[] {
  const served = regions()
    .filter((r) => provider === '' || r.provider === provider)
    .map((r) => r.city as string);
  return cityOrder().filter((c) => served.includes(c));
}

/** The listed cities from the URL (`city`), in the API's order; none listed: every city. */
export function listedCities(params: URLSearchParams): string[] {
  const wanted = (params.get('city') ?? '').split(',');
  const listed = cityOrder().filter((c) => wanted.includes(c));
  return listed.length === 0 ? cityOrder() : listed;
}

/**
 * The city columns shown: the listed cities, but with one provider chosen only those it serves
 * (the others' columns would be empty on every row).
 */
export function shownCities(params: URLSearchParams): string[] {
  const served = citiesOf(params.get('provider') ?? '');
  return listedCities(params).filter((c) => served.includes(c));
}

export function instanceTypesQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of PASSED) {
    const value = params.get(name);
    if (value !== null && value !== '') query.set(name, value);
  }
  query.set('columns', 'city');
  const cities = listedCities(params);
  if (cities.length < cityOrder().length) query.set('city', cities.join(','));
  if (params.get('available_in') === 'all') query.set('available_in', 'all');
  const sort = params.get('sort');
  if ((SORTS as readonly string[]).includes(sort ?? '')) query.set('sort_by', sort!);
  if (params.get('order') === 'desc') query.set('order', 'desc');
  query.set('limit', String(PAGE_SIZE));
  query.set('offset', String((pageParam(params) - 1) * PAGE_SIZE));
  const currency = displayOf(params).currency;
  if (currency !== 'USD') query.set('currency', currency);
  withPurchaseOption(query, purchaseOptionOf(params));
  return query;
}

export function RegionsView({ params }: { params: URLSearchParams }) {
  // The city columns are the API's: asked once GET /regions has answered (or failed: then the
  // API's default columns, and its error shown).
  const places = placesAnswer();
  const answer = useApi<InstanceTypesData>(
    places.loading ? null : `/instance-types?${instanceTypesQuery(params).toString()}`,
  );
  // After an error the last answer is for another question: it is not shown as this one's.
  const data = answer.error === undefined ? answer.data : undefined;
  const invalid = fieldError(answer.error, PASSED);
  const errorFor = (param: string) => (invalid?.param === param ? invalid.message : undefined);
  const rows = data?.instance_types ?? [];
  const total = data?.pagination.total ?? 0;
  const cities = listedCities(params);
  const columns = shownCities(params);
  const all = params.get('available_in') === 'all';
  const currency = displayOf(params).currency;
  const page = pageParam(params);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const offset = (page - 1) * PAGE_SIZE;
  const sort: Sort = SORTS.find((s) => s === params.get('sort')) ?? 'min_price';
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const get = (name: string) => params.get(name) ?? '';
  const provider = get('provider');
  const setFilter = (name: string, value: string) => navigate({ [name]: value, page: undefined });
  const toggleCity = (city: string) => {
    const next = cities.includes(city) ? cities.filter((c) => c !== city) : [...cities, city];
    const ordered = cityOrder().filter((c) => next.includes(c));
    navigate({
      city:
        ordered.length === cityOrder().length || ordered.length === 0
          ? undefined
          : ordered.join(','),
      page: undefined,
    });
  };
  // As in Instances: a header sorts by its column; pressing the sorted one reverses the order.
  const toggleSort = (id: Sort) =>
    navigate({
      sort: id === 'min_price' ? undefined : id,
      order: id === sort && order === 'asc' ? 'desc' : undefined,
      page: undefined,
    });
  const header = (id: Sort, label: preact.ComponentChildren, className?: string) => (
    <SortHeader
      label={label}
      numeric
      class={className === undefined ? 'sortable' : `${className} sortable`}
      sorted={sort === id}
      order={order}
      onSort={() => toggleSort(id)}
    />
  );
  const keep = keptState(params);
  const sources = useSources();
  const option = purchaseOptionOf(params);

  return (
    <section aria-labelledby="regions-view-title">
      <h1 id="regions-view-title">Regions side by side</h1>
      <p class="small">
        Each instance type once, with its monthly price ({currency}
        {option === 'on_demand' ? '' : `, ${OPTION_LABEL[option]}`}) in every selected city; the
        cheapest cities of each row are in bold and marked. Sort by a column&apos;s header.
      </p>
      <FilterForm
        id="region-filters"
        label="Filter instance types"
        active={activeFilters(params, [...PASSED, 'city', 'available_in', 'purchase_option'])}
        invalid={invalid !== undefined}
      >
        <SelectField
          id="r-provider"
          param="provider"
          label="Provider"
          value={provider}
          options={providerOptions()}
          onChange={(v) => setFilter('provider', v)}
          error={errorFor('provider')}
        />
        <SelectField
          id="r-family"
          param="instance_family"
          label="Family"
          value={get('instance_family')}
          options={FAMILIES.map((f) => [f, f] as const)}
          onChange={(v) => setFilter('instance_family', v)}
          error={errorFor('instance_family')}
        />
        <PurchaseOptionField
          id="r-purchase-option"
          value={option}
          onChange={(o) => navigate({ purchase_option: optionParam(o), page: undefined })}
        />
        <NumberFilter
          param="min_vcpu"
          label="Min vCPU"
          value={get('min_vcpu')}
          step="1"
          onCommit={setFilter}
          error={errorFor('min_vcpu')}
        />
        <NumberFilter
          param="min_memory_gb"
          label="Min memory"
          unit="GiB"
          value={get('min_memory_gb')}
          step="0.5"
          onCommit={setFilter}
          error={errorFor('min_memory_gb')}
        />
        <fieldset class="region-picker">
          <legend>Cities</legend>
          <div class="region-group">
            {citiesOf(provider).map((city) => (
              <label key={city} class="check">
                <input
                  type="checkbox"
                  checked={cities.includes(city)}
                  onChange={() => toggleCity(city)}
                />
                {cityName(city)}
              </label>
            ))}
          </div>
          <label class="check">
            <input
              type="checkbox"
              checked={all}
              onChange={(e) =>
                navigate({
                  available_in: e.currentTarget.checked ? 'all' : undefined,
                  page: undefined,
                })
              }
            />
            Only types available in all selected cities (that their provider serves)
          </label>
        </fieldset>
      </FilterForm>
      <PurchaseOptionNote id="r-purchase-option" option={option} />
      <ErrorMessage error={places.error} />
      {invalid === undefined && <ErrorMessage error={answer.error} onRetry={answer.reload} />}
      {data !== undefined && columns.length === 1 && (
        <p class="note" role="status">
          One city chosen: there is nothing to compare it with, so no city is marked cheapest. Tick
          a second city to compare, or see {cityName(columns[0]!)} in{' '}
          <Link to={{ city: columns[0], ...keep }}>Instances</Link>.
        </p>
      )}
      <Status loading={answer.loading}>
        {answer.error !== undefined
          ? invalid !== undefined
            ? 'No results: the filters cannot be answered as they are (see the message under the filter).'
            : 'No results: the request failed (see the message above).'
          : data === undefined
            ? answer.loading
              ? 'Loading instance types…'
              : ''
            : total === 0
              ? 'No instance types match these filters and cities.'
              : `Showing ${count.format(offset + 1)}–${count.format(offset + rows.length)} of ${count.format(total)} instance types`}
      </Status>
      {data === undefined && answer.loading && (
        // Until the first answer, the height a page of rows will fill: the pager does not jump.
        <div class="table-wrap reserve" />
      )}
      {rows.length > 0 && (
        <div
          class="table-wrap"
          tabIndex={0}
          role="region"
          aria-label="Instance types by city, scrolls sideways"
        >
          <table class="data stack" aria-rowcount={total + 1} aria-busy={answer.loading}>
            <caption class="visually-hidden">
              Instance types with their monthly price in each selected city
            </caption>
            <thead>
              <tr aria-rowindex={1}>
                <SortHeader
                  label="Instance type"
                  class="name-col sortable"
                  sorted={sort === 'instance_id'}
                  order={order}
                  onSort={() => toggleSort('instance_id')}
                />
                {provider === '' && <th scope="col">Provider</th>}
                {header('vcpu', 'vCPU')}
                {header('memory', 'Memory (GiB)')}
                {columns.map((city) => (
                  <th key={city} scope="col" class="num">
                    {cityName(city)}
                  </th>
                ))}
                {header('min_price', 'Cheapest')}
                {header('max_price', 'Dearest')}
                {header('spread', 'Spread')}
              </tr>
            </thead>
            <tbody>
              {rows.map((t, i) => (
                <TypeRow
                  key={`${t.provider}/${t.instance_id}`}
                  row={t}
                  cities={columns}
                  showProvider={provider === ''}
                  currency={currency}
                  index={offset + i + 2}
                  keep={keep}
                  compared={columns.length > 1}
                  sources={sources}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <RateNote
        rate={data?.metadata.exchange_rate}
        observed={rows.flatMap((t) => sources[t.provider]?.observed_at ?? [])}
      />
      <Pager page={page} pages={pages} onPage={(n) => navigate({ page: pageValue(n) })} />
    </section>
  );
}

function TypeRow({
  row: t,
  cities,
  showProvider,
  currency,
  index,
  keep,
  compared,
  sources,
}: {
  /** More than one city column: only then is a city "cheapest" (one city is no comparison). */
  compared: boolean;
  sources: Sources;
  row: InstanceTypeRow;
  /** City slugs: `prices` is keyed by city (columns=city). */
  cities: readonly string[];
  /** Off when one provider is chosen: the column would say the same on every row. */
  showProvider: boolean;
  currency: string;
  index: number;
  keep: Kept;
}) {
  const cheapest = t.prices[t.cheapest_region];
  // A card's detail cells alternate between its two columns (styles.css, narrow screens).
  let details = 0;
  const place = () => (details++ % 2 === 0 ? 'card-l' : 'card-r');
  return (
    <tr aria-rowindex={index}>
      <th scope="row" class="name-col">
        {cheapest === undefined ? (
          t.instance_id
        ) : (
          <Link to={{ view: 'instance', id: String(cheapest.id), ...keep }}>{nameText(t)}</Link>
        )}
      </th>
      {showProvider && (
        <td class={place()} data-label="Provider">
          {providerLabel(t.provider)}
        </td>
      )}
      <td class={`num ${place()}`} data-label="vCPU">
        {t.vcpu}
      </td>
      <td class={`num ${place()}`} data-label="Memory (GiB)">
        {gib(t.memory_mb)}
      </td>
      {cities.map((city) => {
        const price = t.prices[city];
        if (price === undefined) {
          return (
            <td key={city} class={`num absent ${place()}`} data-label={cityName(city)}>
              <span aria-hidden="true">·</span>
              <span class="visually-hidden">not offered</span>
            </td>
          );
        }
        // Ties are ties: every city at the lowest price is the cheapest.
        const isCheapest = compared && price.monthly_price === t.min_monthly_price;
        const code = regions().find((r) => r.provider === t.provider && r.city === city);
        const inferred = code !== undefined && isInferred(sources, t.provider, code.region_code);
        return (
          <td
            key={city}
            class={`${isCheapest ? 'num cheapest-cell' : 'num'} ${place()}`}
            data-label={cityName(city)}
          >
            {isCheapest ? (
              <strong>{money(price.monthly_price, currency)}</strong>
            ) : (
              money(price.monthly_price, currency)
            )}
            {isCheapest && !inferred && <span class="visually-hidden"> (cheapest)</span>}
            {inferred && (
              <>
                {' '}
                <InferredMark />
                {isCheapest && <span class="visually-hidden"> (cheapest if sold here)</span>}
              </>
            )}
          </td>
        );
      })}
      <td class="num card-price" data-label="Cheapest">
        {money(t.min_monthly_price, currency)}
      </td>
      <td class={`num ${place()}`} data-label="Dearest">
        {money(t.max_monthly_price, currency)}
      </td>
      <td class={`num ${place()}`} data-label="Spread">
        {t.spread_pct === null || !compared ? '—' : `${t.spread_pct.toFixed(1)}%`}
      </td>
    </tr>
  );
}

// Regions side by side: GET /instance-types (D46) as a table with one price column per listed
// region, the cheapest cell of each row marked, and "available in all selected regions". The
// regions, filters, sort, page and currency are in the URL (D50).
import { ErrorMessage, Link, Status } from '../components';
import { count, gib, money } from '../format';
import {
  FAMILIES,
  PROVIDER_LABEL,
  PROVIDERS,
  REGIONS,
  type InstanceTypeRow,
  type InstanceTypesData,
} from '../model';
import { navigate } from '../url-state';
import { useApi } from '../use-api';
import { NumberFilter } from './filters';
import { displayOf } from './instances';
import {
  FilterForm,
  Pager,
  pageParam,
  pageValue,
  PROVIDER_OPTIONS,
  SelectField,
  SortHeader,
} from './table-parts';

const PAGE_SIZE = 50;
/** The API's sort_by values (D46); `min_price` (the cheapest region) is the default. */
const SORTS = ['min_price', 'max_price', 'spread', 'vcpu', 'memory', 'instance_id'] as const;
type Sort = (typeof SORTS)[number];
const PASSED = ['provider', 'instance_family', 'min_vcpu', 'min_memory_gb', 'q'] as const;

/** The listed regions from the URL, in the catalogue's order; none listed: every region. */
export function listedRegions(params: URLSearchParams): string[] {
  const wanted = (params.get('regions') ?? '').split(',');
  const listed = REGIONS.filter((r) => wanted.includes(r.code)).map((r) => r.code);
  return listed.length === 0 ? REGIONS.map((r) => r.code) : listed;
}

/**
 * The region columns shown: the listed regions, but with one provider chosen only its own (the
 * others' columns would be empty on every row).
 */
export function shownRegions(params: URLSearchParams): string[] {
  const provider = params.get('provider') ?? '';
  return listedRegions(params).filter(
    (code) => provider === '' || REGIONS.find((r) => r.code === code)?.provider === provider,
  );
}

export function instanceTypesQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of PASSED) {
    const value = params.get(name);
    if (value !== null && value !== '') query.set(name, value);
  }
  const regions = listedRegions(params);
  if (regions.length < REGIONS.length) query.set('regions', regions.join(','));
  if (params.get('available_in') === 'all') query.set('available_in', 'all');
  const sort = params.get('sort');
  if ((SORTS as readonly string[]).includes(sort ?? '')) query.set('sort_by', sort!);
  if (params.get('order') === 'desc') query.set('order', 'desc');
  query.set('limit', String(PAGE_SIZE));
  query.set('offset', String((pageParam(params) - 1) * PAGE_SIZE));
  const currency = displayOf(params).currency;
  if (currency !== 'USD') query.set('currency', currency);
  return query;
}

export function RegionsView({ params }: { params: URLSearchParams }) {
  const answer = useApi<InstanceTypesData>(
    `/instance-types?${instanceTypesQuery(params).toString()}`,
  );
  const rows = answer.data?.instance_types ?? [];
  const total = answer.data?.pagination.total ?? 0;
  const regions = listedRegions(params);
  const columns = shownRegions(params);
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
  const toggleRegion = (code: string) => {
    const next = regions.includes(code) ? regions.filter((c) => c !== code) : [...regions, code];
    const ordered = REGIONS.map((r) => r.code).filter((c) => next.includes(c));
    navigate({
      regions:
        ordered.length === REGIONS.length || ordered.length === 0 ? undefined : ordered.join(','),
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
      class={className}
      sorted={sort === id}
      order={order}
      onSort={() => toggleSort(id)}
    />
  );
  const keep = { currency: params.get('currency') ?? undefined };

  return (
    <section aria-labelledby="regions-view-title">
      <h1 id="regions-view-title">Regions side by side</h1>
      <p class="small">
        Each instance type once, with its monthly price ({currency}) in every selected region; the
        cheapest region of each row is in bold and marked. Sort by a column&apos;s header.
      </p>
      <FilterForm label="Filter instance types">
        <SelectField
          id="r-provider"
          label="Provider"
          value={provider}
          options={PROVIDER_OPTIONS}
          onChange={(v) => setFilter('provider', v)}
        />
        <SelectField
          id="r-family"
          label="Family"
          value={get('instance_family')}
          options={FAMILIES.map((f) => [f, f] as const)}
          onChange={(v) => setFilter('instance_family', v)}
        />
        <NumberFilter
          param="min_vcpu"
          label="Min vCPU"
          value={get('min_vcpu')}
          step="1"
          onCommit={setFilter}
        />
        <NumberFilter
          param="min_memory_gb"
          label="Min memory"
          unit="GiB"
          value={get('min_memory_gb')}
          step="0.5"
          onCommit={setFilter}
        />
      </FilterForm>
      <fieldset class="region-picker">
        <legend>Regions</legend>
        {PROVIDERS.filter((p) => provider === '' || p === provider).map((p) => (
          <div key={p} class="region-group">
            <span class="small">{PROVIDER_LABEL[p]}:</span>
            {REGIONS.filter((r) => r.provider === p).map((r) => (
              <label key={r.code} class="check">
                <input
                  type="checkbox"
                  checked={regions.includes(r.code)}
                  onChange={() => toggleRegion(r.code)}
                />
                {r.city} <span class="small">({r.code})</span>
              </label>
            ))}
          </div>
        ))}
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
          Only types available in all selected regions (of their provider)
        </label>
      </fieldset>
      <ErrorMessage error={answer.error} onRetry={answer.reload} />
      <Status loading={answer.loading}>
        {answer.data === undefined
          ? answer.loading
            ? 'Loading instance types…'
            : ''
          : total === 0
            ? 'No instance types match these filters and regions.'
            : `Showing ${count.format(offset + 1)}–${count.format(offset + rows.length)} of ${count.format(total)} instance types`}
      </Status>
      {rows.length > 0 && (
        <div
          class="table-wrap"
          tabIndex={0}
          role="region"
          aria-label="Instance types by region, scrolls sideways"
        >
          <table class="data" aria-rowcount={total + 1} aria-busy={answer.loading}>
            <caption class="visually-hidden">
              Instance types with their monthly price in each selected region
            </caption>
            <thead>
              <tr aria-rowindex={1}>
                <SortHeader
                  label="Instance type"
                  class="name-col"
                  sorted={sort === 'instance_id'}
                  order={order}
                  onSort={() => toggleSort('instance_id')}
                />
                {provider === '' && <th scope="col">Provider</th>}
                {header('vcpu', 'vCPU')}
                {header('memory', 'Memory (GiB)')}
                {columns.map((code) => {
                  const r = REGIONS.find((g) => g.code === code)!;
                  return (
                    <th key={code} scope="col" class="num">
                      {r.city}
                      <div class="small">{code}</div>
                    </th>
                  );
                })}
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
                  regions={columns}
                  showProvider={provider === ''}
                  currency={currency}
                  index={offset + i + 2}
                  keep={keep}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pages={pages} onPage={(n) => navigate({ page: pageValue(n) })} />
    </section>
  );
}

function TypeRow({
  row: t,
  regions,
  showProvider,
  currency,
  index,
  keep,
}: {
  row: InstanceTypeRow;
  regions: readonly string[];
  /** Off when one provider is chosen: the column would say the same on every row. */
  showProvider: boolean;
  currency: string;
  index: number;
  keep: { currency?: string };
}) {
  const cheapest = t.prices[t.cheapest_region];
  return (
    <tr aria-rowindex={index}>
      <th scope="row" class="name-col">
        {cheapest === undefined ? (
          t.instance_id
        ) : (
          <Link to={{ view: 'instance', id: String(cheapest.id), ...keep }}>
            {t.instance_name === t.instance_id
              ? t.instance_id
              : `${t.instance_name} (${t.instance_id})`}
          </Link>
        )}
      </th>
      {showProvider && <td>{PROVIDER_LABEL[t.provider] ?? t.provider}</td>}
      <td class="num">{t.vcpu}</td>
      <td class="num">{gib(t.memory_mb)}</td>
      {regions.map((code) => {
        const price = t.prices[code];
        if (price === undefined) {
          return (
            <td key={code} class="num absent">
              <span aria-hidden="true">·</span>
              <span class="visually-hidden">not offered</span>
            </td>
          );
        }
        const isCheapest = code === t.cheapest_region;
        return (
          <td key={code} class={isCheapest ? 'num cheapest-cell' : 'num'}>
            {isCheapest ? (
              <strong>{money(price.monthly_price, currency)}</strong>
            ) : (
              money(price.monthly_price, currency)
            )}
            {isCheapest && <span class="visually-hidden"> (cheapest)</span>}
          </td>
        );
      })}
      <td class="num">{money(t.min_monthly_price, currency)}</td>
      <td class="num">{money(t.max_monthly_price, currency)}</td>
      <td class="num">{t.spread_pct === null ? '—' : `${t.spread_pct.toFixed(1)}%`}</td>
    </tr>
  );
}

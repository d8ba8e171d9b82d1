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
import { displayOf } from './instances';

const PAGE_SIZE = 50;
const SORTS = [
  ['min_price', 'Cheapest region'],
  ['max_price', 'Dearest region'],
  ['spread', 'Spread between regions'],
  ['vcpu', 'vCPU'],
  ['memory', 'Memory'],
  ['instance_id', 'Type'],
] as const;
const PASSED = ['provider', 'instance_family', 'min_vcpu', 'min_memory_gb', 'q'] as const;

/** The listed regions from the URL, in the catalogue's order; none listed: every region. */
export function listedRegions(params: URLSearchParams): string[] {
  const wanted = (params.get('regions') ?? '').split(',');
  const listed = REGIONS.filter((r) => wanted.includes(r.code)).map((r) => r.code);
  return listed.length === 0 ? REGIONS.map((r) => r.code) : listed;
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
  if (SORTS.some(([id]) => id === sort)) query.set('sort_by', sort!);
  if (params.get('order') === 'desc') query.set('order', 'desc');
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  query.set('limit', String(PAGE_SIZE));
  query.set('offset', String((page - 1) * PAGE_SIZE));
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
  const all = params.get('available_in') === 'all';
  const currency = displayOf(params).currency;
  const page = Math.max(1, Math.floor(Number(params.get('page'))) || 1);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const offset = (page - 1) * PAGE_SIZE;
  const sort = params.get('sort') ?? 'min_price';
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const get = (name: string) => params.get(name) ?? '';
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
  const keep = { currency: params.get('currency') ?? undefined };

  return (
    <section aria-labelledby="regions-view-title">
      <h1 id="regions-view-title">Regions side by side</h1>
      <p class="small">
        Each instance type once, with its monthly price ({currency}) in every selected region; the
        cheapest region of each row is in bold and marked.
      </p>
      <form
        class="filters"
        role="search"
        aria-label="Filter instance types"
        onSubmit={(e) => e.preventDefault()}
      >
        <div class="field">
          <label for="r-provider">Provider</label>
          <select
            id="r-provider"
            value={get('provider')}
            onChange={(e) => setFilter('provider', e.currentTarget.value)}
          >
            <option value="">Any</option>
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABEL[p]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="r-family">Family</label>
          <select
            id="r-family"
            value={get('instance_family')}
            onChange={(e) => setFilter('instance_family', e.currentTarget.value)}
          >
            <option value="">Any</option>
            {FAMILIES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="r-vcpu">Min vCPU</label>
          <input
            id="r-vcpu"
            type="number"
            min="0"
            step="1"
            value={get('min_vcpu')}
            onChange={(e) => setFilter('min_vcpu', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="r-memory">
            Min memory <span class="unit">(GiB)</span>
          </label>
          <input
            id="r-memory"
            type="number"
            min="0"
            step="0.5"
            value={get('min_memory_gb')}
            onChange={(e) => setFilter('min_memory_gb', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="r-sort">Sort by</label>
          <select
            id="r-sort"
            value={sort}
            onChange={(e) =>
              navigate({
                sort: e.currentTarget.value === 'min_price' ? undefined : e.currentTarget.value,
                page: undefined,
              })
            }
          >
            {SORTS.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="r-order">Order</label>
          <select
            id="r-order"
            value={order}
            onChange={(e) =>
              navigate({
                order: e.currentTarget.value === 'desc' ? 'desc' : undefined,
                page: undefined,
              })
            }
          >
            <option value="asc">Ascending</option>
            <option value="desc">Descending</option>
          </select>
        </div>
      </form>
      <fieldset class="region-picker">
        <legend>Regions</legend>
        {PROVIDERS.map((p) => (
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
                <th scope="col" class="name-col">
                  Instance type
                </th>
                <th scope="col">Provider</th>
                <th scope="col" class="num">
                  vCPU
                </th>
                <th scope="col" class="num">
                  Memory (GiB)
                </th>
                {regions.map((code) => {
                  const r = REGIONS.find((g) => g.code === code)!;
                  return (
                    <th key={code} scope="col" class="num">
                      {r.city}
                      <div class="small">{code}</div>
                    </th>
                  );
                })}
                <th
                  scope="col"
                  class="num"
                  aria-sort={
                    sort === 'spread' ? (order === 'asc' ? 'ascending' : 'descending') : undefined
                  }
                >
                  Spread
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((t, i) => (
                <TypeRow
                  key={`${t.provider}/${t.instance_id}`}
                  row={t}
                  regions={regions}
                  currency={currency}
                  index={offset + i + 2}
                  keep={keep}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          disabled={page <= 1}
          onClick={() => navigate({ page: page - 1 > 1 ? String(page - 1) : undefined })}
        >
          Previous
        </button>
        <span>
          Page {count.format(page)} of {count.format(pages)}
        </span>
        <button
          type="button"
          disabled={page >= pages}
          onClick={() => navigate({ page: String(page + 1) })}
        >
          Next
        </button>
      </nav>
    </section>
  );
}

function TypeRow({
  row: t,
  regions,
  currency,
  index,
  keep,
}: {
  row: InstanceTypeRow;
  regions: readonly string[];
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
      <td>{PROVIDER_LABEL[t.provider] ?? t.provider}</td>
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
      <td class="num">{t.spread_pct === null ? '—' : `${t.spread_pct.toFixed(1)}%`}</td>
    </tr>
  );
}

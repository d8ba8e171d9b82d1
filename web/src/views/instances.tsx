// Instances: the catalogue table. Filters, sort, page, columns, unit, period, currency and the
// selection are all in the URL (D50); filtering, sorting and paging happen on the server.
import { useEffect, useState } from 'preact/hooks';
import { apiJson } from '../api';
import { ErrorMessage, Link, Status } from '../components';
import { count, PERIODS, UNITS, type Period, type PriceUnit } from '../format';
import { knownCurrency, type InstancesData } from '../model';
import { SourcesNote, useSources } from '../provenance';
import { purchaseOptionOf, withPurchaseOption } from '../purchase-options';
import { keptState, navigate } from '../url-state';
import { useApi } from '../use-api';
import { DisplayControls } from './display-controls';
import { fieldError } from './field-error';
import { Chips, Filters, FILTERS } from './filters';
import {
  COLUMNS,
  headlineColumn,
  nameText,
  toCsv,
  toMarkdown,
  visibleColumns,
  type Column,
  type Display,
} from './instance-columns';
import { ExportBar } from './export-bar';
import { RateNote } from '../rate-note';
import { Pager, pageParam, pageValue, SortHeader } from './table-parts';

export const PAGE_SIZES = [25, 50, 100] as const;
const NO_ROWS: readonly InstancesData['instances'][number][] = [];
const DEFAULT_PAGE_SIZE = 50;

/** The /instances query for the URL's state (filters, sort, order, page). */
export function instancesQuery(params: URLSearchParams, display: Display): URLSearchParams {
  const query = new URLSearchParams();
  for (const f of FILTERS) {
    const value = params.get(f.param);
    if (value !== null && value !== '') query.set(f.param, value);
  }
  // Without a sort in the URL, a price per vCPU or per GiB sorts by that figure (the one shown),
  // not by the API's default monthly price per instance.
  const sortColumn = COLUMNS.find((c) => c.id === (params.get('sort') ?? defaultSort(display)));
  const sortBy = sortColumn?.sort?.(display);
  if (sortBy !== undefined) query.set('sort_by', sortBy);
  if (params.get('order') === 'desc') query.set('order', 'desc');
  const limit = pageSize(params);
  query.set('limit', String(limit));
  query.set('offset', String((pageParam(params) - 1) * limit));
  if (display.currency !== 'USD') query.set('currency', display.currency);
  withPurchaseOption(query, display.option);
  return query;
}

/** Rows the page's CSV holds at most: 25 requests of 100, a quarter of a minute's budget. */
export const CSV_ROWS = 2_500;

/**
 * The page's CSV of every matching row (up to CSV_ROWS): the screen's words and figures, every
 * column (vendor names, memory in GiB, "EBS only" and "not published", prices in the chosen
 * currency and unit, the observation date and source). The API's own CSV (D47) keeps the
 * specification's columns and meanings; this one is for people.
 */
async function screenCsv(params: URLSearchParams, display: Display, total: number) {
  const rows: InstancesData['instances'][number][] = [];
  const query = instancesQuery(params, display);
  query.set('limit', '100');
  for (let offset = 0; offset < Math.min(total, CSV_ROWS); offset += 100) {
    query.set('offset', String(offset));
    rows.push(...(await apiJson<InstancesData>(`/instances?${query.toString()}`)).instances);
  }
  return toCsv(rows, COLUMNS, display);
}

function pageSize(params: URLSearchParams): number {
  const value = Number(params.get('limit'));
  return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
}

/** The URL's display choices (the sources come from /health, not the URL). */
export function displayOf(params: URLSearchParams): Omit<Display, 'sources'> {
  const unit = params.get('unit');
  const period = params.get('period');
  return {
    unit: (UNITS as readonly string[]).includes(unit ?? '') ? (unit as PriceUnit) : 'instance',
    period: (PERIODS as readonly string[]).includes(period ?? '') ? (period as Period) : 'month',
    currency: knownCurrency(params.get('currency')) ?? 'USD',
    option: purchaseOptionOf(params),
  };
}

/** The column sorted without a `sort` in the URL: the price as shown when it is per unit. */
function defaultSort(display: Pick<Display, 'unit'>): string | undefined {
  return display.unit === 'instance' ? undefined : 'price';
}

/**
 * The column the rows are sorted by: the URL's, or without one the column that follows the
 * default order (the price as shown per vCPU or GiB; else the API's, monthly price ascending),
 * so the default sort shows on its header too.
 */
function sortedColumn(
  sort: string | null,
  columns: readonly Column[],
  display: Display,
): string | undefined {
  if (sort !== null) return sort;
  const unit = defaultSort(display);
  if (unit !== undefined) return columns.some((c) => c.id === unit) ? unit : undefined;
  return columns.find((c) => ['price', 'monthly_price'].includes(c.sort?.(display) ?? ''))?.id;
}

/**
 * A card's place for each cell of a row (styles.css, narrow screens): the headline beside the
 * name, the others alternating between the two detail columns; an empty cell (no GPU) is left
 * out, so the details stay packed.
 */
function cardPlaces(texts: readonly (readonly [id: string, text: string])[], headline?: string) {
  let detail = 0;
  return texts.map(([id, text]) =>
    id === headline
      ? 'card-price'
      : text === ''
        ? 'is-empty'
        : detail++ % 2 === 0
          ? 'card-l'
          : 'card-r',
  );
}

export function selectedIds(params: URLSearchParams): number[] {
  return (params.get('sel') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

/**
 * The rows that fit in the table's box (at most 75% of the window high, rows about 30 px) are
 * rendered at once; the rest of the page one task later, after the first ones are painted. A page
 * of 100 rows is then two short tasks instead of one long one, and the table stays `aria-busy`
 * until every row is there.
 */
function useRowsInStages<T>(rows: readonly T[]): readonly T[] {
  const first = Math.ceil((window.innerHeight * 0.75) / 30) + 2;
  const [complete, setComplete] = useState<readonly T[] | undefined>(undefined);
  useEffect(() => {
    if (rows.length <= first) return;
    const timer = setTimeout(() => setComplete(rows), 0);
    return () => clearTimeout(timer);
  }, [rows, first]);
  return complete === rows || rows.length <= first ? rows : rows.slice(0, first);
}

export function InstancesView({ params }: { params: URLSearchParams }) {
  const sources = useSources();
  const display = { ...displayOf(params), sources };
  const columns = visibleColumns(params.get('cols'));
  const query = instancesQuery(params, display);
  const result = useApi<InstancesData>(`/instances?${query.toString()}`);
  // After an error the last answer is for another question: it is not shown as this one's.
  const data = result.error === undefined ? result.data : undefined;
  const invalid = fieldError(
    result.error,
    FILTERS.map((f) => f.param),
  );
  const rows = data?.instances ?? NO_ROWS;
  const shownRows = useRowsInStages(rows);
  const total = data?.pagination.total ?? 0;
  const limit = pageSize(params);
  const current = pageParam(params);
  const pages = Math.max(1, Math.ceil(total / limit));
  const offset = (current - 1) * limit;
  const selected = selectedIds(params);
  const sort = sortedColumn(params.get('sort'), columns, display);
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const headline = headlineColumn(columns);

  // The sorted column's header (the default one too) reverses the order; another sorts by it.
  const toggleSort = (id: string) => {
    if (sort === id)
      navigate({ sort: id, order: order === 'asc' ? 'desc' : undefined, page: undefined });
    else navigate({ sort: id, order: undefined, page: undefined });
  };
  const toggleSelected = (id: number) => {
    const next = selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id];
    navigate({ sel: next.join(',') });
  };

  return (
    <section aria-labelledby="instances-title">
      <h1 id="instances-title">Instances</h1>
      <Filters params={params} currency={display.currency} invalid={invalid} />
      <Chips params={params} />
      <DisplayControls params={params} display={display} />
      {invalid === undefined && <ErrorMessage error={result.error} onRetry={result.reload} />}
      <Status loading={result.loading}>
        {result.error !== undefined
          ? invalid !== undefined
            ? 'No results: the filters cannot be answered as they are (see the message under the filter).'
            : 'No results: the request failed (see the message above).'
          : result.loading && data === undefined
            ? 'Loading instances…'
            : total === 0
              ? 'No instances match these filters.'
              : `Showing ${count.format(offset + 1)}–${count.format(offset + rows.length)} of ${count.format(total)} instances`}
      </Status>
      {selected.length > 0 && (
        <div class="selection" role="group" aria-label="Selection">
          <span>{selected.length} selected</span>
          <Link
            to={{
              view: 'compare',
              ids: selected.join(','),
              ...keptState(params),
            }}
            class="button"
          >
            Compare selected
          </Link>
          <button type="button" class="link-button" onClick={() => navigate({ sel: undefined })}>
            Clear selection
          </button>
        </div>
      )}
      <div
        // Until the first answer, the box keeps the height a page of rows will fill, so nothing
        // below it jumps when they arrive (layout shift). After an error it holds no rows.
        hidden={result.error !== undefined}
        class={data === undefined ? 'table-wrap reserve' : 'table-wrap'}
        tabIndex={0}
        role="region"
        aria-label="Instances table, scrolls sideways"
      >
        <table
          class="data stack"
          aria-rowcount={total + 1}
          aria-busy={result.loading || shownRows.length < rows.length}
        >
          <caption class="visually-hidden">
            Instances
            {sort !== undefined
              ? `, sorted by ${COLUMNS.find((c) => c.id === sort)?.label(display) ?? sort} ${order === 'asc' ? 'ascending' : 'descending'}`
              : ', cheapest first'}
          </caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col" class="select-col">
                <span class="visually-hidden">Select</span>
              </th>
              <th scope="col" class="name-col">
                Instance
              </th>
              {columns.map((c) =>
                c.sort?.(display) === undefined ? (
                  <th key={c.id} scope="col" class={c.numeric === true ? 'num' : undefined}>
                    {c.label(display)}
                  </th>
                ) : (
                  <SortHeader
                    key={c.id}
                    label={c.label(display)}
                    numeric={c.numeric === true}
                    class="sortable"
                    sorted={sort === c.id}
                    order={order}
                    onSort={() => toggleSort(c.id)}
                  />
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {shownRows.map((r, i) => (
              <tr
                key={r.id}
                aria-rowindex={offset + i + 2}
                class={selected.includes(r.id) ? 'is-selected' : undefined}
              >
                <td class="select-col">
                  <input
                    type="checkbox"
                    checked={selected.includes(r.id)}
                    aria-label={`Select ${r.instance_name} in ${r.region.region_name} (${r.provider.display_name})`}
                    onChange={() => toggleSelected(r.id)}
                  />
                </td>
                <th scope="row" class="name-col">
                  <Link
                    to={{
                      view: 'instance',
                      id: String(r.id),
                      ...keptState(params),
                    }}
                  >
                    {nameText(r)}
                  </Link>
                </th>
                {(() => {
                  const texts = columns.map((c) => [c.id, c.text(r, display)] as const);
                  const places = cardPlaces(texts, headline);
                  return columns.map((c, i) => (
                    <td
                      key={c.id}
                      class={c.numeric === true ? `num ${places[i]}` : places[i]}
                      data-label={c.label(display)}
                    >
                      {c.cell !== undefined ? c.cell(r, display) : texts[i]![1]}
                    </td>
                  ));
                })()}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <RateNote
        rate={data?.metadata.exchange_rate}
        observed={rows.map((r) => r.pricing.observed_at)}
      />
      {columns.some((c) => c.id === 'observed') && (
        <SourcesNote providers={rows.map((r) => r.provider.name)} sources={sources} />
      )}
      <Pager page={current} pages={pages} onPage={(n) => navigate({ page: pageValue(n) })}>
        <label for="page-size">Rows per page</label>
        <select
          id="page-size"
          value={String(limit)}
          onChange={(e) =>
            navigate({
              limit:
                e.currentTarget.value === String(DEFAULT_PAGE_SIZE)
                  ? undefined
                  : e.currentTarget.value,
              page: undefined,
            })
          }
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </Pager>
      <ExportBar
        rows={rows}
        csv={() => toCsv(rows, columns, display)}
        markdown={() => toMarkdown(rows, columns, display)}
        download={() => screenCsv(params, display, total)}
        limit={CSV_ROWS}
        total={total}
      />
    </section>
  );
}

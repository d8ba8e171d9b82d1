// Instances: the catalogue table. Filters, sort, page, columns, unit, period, currency and the
// selection are all in the URL (D50); filtering, sorting and paging happen on the server.
import { useEffect, useState } from 'preact/hooks';
import { apiText } from '../api';
import { ErrorMessage, Link, Status } from '../components';
import { count, PERIODS, UNIT_LABEL, UNITS, type Period, type PriceUnit } from '../format';
import { CURRENCIES, currencyLabel, type InstancesData } from '../model';
import { navigate } from '../url-state';
import { useApi } from '../use-api';
import { Chips, closeOnEscape, Filters, FILTERS } from './filters';
import {
  COLUMNS,
  DEFAULT_COLUMNS,
  nameText,
  toCsv,
  toMarkdown,
  visibleColumns,
  type Display,
} from './instance-columns';
import { ExportBar } from './export-bar';
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
  const sortColumn = COLUMNS.find((c) => c.id === params.get('sort'));
  const sortBy = sortColumn?.sort?.(display);
  if (sortBy !== undefined) query.set('sort_by', sortBy);
  if (params.get('order') === 'desc') query.set('order', 'desc');
  const limit = pageSize(params);
  query.set('limit', String(limit));
  query.set('offset', String((pageParam(params) - 1) * limit));
  if (display.currency !== 'USD') query.set('currency', display.currency);
  return query;
}

function pageSize(params: URLSearchParams): number {
  const value = Number(params.get('limit'));
  return (PAGE_SIZES as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
}

export function displayOf(params: URLSearchParams): Display {
  const unit = params.get('unit');
  const period = params.get('period');
  return {
    unit: (UNITS as readonly string[]).includes(unit ?? '') ? (unit as PriceUnit) : 'instance',
    period: (PERIODS as readonly string[]).includes(period ?? '') ? (period as Period) : 'month',
    currency: /^[A-Z]{3}$/.test(params.get('currency') ?? '') ? params.get('currency')! : 'USD',
  };
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
  const display = displayOf(params);
  const columns = visibleColumns(params.get('cols'));
  const query = instancesQuery(params, display);
  const result = useApi<InstancesData>(`/instances?${query.toString()}`);
  const data = result.data;
  // The names the API gives the providers (D55, configurable) label every filter and view.
  const rows = data?.instances ?? NO_ROWS;
  const shownRows = useRowsInStages(rows);
  const total = data?.pagination.total ?? 0;
  const limit = pageSize(params);
  const current = pageParam(params);
  const pages = Math.max(1, Math.ceil(total / limit));
  const offset = (current - 1) * limit;
  const selected = selectedIds(params);
  const sort = params.get('sort');
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';

  const toggleSort = (id: string) => {
    if (sort === id) navigate({ order: order === 'asc' ? 'desc' : undefined, page: undefined });
    else navigate({ sort: id, order: undefined, page: undefined });
  };
  const toggleSelected = (id: number) => {
    const next = selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id];
    navigate({ sel: next.join(',') });
  };

  return (
    <section aria-labelledby="instances-title">
      <h1 id="instances-title">Instances</h1>
      <Filters params={params} currency={display.currency} />
      <Chips params={params} />
      <DisplayControls params={params} display={display} />
      <ErrorMessage error={result.error} onRetry={result.reload} />
      <Status loading={result.loading}>
        {result.loading && data === undefined
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
              currency: params.get('currency') ?? undefined,
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
        // below it jumps when they arrive (layout shift).
        class={data === undefined ? 'table-wrap reserve' : 'table-wrap'}
        tabIndex={0}
        role="region"
        aria-label="Instances table, scrolls sideways"
      >
        <table
          class="data"
          aria-rowcount={total + 1}
          aria-busy={result.loading || shownRows.length < rows.length}
        >
          <caption class="visually-hidden">
            Instances
            {sort !== null
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
                      currency: params.get('currency') ?? undefined,
                    }}
                  >
                    {nameText(r)}
                  </Link>
                </th>
                {columns.map((c) => (
                  <td key={c.id} class={c.numeric === true ? 'num' : undefined}>
                    {c.cell !== undefined ? c.cell(r, display) : c.text(r, display)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
        download={async () => {
          const all = instancesQuery(params, display);
          all.set('format', 'csv');
          all.set('limit', '10000');
          all.delete('offset');
          return apiText(`/instances?${all.toString()}`);
        }}
        total={total}
      />
    </section>
  );
}

function DisplayControls({ params, display }: { params: URLSearchParams; display: Display }) {
  const shown = visibleColumns(params.get('cols')).map((c) => c.id);
  const [open, setOpen] = useState(false);
  const setCols = (ids: string[]) => {
    const ordered = COLUMNS.map((c) => c.id).filter((id) => ids.includes(id));
    const same =
      ordered.length === DEFAULT_COLUMNS.length &&
      ordered.every((id) => DEFAULT_COLUMNS.includes(id));
    navigate({ cols: same ? undefined : ordered.join(',') });
  };
  return (
    <div class="display-controls">
      <div class="field">
        <label for="unit">Price</label>
        <select
          id="unit"
          value={display.unit}
          onChange={(e) =>
            navigate({
              unit: e.currentTarget.value === 'instance' ? undefined : e.currentTarget.value,
            })
          }
        >
          {UNITS.map((u) => (
            <option key={u} value={u}>
              {UNIT_LABEL[u]}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="period">Period</label>
        <select
          id="period"
          value={display.period}
          onChange={(e) =>
            navigate({
              period: e.currentTarget.value === 'month' ? undefined : e.currentTarget.value,
            })
          }
        >
          {PERIODS.map((p) => (
            <option key={p} value={p}>
              per {p}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="currency">Currency</label>
        <select
          id="currency"
          value={display.currency}
          onChange={(e) =>
            navigate({
              currency: e.currentTarget.value === 'USD' ? undefined : e.currentTarget.value,
            })
          }
        >
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {currencyLabel(c)}
            </option>
          ))}
        </select>
      </div>
      <details
        class="columns"
        open={open}
        onToggle={(e) => setOpen(e.currentTarget.open)}
        onKeyDown={closeOnEscape}
      >
        <summary>Columns</summary>
        {/* The checkboxes exist only while the menu is open: less to build on first load. */}
        {open && (
          <fieldset>
            <legend>Visible columns</legend>
            {COLUMNS.map((c) => (
              <label key={c.id} class="check">
                <input
                  type="checkbox"
                  checked={shown.includes(c.id)}
                  onChange={(e) =>
                    setCols(
                      e.currentTarget.checked
                        ? [...shown, c.id]
                        : shown.filter((id) => id !== c.id),
                    )
                  }
                />
                {c.label(display)}
              </label>
            ))}
            <div class="row">
              <button type="button" onClick={() => setCols(DEFAULT_COLUMNS)}>
                Defaults
              </button>
              <button type="button" onClick={() => setCols(COLUMNS.map((c) => c.id))}>
                All
              </button>
            </div>
          </fieldset>
        )}
      </details>
    </div>
  );
}

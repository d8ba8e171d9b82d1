// Pieces the table views share: the filter form, a labelled select, sortable column headers and
// the page buttons. One place for their markup, so every view is used (and read by a screen
// reader) the same way.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { count } from '../format';
import { providers } from '../places';
import { errorId } from './field-error';

export type Options = readonly (readonly [value: string, text: string])[];
/** The provider choices, named as the API names them (D55). */
export function providerOptions(): Options {
  return providers().map((p) => [p.name, p.display_name] as const);
}

/**
 * A view's filters: a search landmark whose controls apply as they change (no submit). Given an
 * `id` and the `active` count, on a phone (styles.css, max-width 600px) they fold behind one
 * button that says how many are active; wider, the button is hidden and the filters are always
 * open. A control with an error keeps them open, so its message is seen.
 */
export function FilterForm({
  id,
  label,
  active,
  invalid = false,
  children,
}: {
  id?: string;
  label: string;
  /** How many filters are set (the button's count). */
  active?: number;
  invalid?: boolean;
  children: ComponentChildren;
}) {
  const [open, setOpen] = useState(false);
  const shown = open || invalid;
  if (id === undefined || active === undefined) {
    return (
      <form class="filters" role="search" aria-label={label} onSubmit={(e) => e.preventDefault()}>
        {children}
      </form>
    );
  }
  return (
    <>
      <button
        type="button"
        class="filter-toggle secondary"
        aria-expanded={shown}
        aria-controls={id}
        onClick={() => setOpen(!shown)}
      >
        Filters{active > 0 ? ` (${active} active)` : ''}
        <span aria-hidden="true">{shown ? ' ▴' : ' ▾'}</span>
      </button>
      <form
        id={id}
        class={shown ? 'filters' : 'filters is-folded'}
        role="search"
        aria-label={label}
        onSubmit={(e) => e.preventDefault()}
      >
        {children}
      </form>
    </>
  );
}

/** A control's error, next to it (its aria-describedby), read out when it appears. */
export function FieldMessage({ param, message }: { param: string; message?: string }) {
  if (message === undefined) return null;
  return (
    <p id={errorId(param)} class="field-error" role="alert">
      {message}
    </p>
  );
}

/** The attributes that tie a control to its error message. */
export function invalidProps(param: string, message: string | undefined) {
  return message === undefined
    ? {}
    : { 'aria-invalid': true as const, 'aria-describedby': errorId(param) };
}

/** A labelled select; the first option, "Any" (value ''), means no filter. */
export function SelectField({
  id,
  label,
  value,
  options,
  onChange,
  param = id,
  error,
}: {
  id: string;
  label: string;
  value: string;
  options: Options;
  onChange: (value: string) => void;
  /** The API parameter it sets (its error message's id). */
  param?: string;
  error?: string;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...invalidProps(param, error)}
      >
        <option value="">Any</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      <FieldMessage param={param} message={error} />
    </div>
  );
}

export type Order = 'asc' | 'desc';

/**
 * A column header that sorts: a button inside `<th>`, `aria-sort` only on the sorted column, and
 * an icon that differs in shape (▲ ▼ ◇), not only in colour.
 */
export function SortHeader({
  label,
  sorted,
  order,
  onSort,
  numeric = false,
  class: className,
}: {
  label: ComponentChildren;
  sorted: boolean;
  order: Order;
  onSort: () => void;
  numeric?: boolean;
  class?: string;
}) {
  const classes = [numeric ? 'num' : '', className ?? ''].join(' ').trim();
  return (
    <th
      scope="col"
      class={classes === '' ? undefined : classes}
      aria-sort={sorted ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <button type="button" class="sort" onClick={onSort}>
        {label}
        <span class="sort-icon" aria-hidden="true">
          {sorted ? (order === 'asc' ? '▲' : '▼') : '◇'}
        </span>
      </button>
    </th>
  );
}

/** Previous / "Page n of m" / Next, and whatever the view adds (rows per page). */
export function Pager({
  page,
  pages,
  onPage,
  children,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  children?: ComponentChildren;
}) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {count.format(page)} of {count.format(pages)}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
      {children}
    </nav>
  );
}

/** The URL's `page` (1-based; anything else is page 1). */
export function pageParam(params: URLSearchParams): number {
  const value = Number(params.get('page'));
  return Number.isInteger(value) && value >= 1 ? value : 1;
}

/** The `page` parameter for page n: page 1 is the default and stays out of the URL. */
export function pageValue(page: number): string | undefined {
  return page > 1 ? String(page) : undefined;
}

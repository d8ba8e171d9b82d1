// The instances filters: each control reads its value from the URL and writes it back (D50), typed
// numbers after a 300 ms pause so each keystroke is not a request and a history entry.
import { useEffect, useRef, useState } from 'preact/hooks';
import { FAMILIES } from '../model';
import { cityName, placesAnswer, providerLabel, regionLabel } from '../places';
import { navigate } from '../url-state';
import { errorId, type FieldError } from './field-error';
import {
  FieldMessage,
  FilterForm,
  invalidProps,
  type Options,
  providerOptions,
  SelectField,
} from './table-parts';

export interface FilterDef {
  readonly param: string;
  readonly label: string;
  /** How an active value reads on its chip. */
  readonly chip: (value: string) => string;
}

export const FILTERS: readonly FilterDef[] = [
  { param: 'q', label: 'Name contains', chip: (v) => `“${v}”` },
  { param: 'provider', label: 'Provider', chip: providerLabel },
  { param: 'city', label: 'City', chip: (v) => v.split(',').map(cityName).join(', ') },
  {
    param: 'region',
    label: 'Region',
    chip: (v) => v.split(',').map(regionLabel).join(', '),
  },
  { param: 'min_vcpu', label: 'vCPU at least', chip: (v) => v },
  { param: 'max_vcpu', label: 'vCPU at most', chip: (v) => v },
  { param: 'min_memory_gb', label: 'Memory at least', chip: (v) => `${v} GiB` },
  { param: 'max_memory_gb', label: 'Memory at most', chip: (v) => `${v} GiB` },
  { param: 'max_price', label: 'Monthly price at most', chip: (v) => v },
  { param: 'has_gpu', label: 'GPU', chip: (v) => (v === 'true' ? 'with GPU' : 'without GPU') },
  { param: 'instance_family', label: 'Family', chip: (v) => v },
  { param: 'arch', label: 'Architecture', chip: (v) => v.split(',').map(archLabel).join(', ') },
  { param: 'cpu_allocation', label: 'CPU allocation', chip: (v) => v.replace(/,/g, ', ') },
];

/** D62's filter values in the page's words (the API's `arch` and `cpu_allocation`). */
export const ARCH_OPTIONS: Options = [
  ['x86_64', 'x86'],
  ['arm64', 'Arm'],
];
export const ALLOCATION_OPTIONS: Options = [
  ['dedicated', 'dedicated'],
  ['shared', 'shared'],
  ['burstable', 'burstable'],
];
function archLabel(value: string): string {
  return ARCH_OPTIONS.find(([v]) => v === value)?.[1] ?? value;
}

/** How many of these filters the URL sets (the count on the phone's "Filters" button). */
export function activeFilters(params: URLSearchParams, names: readonly string[]): number {
  return names.filter((name) => (params.get(name) ?? '') !== '').length;
}

/** Changing a filter goes back to the first page; the selection is kept (it is its own state). */
function setFilter(param: string, value: string): void {
  navigate({ [param]: value, page: undefined });
}

export function NumberFilter({
  param,
  label,
  value,
  step,
  unit,
  type = 'number',
  onCommit = setFilter,
  error,
}: {
  param: string;
  label: string;
  value: string;
  step?: string;
  unit?: string;
  type?: 'number' | 'search';
  /** Writes the value to the URL (default: the parameter of the same name, back to page 1). */
  onCommit?: (param: string, value: string) => void;
  /** What the API said is wrong with this value, in words (field-error.ts). */
  error?: string;
}) {
  const [text, setText] = useState(value);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => setText(value), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const id = `f-${param}`;
  return (
    <div class="field">
      <label for={id}>
        {label}
        {unit !== undefined && <span class="unit"> ({unit})</span>}
      </label>
      <input
        id={id}
        // One literal type per branch: Preact 11 types <input> as a union keyed by `type`.
        {...(type === 'number'
          ? { type: 'number', inputMode: 'decimal', min: '0' }
          : { type: 'search', maxLength: 64 })}
        step={step}
        value={text}
        {...invalidProps(param, error)}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          clearTimeout(timer.current);
          timer.current = window.setTimeout(() => onCommit(param, next), 300);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            clearTimeout(timer.current);
            onCommit(param, event.currentTarget.value);
          }
        }}
      />
      <FieldMessage param={param} message={error} />
    </div>
  );
}

function Select({
  param,
  label,
  value,
  options,
  error,
}: {
  param: string;
  label: string;
  value: string;
  options: Options;
  error?: FieldError;
}) {
  return (
    <SelectField
      id={`f-${param}`}
      param={param}
      label={label}
      value={value}
      options={options}
      onChange={(v) => setFilter(param, v)}
      error={error?.param === param ? error.message : undefined}
    />
  );
}

export function Filters({
  params,
  currency,
  invalid,
}: {
  params: URLSearchParams;
  currency: string;
  /** The API's complaint about one of these filters, shown next to it. */
  invalid?: FieldError;
}) {
  const get = (name: string) => params.get(name) ?? '';
  const provider = get('provider');
  const number = (param: string, label: string, step: string, unit?: string) => (
    <NumberFilter
      param={param}
      label={label}
      unit={unit}
      value={get(param)}
      step={step}
      error={invalid?.param === param ? invalid.message : undefined}
    />
  );
  return (
    <FilterForm
      id="instance-filters"
      label="Filter instances"
      active={activeFilters(
        params,
        FILTERS.map((f) => f.param),
      )}
      invalid={invalid !== undefined}
    >
      <Select
        param="provider"
        label="Provider"
        value={provider}
        options={providerOptions()}
        error={invalid}
      />
      <NumberFilter
        param="q"
        label="Name contains"
        value={get('q')}
        type="search"
        error={invalid?.param === 'q' ? invalid.message : undefined}
      />
      <CityPicker
        value={get('city')}
        provider={provider}
        error={invalid?.param === 'city' ? invalid.message : undefined}
      />
      {number('min_vcpu', 'Min vCPU', '1')}
      {number('max_vcpu', 'Max vCPU', '1')}
      {number('min_memory_gb', 'Min memory', '0.5', 'GiB')}
      {number('max_memory_gb', 'Max memory', '0.5', 'GiB')}
      {number('max_price', 'Max price', 'any', `${currency}/month`)}
      <Select
        param="has_gpu"
        label="GPU"
        value={get('has_gpu')}
        options={[
          ['true', 'With GPU'],
          ['false', 'Without GPU'],
        ]}
        error={invalid}
      />
      <Select
        param="instance_family"
        label="Family"
        value={get('instance_family')}
        options={FAMILIES.map((f) => [f, f] as const)}
        error={invalid}
      />
      <Select
        param="arch"
        label="Architecture"
        value={get('arch')}
        options={ARCH_OPTIONS}
        error={invalid}
      />
      <Select
        param="cpu_allocation"
        label="CPU allocation"
        value={get('cpu_allocation')}
        options={ALLOCATION_OPTIONS}
        error={invalid}
      />
    </FilterForm>
  );
}

/** Escape closes a disclosure menu (regions, columns) and returns focus to its summary. */
export function closeOnEscape(event: KeyboardEvent): void {
  const details = event.currentTarget as HTMLDetailsElement;
  if (event.key !== 'Escape' || !details.open) return;
  details.open = false;
  details.querySelector('summary')?.focus();
}

/** Tabbing out of an open disclosure menu closes it, so it never covers the next field. */
export function closeOnFocusOut(event: FocusEvent): void {
  const details = event.currentTarget as HTMLDetailsElement;
  const next = event.relatedTarget as Node | null;
  if (details.open && next !== null && !details.contains(next)) details.open = false;
}

// A click outside an open disclosure menu closes it, as with any menu.
document.addEventListener('click', (event) => {
  for (const menu of document.querySelectorAll<HTMLDetailsElement>('details.columns[open]')) {
    if (!menu.contains(event.target as Node)) menu.open = false;
  }
});

/**
 * Places by city (D56: `city=tokyo,seoul`): one "Tokyo" whatever the providers call their
 * regions there. The cities and their providers come from GET /regions (places.ts); with a provider chosen, only its cities are offered.
 */
function CityPicker({
  value,
  provider,
  error,
}: {
  value: string;
  provider: string;
  error?: string;
}) {
  const chosen = value === '' ? [] : value.split(',');
  const [open, setOpen] = useState(false);
  const places = placesAnswer();
  const cities = (places.data?.cities ?? []).filter(
    (c) => provider === '' || c.regions.some((r) => r.provider === provider),
  );
  const toggle = (city: string, on: boolean) => {
    const order = places.data?.cities.map((c) => c.city) ?? chosen;
    const next = order.filter((c) => (c === city ? on : chosen.includes(c)));
    setFilter('city', next.join(','));
  };
  const summary =
    chosen.length === 0
      ? 'Any'
      : chosen.length === 1
        ? cityName(chosen[0]!)
        : `${chosen.length} cities`;
  return (
    <div class="field">
      <span class="label" id="f-city-label">
        Cities
      </span>
      <details
        class="columns region-menu"
        open={open}
        onToggle={(e) => {
          setOpen(e.currentTarget.open);
        }}
        onKeyDown={closeOnEscape}
        onFocusOut={closeOnFocusOut}
      >
        <summary
          aria-describedby={
            error === undefined ? 'f-city-label' : `f-city-label ${errorId('city')}`
          }
        >
          {summary}
        </summary>
        {open && (
          <fieldset aria-busy={places.loading}>
            <legend>Cities (any of them)</legend>
            {places.error !== undefined && <p class="small">The cities could not be loaded.</p>}
            {cities.map((c) => (
              <label key={c.city} class="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(c.city)}
                  onChange={(e) => toggle(c.city, e.currentTarget.checked)}
                />
                <span>
                  {c.name}, {c.country_code}{' '}
                  <span class="small">
                    {c.regions.map((r) => providerLabel(r.provider)).join(', ')}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
      </details>
      <FieldMessage param="city" message={error} />
    </div>
  );
}

export function Chips({ params }: { params: URLSearchParams }) {
  const active = FILTERS.filter((f) => (params.get(f.param) ?? '') !== '');
  if (active.length === 0) return null;
  return (
    <div class="chips" role="group" aria-label="Active filters">
      {active.map((f) => {
        const text = `${f.label}: ${f.chip(params.get(f.param)!)}`;
        return (
          <button
            key={f.param}
            type="button"
            class="chip"
            aria-label={`Remove filter ${text}`}
            onClick={() => setFilter(f.param, '')}
          >
            {text} <span aria-hidden="true">×</span>
          </button>
        );
      })}
      <button
        type="button"
        class="link-button"
        onClick={() =>
          navigate(
            Object.fromEntries<string | undefined>([
              ...FILTERS.map((f): [string, undefined] => [f.param, undefined]),
              ['page', undefined],
            ]),
          )
        }
      >
        Clear all filters
      </button>
    </div>
  );
}

// Compare: the selected records side by side (D50: `ids`, `base` and `diff` in the URL). Rows
// whose values differ are marked; with a baseline, every other record's numbers read as percent
// up or down against it. Records come from /instances/{id}/history, one request each, and with a
// purchase option other than on-demand one more each, the record priced by the option (D61).
import type { JSX } from 'preact';
import { ErrorMessage, Link, Status } from '../components';
import { NotedCell, notedValue, type NotedField } from '../field-notes';
import { gib, money, percent } from '../format';
import {
  coremarkPerPriceText,
  coremarkText,
  CpuFacts,
  cpuModelText,
  cpuText,
  gpuText,
  groupedText,
  IncludedFacts,
  includedText,
} from '../machine-facts';
import type { HistoryData, InstanceRecord } from '../model';
import {
  OPTION_LABEL,
  optionParam,
  optionPrice,
  purchaseOptionOf,
  type PurchaseOption,
} from '../purchase-options';
import { keptState, navigate } from '../url-state';
import { historyPath } from './option-histories';
import { PurchaseOptionField, PurchaseOptionNote } from './purchase-option-field';
import { useApiEach } from '../use-api';
import { RateNote } from '../rate-note';
import { regionText, nameText } from './instance-columns';
import { displayOf } from './instances';
import { day, daysBetween, ObservedText, useSources, type Sources } from '../provenance';

/** A comparison is read across; past this many records it stops being readable (and cheap). */
export const MAX_COMPARED = 8;

interface Attribute {
  readonly label: string;
  /** A number compares in percent against the baseline; text only as same or different. */
  readonly value: (r: InstanceRecord) => number | string | undefined;
  readonly text: (r: InstanceRecord, currency: string) => string | JSX.Element;
  /** Lower is better: up is marked as worse. */
  readonly price?: boolean;
  /** A figure, aligned as one even where a cell holds a note instead. */
  readonly numeric?: boolean;
}

/**
 * A figure that may be "not included" or "not published" (field_notes): then it is no number,
 * so it differs from any number and no percentage is computed against it or from it.
 */
function noted(label: string, field: NotedField): Attribute {
  return {
    label,
    value: (r) => notedValue(r, field) ?? `${r.field_notes[field] ?? ''}`,
    text: (r) => <NotedCell record={r} field={field} />,
    numeric: true,
  };
}

const ATTRIBUTES: readonly Attribute[] = [
  { label: 'Provider', value: (r) => r.provider.name, text: (r) => r.provider.display_name },
  {
    label: 'Region',
    value: (r) => r.region.region_code,
    text: regionText,
  },
  { label: 'Family', value: (r) => r.instance_family, text: (r) => r.instance_family },
  { label: 'vCPU', value: (r) => r.vcpu, text: (r) => String(r.vcpu) },
  { label: 'Memory (GiB)', value: (r) => r.memory_mb, text: (r) => gib(r.memory_mb) },
  { label: 'CPU', value: cpuText, text: (r) => <CpuFacts record={r} /> },
  {
    label: 'CPU model',
    value: cpuModelText,
    text: (r) => cpuModelText(r) || 'not recorded',
  },
  { label: 'Included', value: includedText, text: (r) => <IncludedFacts record={r} /> },
  noted('Storage (GB)', 'storage_gb'),
  noted('Transfer (TB)', 'transfer_tb'),
  noted('Network (Gbps)', 'network_speed_gbps'),
  { label: 'GPU', value: gpuText, text: (r) => gpuText(r) || 'none' },
  {
    // Higher is better; no score is no number, so no percentage against it.
    label: 'CoreMark',
    value: (r) => r.benchmark?.coremark ?? 'none',
    text: (r) => groupedText(coremarkText(r)) || 'not recorded',
    numeric: true,
  },
  {
    label: 'CoreMark per USD/month',
    value: (r) => r.benchmark?.coremark_per_usd_month ?? 'none',
    text: (r) => groupedText(coremarkPerPriceText(r)) || 'no score',
    numeric: true,
  },
  {
    label: 'CoreMark ran',
    value: (r) => (r.benchmark === null ? '' : day(r.benchmark.ran_at)),
    text: (r) => (r.benchmark === null ? '—' : day(r.benchmark.ran_at)),
  },
  {
    label: 'Hourly price, on-demand',
    value: (r) => r.pricing.hourly_price,
    text: (r, c) => money(r.pricing.hourly_price, c, true),
    price: true,
  },
  {
    label: 'Monthly price, on-demand',
    value: (r) => r.pricing.monthly_price,
    text: (r, c) => money(r.pricing.monthly_price, c),
    price: true,
  },
  {
    label: 'Available',
    value: (r) => (r.pricing.available === 1 ? 'yes' : 'no'),
    text: (r) => (r.pricing.available === 1 ? 'yes' : 'no'),
  },
];

/**
 * The chosen purchase option's prices (D61), read from each record's `pricing.options`: the
 * records come from /history, priced on-demand. A record not sold under the option says so and
 * is no number, so no percentage is computed against it or from it.
 */
function optionAttributes(option: PurchaseOption): Attribute[] {
  if (option === 'on_demand') return [];
  const label = OPTION_LABEL[option];
  const missing = `not sold as ${label}`;
  return [
    {
      label: `${label} hourly`,
      value: (r) => optionPrice(r, option)?.hourly_price ?? missing,
      text: (r, c) => {
        const price = optionPrice(r, option);
        return price === undefined ? missing : money(price.hourly_price, c, true);
      },
      price: true,
      numeric: true,
    },
    {
      label: `${label} monthly`,
      value: (r) => optionPrice(r, option)?.monthly_price ?? missing,
      text: (r, c) => {
        const price = optionPrice(r, option);
        return price === undefined ? missing : money(price.monthly_price, c);
      },
      price: true,
      numeric: true,
    },
  ];
}

/** A record's prices per unit as /history gives them: priced by the option, or not sold under it. */
type UnitPrices = Pick<
  InstanceRecord['pricing'],
  'monthly_price_per_vcpu' | 'monthly_price_per_gb'
>;

/**
 * The monthly price per vCPU and per memory GiB (D45) under the chosen option: on-demand, the
 * record's own; any other, the API's figures for the record priced by the option (`priced`, from
 * /history?purchase_option=…: null where it is not sold under it, absent while loading). They are
 * not divided here: the API divides the exact micro-dollar price and rounds once (converted
 * first, D43), which the already rounded monthly price divided again would not always match.
 */
function unitAttributes(
  option: PurchaseOption,
  priced: ReadonlyMap<number, UnitPrices | null>,
): Attribute[] {
  const label = OPTION_LABEL[option];
  const missing = `not sold as ${label}`;
  const row = (unit: string, field: keyof UnitPrices): Attribute => {
    if (option === 'on_demand') {
      return {
        label: `Monthly per ${unit}, on-demand`,
        value: (r) => r.pricing[field] ?? undefined,
        text: (r, c) => money(r.pricing[field] ?? undefined, c),
        price: true,
      };
    }
    return {
      label: `${label} monthly per ${unit}`,
      value: (r) => {
        const p = priced.get(r.id);
        return p === null ? missing : (p?.[field] ?? undefined);
      },
      text: (r, c) => {
        const p = priced.get(r.id);
        return p === null ? missing : p === undefined ? '…' : money(p[field] ?? undefined, c);
      },
      price: true,
      numeric: true,
    };
  };
  return [row('vCPU', 'monthly_price_per_vcpu'), row('GiB', 'monthly_price_per_gb')];
}

/** AWS's Spot Instance Advisor figure (D61), where any record has one: AWS's words, no price. */
function spotAdviceAttributes(records: readonly InstanceRecord[]): Attribute[] {
  if (records.every((r) => r.pricing.spot_advice === null)) return [];
  const text = (r: InstanceRecord) => {
    const a = r.pricing.spot_advice;
    return a === null
      ? 'none recorded'
      : `interruptions ${a.interruption_band}, savings ${a.savings_pct}% (observed ${day(a.observed_at)})`;
  };
  // A sentence: it wraps in its cell instead of widening the record's column.
  return [
    {
      label: 'AWS Spot Instance Advisor',
      value: text,
      text: (r) => <span class="advice-text">{text(r)}</span>,
    },
  ];
}

/** When and where each price was observed (D57): read across, like any other attribute. */
function provenanceAttributes(sources: Sources): Attribute[] {
  return [
    {
      label: 'Price observed',
      value: (r) => day(r.pricing.observed_at),
      text: (r) => (
        <ObservedText observedAt={r.pricing.observed_at} source={sources[r.provider.name]} />
      ),
    },
    {
      label: 'Price source',
      value: (r) => sources[r.provider.name]?.source ?? '',
      text: (r) => <span class="source-text small">{sources[r.provider.name]?.source ?? '—'}</span>,
    },
  ];
}

/** Observation dates further apart than this are called out above the comparison. */
export const FAR_APART_DAYS = 30;

/** The records oldest observation first, and the days between the oldest and the newest. */
function observedSpan(records: readonly InstanceRecord[]): {
  dated: InstanceRecord[];
  gap: number;
} {
  const dated = [...records].sort(
    (a, b) => Date.parse(a.pricing.observed_at) - Date.parse(b.pricing.observed_at),
  );
  const gap =
    dated.length < 2
      ? 0
      : daysBetween(dated[0]!.pricing.observed_at, dated.at(-1)!.pricing.observed_at);
  return { dated, gap };
}

function ObservedApart({ records }: { records: readonly InstanceRecord[] }) {
  const { dated, gap } = observedSpan(records);
  if (gap <= FAR_APART_DAYS) return null;
  // One entry per provider and day: three AWS records observed together are named once.
  const seen = new Map<string, InstanceRecord>();
  for (const r of dated) seen.set(`${r.provider.display_name} ${day(r.pricing.observed_at)}`, r);
  const entries = [...seen.values()];
  return (
    <p class="note observed-apart" role="note">
      <strong>Prices observed far apart.</strong>{' '}
      {entries.map((r, i) => (
        <span key={r.id}>
          {i > 0 && (i === entries.length - 1 ? ' and ' : ', ')}
          {r.provider.display_name} on{' '}
          <time dateTime={r.pricing.observed_at}>{day(r.pricing.observed_at)}</time>
        </span>
      ))}{' '}
      ({gap} days apart). A price may have changed since it was observed: compare with care.
    </p>
  );
}

export function comparedIds(params: URLSearchParams): number[] {
  const ids = (params.get('ids') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set(ids)].slice(0, MAX_COMPARED);
}

export function CompareView({ params }: { params: URLSearchParams }) {
  const ids = comparedIds(params);
  const currency = displayOf(params).currency;
  const option = purchaseOptionOf(params);
  const loaded = useApiEach<HistoryData>(ids.map((id) => historyPath(id, currency, 'on_demand')));
  // The records priced by the option as well (none for on-demand): its per-unit prices are the
  // API's (unitAttributes); every other row reads the on-demand records.
  const optionLoaded = useApiEach<HistoryData>(
    option === 'on_demand' ? [] : ids.map((id) => historyPath(id, currency, option)),
  );
  const results = loaded.results ?? [];
  const records: InstanceRecord[] = [];
  const failures: { id: number; error: unknown; what?: string }[] = [];
  results.forEach((result, i) => {
    if ('data' in result) records.push(result.data.instance);
    else failures.push({ id: ids[i]!, error: result.error });
  });
  // While loading, the answers kept on screen may be another option's: none is read then.
  const priced = new Map<number, UnitPrices | null>();
  if (!optionLoaded.loading) {
    (optionLoaded.results ?? []).forEach((result, i) => {
      if ('error' in result) {
        failures.push({ id: ids[i]!, error: result.error, what: OPTION_LABEL[option] });
        return;
      }
      // /history prices the record on-demand when it is not sold under the option.
      const p = result.data.instance.pricing;
      priced.set(ids[i]!, p.purchase_option === option ? p : null);
    });
  }
  const baseId = Number(params.get('base'));
  const base = records.find((r) => r.id === baseId);
  const onlyDiff = params.get('diff') === 'only';
  // The chosen option's prices, per unit too, and the spot advice after the on-demand prices.
  const available = ATTRIBUTES.findIndex((a) => a.label === 'Available');
  const attributes = [
    ...ATTRIBUTES.slice(0, available),
    ...optionAttributes(option),
    ...unitAttributes(option, priced),
    ...spotAdviceAttributes(records),
    ...ATTRIBUTES.slice(available),
    ...provenanceAttributes(useSources()),
  ];
  const setIds = (next: number[]) =>
    navigate({
      ids: next.join(','),
      base: next.includes(baseId) ? (params.get('base') ?? undefined) : undefined,
    });

  const rows = attributes
    .map((a) => {
      const values = records.map((r) => a.value(r));
      const differs = new Set(values.map((v) => String(v))).size > 1;
      return { a, differs };
    })
    .filter((row) => !onlyDiff || row.differs);

  return (
    <section aria-labelledby="compare-title">
      <h1 id="compare-title">Compare</h1>
      <p>
        <Link to={{ sel: ids.join(','), ...keptState(params) }}>
          ← Back to instances (keeps this selection)
        </Link>
      </p>
      {failures.map((f) => (
        <div key={`${f.id} ${f.what ?? ''}`}>
          <p class="small">
            Record {f.id}
            {f.what === undefined ? '' : `, ${f.what} prices`}:
          </p>
          <ErrorMessage
            error={f.error}
            onRetry={f.what === undefined ? loaded.reload : optionLoaded.reload}
          />
        </div>
      ))}
      <Status loading={loaded.loading || optionLoaded.loading}>
        {ids.length === 0
          ? 'Nothing to compare yet: select rows in Instances, then press "Compare selected".'
          : loaded.loading && loaded.results === undefined
            ? 'Loading…'
            : `Comparing ${records.length} instance${records.length === 1 ? '' : 's'}${
                base !== undefined
                  ? `, against ${nameText(base)} in ${base.region.region_name}`
                  : ''
              }. ${rows.filter((r) => r.differs).length} of ${attributes.length} attributes differ.`}
      </Status>
      {records.length > 0 && (
        <>
          <ObservedApart records={records} />
          <div class="display-controls">
            <PurchaseOptionField
              id="c-purchase-option"
              value={option}
              onChange={(o) => navigate({ purchase_option: optionParam(o) })}
            />
          </div>
          <PurchaseOptionNote id="c-purchase-option" option={option} scope="compare" />
          <label class="check">
            <input
              type="checkbox"
              checked={onlyDiff}
              onChange={(e) => navigate({ diff: e.currentTarget.checked ? 'only' : undefined })}
            />
            Show only the rows that differ
          </label>
          <div
            class="table-wrap"
            tabIndex={0}
            role="region"
            aria-label="Comparison, scrolls sideways"
          >
            <table class="data compare">
              <caption class="visually-hidden">
                {records.length} instances side by side; rows that differ are marked “differs”
              </caption>
              <thead>
                <tr>
                  <th scope="col" class="name-col">
                    Attribute
                  </th>
                  {records.map((r) => (
                    <th key={r.id} scope="col" class={r.id === base?.id ? 'is-base' : undefined}>
                      <Link
                        to={{
                          view: 'instance',
                          id: String(r.id),
                          ...keptState(params),
                        }}
                      >
                        {nameText(r)}
                      </Link>
                      <div class="small">
                        {r.provider.display_name} · {r.region.region_name} · observed{' '}
                        <time dateTime={r.pricing.observed_at}>{day(r.pricing.observed_at)}</time>
                      </div>
                      <div class="head-actions">
                        <button
                          type="button"
                          class="small-button"
                          aria-pressed={r.id === base?.id}
                          onClick={() =>
                            navigate({ base: r.id === base?.id ? undefined : String(r.id) })
                          }
                        >
                          {r.id === base?.id ? 'Baseline' : 'Set baseline'}
                          <span class="visually-hidden">
                            {' '}
                            for {nameText(r)} in {r.region.region_name}
                          </span>
                        </button>
                        <button
                          type="button"
                          class="small-button secondary"
                          onClick={() => setIds(ids.filter((id) => id !== r.id))}
                        >
                          Remove
                          <span class="visually-hidden">
                            {' '}
                            {nameText(r)} in {r.region.region_name} from the comparison
                          </span>
                        </button>
                      </div>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map(({ a, differs }) => (
                  <tr key={a.label} class={differs ? 'diff' : undefined}>
                    <th scope="row" class="name-col">
                      {a.label}
                      {differs && <span class="differs"> differs</span>}
                    </th>
                    {records.map((r) => (
                      <td
                        key={r.id}
                        // On a phone each attribute is a card and each value names its record.
                        data-label={`${r.instance_id} · ${r.region.region_name}`}
                        class={
                          a.numeric === true || typeof a.value(r) === 'number' ? 'num' : undefined
                        }
                      >
                        {a.text(r, currency)}
                        <Delta attribute={a} record={r} base={base} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {base === undefined && records.length > 1 && (
            <p class="small">Set a baseline to see every other record in percent up or down.</p>
          )}
          <RateNote
            rate={results
              .map((r) => ('data' in r ? r.data.metadata?.exchange_rate : undefined))
              .find(Boolean)}
            observed={records.map((r) => r.pricing.observed_at)}
          />
        </>
      )}
    </section>
  );
}

function Delta({
  attribute,
  record,
  base,
}: {
  attribute: Attribute;
  record: InstanceRecord;
  base: InstanceRecord | undefined;
}) {
  if (base === undefined || base.id === record.id) return null;
  const value = attribute.value(record);
  const against = attribute.value(base);
  if (typeof value !== 'number' || typeof against !== 'number' || against === 0) return null;
  const change = ((value - against) / against) * 100;
  if (change === 0) return null;
  const tone =
    attribute.price !== true || Math.abs(change) < 0.05 ? '' : change > 0 ? 'up' : 'down';
  const words =
    Math.abs(change) < 0.05
      ? 'same as baseline'
      : change > 0
        ? 'more than baseline'
        : 'less than baseline';
  return (
    <span class={`delta ${tone}`}>
      {' '}
      {percent(change)}
      <span class="visually-hidden"> {words}</span>
    </span>
  );
}

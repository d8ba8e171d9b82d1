// The instances table's columns: what each shows, how it sorts on the server, and the plain text
// used for copy as CSV and Markdown (the same figures as on screen, without grouping).
import type { JSX } from 'preact';
import {
  gib,
  fromMonthly,
  money,
  plainMoney,
  priceFor,
  UNIT_LABEL,
  type Period,
  type PriceUnit,
} from '../format';
import type { InstanceRecord } from '../model';
import { OPTION_LABEL, type PurchaseOption } from '../purchase-options';
import { NotedCell, notedText } from '../field-notes';
import {
  day,
  InferredMark,
  isInferred,
  ObservedCell,
  observedText,
  type Sources,
} from '../provenance';
import {
  coremarkPerPriceText,
  coremarkText,
  CpuFacts,
  cpuModelText,
  cpuText,
  groupedText,
  gpuText,
  IncludedFacts,
  includedText,
} from '../machine-facts';

export interface Display {
  readonly unit: PriceUnit;
  readonly period: Period;
  readonly currency: string;
  /** The purchase option every price of the rows is (D61: the API prices the rows by it). */
  readonly option: PurchaseOption;
  /** Each provider's data source (/health), for the Observed column. */
  readonly sources: Sources;
}

export interface Column {
  readonly id: string;
  readonly label: (display: Display) => string;
  /** The API's sort_by for this column; absent: not sortable. */
  readonly sort?: (display: Display) => string | undefined;
  readonly numeric?: boolean;
  readonly text: (record: InstanceRecord, display: Display) => string;
  readonly cell?: (record: InstanceRecord, display: Display) => JSX.Element | string;
}

/** The price as shown; per vCPU and per GiB come from the API's own figures (D45). */
export function shownPrice(r: InstanceRecord, d: Display): number | undefined {
  if (d.unit === 'instance')
    return priceFor(r.pricing.hourly_price, r.pricing.monthly_price, d.period);
  const monthly =
    d.unit === 'vcpu' ? r.pricing.monthly_price_per_vcpu : r.pricing.monthly_price_per_gb;
  return monthly === undefined || monthly === null ? undefined : fromMonthly(monthly, d.period);
}
/** A price column's label names the option unless it is on-demand (the default, as before). */
const optionSuffix = (d: Display) =>
  d.option === 'on_demand' ? '' : `, ${OPTION_LABEL[d.option]}`;
/** Hourly figures are small: 4 decimals; so are daily ones per vCPU or GiB. */
const fine = (d: Display) => d.period === 'hour' || (d.period === 'day' && d.unit !== 'instance');

export const COLUMNS: readonly Column[] = [
  {
    id: 'provider',
    label: () => 'Provider',
    sort: () => 'provider',
    text: (r) => r.provider.display_name,
  },
  {
    id: 'region',
    label: () => 'Region',
    sort: () => 'region',
    text: (r, d) =>
      isInferred(d.sources, r.provider.name, r.region.region_code)
        ? `${regionText(r)}, availability inferred`
        : regionText(r),
    cell: (r, d) => (
      <>
        {r.region.region_name} ({r.region.region_code})
        {r.region.provider_region_id !== r.region.region_code && (
          // Its own line: the vendor's id is what a person checks against the vendor's site.
          <span class="vendor-id">
            <span class="visually-hidden">; </span>
            {r.provider.display_name}: {r.region.provider_region_id}
          </span>
        )}
        {isInferred(d.sources, r.provider.name, r.region.region_code) && (
          <span class="vendor-id">
            <InferredMark />
          </span>
        )}
      </>
    ),
  },
  {
    id: 'vcpu',
    label: () => 'vCPU',
    sort: () => 'vcpu',
    numeric: true,
    text: (r) => String(r.vcpu),
  },
  {
    id: 'memory',
    label: () => 'Memory (GiB)',
    sort: () => 'memory_gb',
    numeric: true,
    text: (r) => gib(r.memory_mb),
  },
  {
    // D62: architecture and allocation in one compact cell, Arm and burstable marked.
    id: 'cpu',
    label: () => 'CPU',
    text: (r) => cpuText(r),
    cell: (r) => <CpuFacts record={r} />,
  },
  {
    // What the price includes and what it does not (field_notes: "EBS only", "transfer billed").
    id: 'included',
    label: () => 'Included',
    text: (r) => includedText(r),
    cell: (r) => <IncludedFacts record={r} />,
  },
  { id: 'cpu_model', label: () => 'CPU model', text: (r) => cpuModelText(r) },
  {
    // D63: records without a score come last in either order (the API's rule).
    id: 'coremark',
    label: () => 'CoreMark',
    sort: () => 'coremark',
    numeric: true,
    text: (r) => coremarkText(r),
    cell: (r) => groupedText(coremarkText(r)),
  },
  {
    id: 'coremark_price',
    label: () => 'CoreMark per USD/month',
    sort: () => 'coremark_per_price',
    numeric: true,
    text: (r) => coremarkPerPriceText(r),
    cell: (r) => groupedText(coremarkPerPriceText(r)),
  },
  {
    id: 'coremark_ran',
    label: () => 'CoreMark ran',
    text: (r) => (r.benchmark === null ? '' : day(r.benchmark.ran_at)),
  },
  {
    id: 'storage',
    label: () => 'Storage (GB)',
    sort: () => 'storage_gb',
    numeric: true,
    text: (r) => notedText(r, 'storage_gb'),
    cell: (r) => <NotedCell record={r} field="storage_gb" />,
  },
  {
    id: 'transfer',
    label: () => 'Transfer (TB)',
    numeric: true,
    text: (r) => notedText(r, 'transfer_tb'),
    cell: (r) => <NotedCell record={r} field="transfer_tb" />,
  },
  {
    id: 'network',
    label: () => 'Network (Gbps)',
    numeric: true,
    text: (r) => notedText(r, 'network_speed_gbps'),
    cell: (r) => <NotedCell record={r} field="network_speed_gbps" />,
  },
  {
    id: 'gpu',
    label: () => 'GPU',
    text: (r) => gpuText(r),
  },
  { id: 'family', label: () => 'Family', text: (r) => r.instance_family },
  {
    id: 'price',
    label: (d) =>
      `Price (${d.currency} / ${d.period}${d.unit === 'instance' ? '' : `, ${UNIT_LABEL[d.unit]}`}${optionSuffix(d)})`,
    // Sorting follows the value shown: per-unit sorts need the API's D45 fields.
    sort: (d) =>
      d.unit === 'instance'
        ? d.period === 'hour'
          ? 'hourly_price'
          : 'price'
        : d.unit === 'vcpu'
          ? 'price_per_vcpu'
          : 'price_per_gb',
    numeric: true,
    text: (r, d) => plainMoney(shownPrice(r, d), d.currency, fine(d)),
    cell: (r, d) => money(shownPrice(r, d), d.currency, fine(d)),
  },
  {
    id: 'hourly',
    label: (d) => `Hourly (${d.currency}${optionSuffix(d)})`,
    sort: () => 'hourly_price',
    numeric: true,
    text: (r, d) => plainMoney(r.pricing.hourly_price, d.currency, true),
    cell: (r, d) => money(r.pricing.hourly_price, d.currency, true),
  },
  {
    id: 'monthly',
    label: (d) => `Monthly (${d.currency}${optionSuffix(d)})`,
    sort: () => 'monthly_price',
    numeric: true,
    text: (r, d) => plainMoney(r.pricing.monthly_price, d.currency),
    cell: (r, d) => money(r.pricing.monthly_price, d.currency),
  },
  {
    // D61: the option each price is (the page's CSV has every column, so it says which).
    id: 'option',
    label: () => 'Purchase option',
    text: (r) => OPTION_LABEL[r.pricing.purchase_option],
  },
  {
    // D37/D57: when and where each price was observed.
    id: 'observed',
    label: () => 'Observed',
    text: (r, d) => observedText(r, d.sources),
    cell: (r, d) => <ObservedCell record={r} sources={d.sources} />,
  },
];

export const DEFAULT_COLUMNS = [
  'provider',
  'region',
  'vcpu',
  'memory',
  'cpu',
  'included',
  // Family is a filter and reads "general" on most rows: in the Columns menu, so the CPU and
  // what the price includes fit 1440 px beside the price.
  'gpu',
  'price',
  'observed',
];

/** The column a card puts beside the name: the price as chosen, else the monthly or hourly one. */
export function headlineColumn(columns: readonly Column[]): string | undefined {
  return ['price', 'monthly', 'hourly'].find((id) => columns.some((c) => c.id === id));
}

/** The visible columns from the URL's `cols` (unknown names ignored; none left: the defaults). */
export function visibleColumns(cols: string | null): Column[] {
  const wanted = cols === null ? DEFAULT_COLUMNS : cols.split(',');
  const shown = COLUMNS.filter((c) => wanted.includes(c.id));
  return shown.length === 0 ? COLUMNS.filter((c) => DEFAULT_COLUMNS.includes(c.id)) : shown;
}

/**
 * `Tokyo (nrt)`; where the vendor's own id differs from our code (section 4.5 fixes ours), both:
 * `Osaka (ap-south; Linode: jp-osa)`, so a code never reads as the vendor's other region.
 */
export function regionText(r: Pick<InstanceRecord, 'region' | 'provider'>): string {
  const { region_name: name, region_code: code, provider_region_id: own } = r.region;
  return own === code
    ? `${name} (${code})`
    : `${name} (${code}; ${r.provider.display_name}: ${own})`;
}

/** `Nanode 1GB (g6-nanode-1)`, or the id alone when the name is the id. */
export function nameText(r: Pick<InstanceRecord, 'instance_name' | 'instance_id'>): string {
  return r.instance_name === r.instance_id
    ? r.instance_id
    : `${r.instance_name} (${r.instance_id})`;
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function toCsv(
  rows: readonly InstanceRecord[],
  columns: readonly Column[],
  d: Display,
): string {
  const header = ['Instance', ...columns.map((c) => c.label(d))];
  const lines = [header, ...rows.map((r) => [nameText(r), ...columns.map((c) => c.text(r, d))])];
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

function mdCell(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

export function toMarkdown(
  rows: readonly InstanceRecord[],
  columns: readonly Column[],
  d: Display,
): string {
  const header = ['Instance', ...columns.map((c) => c.label(d))];
  const align = ['---', ...columns.map((c) => (c.numeric === true ? '---:' : '---'))];
  const body = rows.map((r) => [nameText(r), ...columns.map((c) => c.text(r, d))]);
  return (
    [header, align, ...body].map((line) => `| ${line.map(mdCell).join(' | ')} |`).join('\n') + '\n'
  );
}

// GET /instances as CSV (D47): RFC 4180 (comma separated, CRLF line ends, a header row, fields
// holding a comma, quote, CR or LF quoted with inner quotes doubled), UTF-8 without a byte-order
// mark, and spreadsheet formula injection defused.
//
// Written here rather than taken from a CSV library (docs/adr/0010): writing RFC 4180 is the
// two rules in csvCell, and the injection rule D47 fixes is ours to pin down either way. The
// route and the CLI (`cloudprice instances --format csv`) both call instancesToCsv.
import type { InstanceRecord } from './instance-json.js';

/** D47's columns, in order; also the header row. */
export const INSTANCE_CSV_COLUMNS = [
  'id',
  'provider',
  'region_code',
  'region_name',
  'instance_id',
  'instance_name',
  'vcpu',
  'memory_mb',
  'storage_gb',
  'transfer_tb',
  'network_speed_gbps',
  'gpu_count',
  'gpu_type',
  'instance_family',
  'hourly_price',
  'monthly_price',
  'currency',
] as const;

/**
 * Characters that make a spreadsheet read a cell as a formula (or hide one): D47's `=`, `+`,
 * `-`, `@`, tab and carriage return, and (our addition) their full-width forms, which
 * spreadsheets in Japanese and Korean locales may take for the ASCII ones.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One field: null as the empty field; a value that begins like a formula gets a leading `'`
 * (so `=HYPERLINK(...)` shows as text); then quoted if it holds a comma, quote, CR or LF.
 * Numbers pass through the same rule (prices are never negative, so it never fires on them).
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record (a line with its CRLF) in INSTANCE_CSV_COLUMNS order. */
export function instanceCsvLine(record: InstanceRecord): string {
  const cells: (string | number | null)[] = [
    record.id,
    record.provider.name,
    record.region.region_code,
    record.region.region_name,
    record.instance_id,
    record.instance_name,
    record.vcpu,
    record.memory_mb,
    record.storage_gb,
    record.transfer_tb,
    record.network_speed_gbps,
    record.gpu_count,
    record.gpu_type,
    record.instance_family,
    record.pricing.hourly_price,
    record.pricing.monthly_price,
    record.pricing.currency,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const INSTANCE_CSV_HEADER = `${INSTANCE_CSV_COLUMNS.join(',')}\r\n`;

/**
 * The CLI's columns after D47's (D62, D63): the API's CSV keeps D47's fixed list, while
 * `cloudprice instances --format csv` appends these, so a script reading D47's columns by
 * position reads the same cells from both. Null is the empty field.
 */
export const MACHINE_FACT_CSV_COLUMNS = ['arch', 'cpu_allocation', 'coremark'] as const;

function machineFactCells(record: InstanceRecord): (string | number | null)[] {
  return [record.cpu.architecture, record.cpu.allocation, record.benchmark?.coremark ?? null];
}

/** D61: with a purchase option given, the option the prices are of, after the other columns. */
export const PURCHASE_OPTION_CSV_COLUMN = 'purchase_option';

/** Columns beyond D47's: the CLI's machine facts, and the option when one was asked for. */
export interface CsvExtraColumns {
  readonly machineFacts?: boolean;
  readonly purchaseOption?: boolean;
}

/**
 * The whole document: the header row, then one line per record, in the order given; with
 * `machineFacts`, MACHINE_FACT_CSV_COLUMNS after D47's; with `purchaseOption`, then
 * PURCHASE_OPTION_CSV_COLUMN.
 */
export function instancesToCsv(
  records: readonly InstanceRecord[],
  extra: CsvExtraColumns = {},
): string {
  if (extra.machineFacts !== true && extra.purchaseOption !== true) {
    let out = INSTANCE_CSV_HEADER;
    for (const record of records) out += instanceCsvLine(record);
    return out;
  }
  const header = [
    ...INSTANCE_CSV_COLUMNS,
    ...(extra.machineFacts === true ? MACHINE_FACT_CSV_COLUMNS : []),
    ...(extra.purchaseOption === true ? [PURCHASE_OPTION_CSV_COLUMN] : []),
  ];
  let out = `${header.join(',')}\r\n`;
  for (const record of records) {
    const cells = [
      ...(extra.machineFacts === true ? machineFactCells(record) : []),
      ...(extra.purchaseOption === true ? [record.pricing.purchase_option] : []),
    ];
    out += `${instanceCsvLine(record).slice(0, -2)},${cells.map(csvCell).join(',')}\r\n`;
  }
  return out;
}

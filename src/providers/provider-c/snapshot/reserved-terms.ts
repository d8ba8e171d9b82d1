// The Reserved terms of a generated provider_c offer file (D61), from recorded prices: the four
// No Upfront terms we read (Standard and Convertible, 1 and 3 years), in the real layout with
// AWS's real term and rate codes (upstream-formats.md, "AWS offer files, Reserved terms"). For
// No Upfront the hourly charge is the effective hourly rate, so the recorded figure is written
// as the "Hrs" dimension, unchanged but for AWS's ten decimals, and no upfront fee is written.
//
// The offer-file generator calls addReservedTerms on each region document it builds, with the
// recorded reserved prices of that region (readRecordedReservedPrices reads them from
// aws-ap-linux-2025-04-04.csv). Deterministic: same input, same output.
import type { CommittedPurchaseOption } from '../../../catalog/purchase-options.js';
import { classifyProduct } from '../offer-records.js';
import {
  RecordedDataError,
  at,
  cell,
  decimalCell,
  readRecordedCsv,
  type CsvRow,
} from '../../snapshot/recorded-csv.js';
import { isJsonObject, type Json } from './aws-offer-json.js';
import { HOURLY_RATE_CODE } from './records.js';

/** The recorded reserved prices of one type in one region: USD per hour, as recorded. */
export type RecordedReservedPrices = Readonly<Partial<Record<CommittedPurchaseOption, string>>>;

/** The four No Upfront terms and their public codes, the same in every offer file. */
export const NO_UPFRONT_TERMS: Readonly<
  Record<
    CommittedPurchaseOption,
    { readonly code: string; readonly lease: '1yr' | '3yr'; readonly offering: string }
  >
> = {
  reserved_1y: { code: '4NA7Y494T4', lease: '1yr', offering: 'standard' },
  reserved_3y: { code: 'BPH4J8HBKS', lease: '3yr', offering: 'standard' },
  convertible_1y: { code: '7NE97W5U4E', lease: '1yr', offering: 'convertible' },
  convertible_3y: { code: 'Z2E3P23VKM', lease: '3yr', offering: 'convertible' },
};

const OPTIONS = Object.keys(NO_UPFRONT_TERMS) as CommittedPurchaseOption[];
const DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,10})?$/;

/** A recorded decimal in AWS's layout, ten decimals ("0.14818" -> "0.1481800000"). */
function tenDecimals(usd: string, what: string): string {
  if (!DECIMAL.test(usd) || /^0(\.0+)?$/.test(usd)) {
    throw new RecordedDataError(`${what}: "${usd}" is not a positive decimal of at most 10 places`);
  }
  const [whole = '0', fraction = ''] = usd.split('.');
  return `${whole}.${fraction.padEnd(10, '0')}`;
}

/**
 * The `terms.Reserved.<sku>` value for `prices`: one term per option recorded, in the order of
 * NO_UPFRONT_TERMS, each with its one "Hrs" dimension. `what` names the row in errors.
 */
export function noUpfrontReservedRecord(
  sku: string,
  instanceType: string,
  prices: RecordedReservedPrices,
  effectiveDate: string,
  what = `${sku} ${instanceType}`,
): Json {
  const terms: Record<string, Json> = {};
  for (const option of OPTIONS) {
    const usd = prices[option];
    if (usd === undefined) continue;
    const { code, lease, offering } = NO_UPFRONT_TERMS[option];
    const term = `${sku}.${code}`;
    const rate = `${term}.${HOURLY_RATE_CODE}`;
    terms[term] = {
      offerTermCode: code,
      sku,
      effectiveDate,
      priceDimensions: {
        [rate]: {
          rateCode: rate,
          description: `Linux/UNIX (Amazon VPC), ${instanceType} reserved instance applied`,
          beginRange: '0',
          endRange: 'Inf',
          unit: 'Hrs',
          pricePerUnit: { USD: tenDecimals(usd, `${what} ${option}`) },
          appliesTo: [],
        },
      },
      termAttributes: {
        LeaseContractLength: lease,
        OfferingClass: offering,
        PurchaseOption: 'No Upfront',
      },
    };
  }
  return terms;
}

/**
 * `doc` (one region's offer file, as the generator builds it) with `terms.Reserved` holding the
 * No Upfront terms of `prices` (instance type -> recorded prices) for the products the adapter
 * lists in `regionCode`. Every type of `prices` must be such a product of the file, once: a
 * recorded price with nowhere to go stops the generator rather than vanish. Types without
 * reserved prices get no Reserved entry. The rest of the document is unchanged; `terms` keeps
 * OnDemand first.
 */
export function addReservedTerms(
  doc: Json,
  regionCode: string,
  prices: ReadonlyMap<string, RecordedReservedPrices>,
  effectiveDate: string,
): Json {
  if (
    !isJsonObject(doc) ||
    !isJsonObject(doc.products ?? null) ||
    !isJsonObject(doc.terms ?? null)
  ) {
    throw new RecordedDataError(`${regionCode}: not an offer file (no products or terms object)`);
  }
  const products = doc.products as { readonly [sku: string]: Json };
  const terms = doc.terms as { readonly [key: string]: Json };
  const skuOf = new Map<string, string>();
  for (const [sku, product] of Object.entries(products)) {
    const verdict = classifyProduct(sku, product, regionCode);
    if (verdict.kind !== 'kept') continue;
    const type = verdict.attributes.instanceType ?? '';
    if (skuOf.has(type)) {
      throw new RecordedDataError(`${regionCode} ${type}: two listed products in the file`);
    }
    skuOf.set(type, sku);
  }
  const reserved: Record<string, Json> = {};
  for (const [type, recorded] of [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sku = skuOf.get(type);
    if (sku === undefined) {
      throw new RecordedDataError(`${regionCode} ${type}: reserved prices but no listed product`);
    }
    if (Object.keys(recorded).length === 0) continue;
    reserved[sku] = noUpfrontReservedRecord(
      sku,
      type,
      recorded,
      effectiveDate,
      `${regionCode} ${type}`,
    );
  }
  const { Reserved: _previous, ...otherTerms } = terms;
  return { ...doc, terms: { ...otherTerms, Reserved: reserved } };
}

/** The recording's reserved columns, by D61 option (empty cell = not offered in the source). */
export const RESERVED_COLUMNS: Readonly<Record<CommittedPurchaseOption, string>> = {
  reserved_1y: 'ri_std_1y_no_upfront_usd_hour',
  reserved_3y: 'ri_std_3y_no_upfront_usd_hour',
  convertible_1y: 'ri_conv_1y_no_upfront_usd_hour',
  convertible_3y: 'ri_conv_3y_no_upfront_usd_hour',
};

export const RESERVED_RECORDING_FILE = 'aws-ap-linux-2025-04-04.csv';

function reservedOfRow(row: CsvRow): RecordedReservedPrices {
  const prices: Partial<Record<CommittedPurchaseOption, string>> = {};
  for (const option of OPTIONS) {
    const column = RESERVED_COLUMNS[option];
    if (cell(row, column, false) === '') continue;
    prices[option] = decimalCell(row, column, true);
  }
  return prices;
}

/**
 * The recorded reserved prices, region -> instance type -> prices; rows without any are left
 * out. A second row for a region and type stops it, naming both lines.
 */
export function reservedPricesOfRows(
  rows: readonly CsvRow[],
): Map<string, Map<string, RecordedReservedPrices>> {
  const out = new Map<string, Map<string, RecordedReservedPrices>>();
  const lines = new Map<string, number>();
  for (const row of rows) {
    const region = cell(row, 'region');
    const type = cell(row, 'instance_type');
    const key = `${region} ${type}`;
    const first = lines.get(key);
    if (first !== undefined) {
      throw new RecordedDataError(`${at(row, 'instance_type')}: ${key} again (line ${first})`);
    }
    lines.set(key, row.line);
    const prices = reservedOfRow(row);
    if (Object.keys(prices).length === 0) continue;
    const perRegion = out.get(region) ?? new Map<string, RecordedReservedPrices>();
    perRegion.set(type, prices);
    out.set(region, perRegion);
  }
  return out;
}

/** reservedPricesOfRows of data/sources/<file>. */
export async function readRecordedReservedPrices(
  file = RESERVED_RECORDING_FILE,
): Promise<Map<string, Map<string, RecordedReservedPrices>>> {
  const columns = ['region', 'instance_type', ...Object.values(RESERVED_COLUMNS)];
  return reservedPricesOfRows(await readRecordedCsv(file, columns));
}

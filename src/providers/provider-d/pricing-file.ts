// provider_d's live upstream when PROVIDER_D_URL names a `.yml`/`.yaml` file: Cyclenerd's weekly
// pricing.yml (github.com/Cyclenerd/google-cloud-pricing-cost-calculator, Apache-2.0; layout in
// docs/api.md "Google Cloud"), turned into the snapshot layout's documents (pure: no I/O).
//
// Columns: on-demand = `hour`; spot = `hour_spot`; committed use 1y/3y = `month_1y`/`month_3y` /
// 730 (pricing.pl writes hourly x 730), as the snapshot generator derives them. `month` is the
// sustained-use monthly figure and is never read. Where pricing.pl found no commitment price it
// copies `month` into `month_1y` and `month_1y` into `month_3y` (f1-micro, g1-small): those are
// not committed-use prices and are dropped.
//
// Priced is not offered: the file prices a type wherever its SKUs exist. It has no availability,
// so a (region, type) is listed only where the reference (the bundled snapshot's prices.json,
// from Google's machine-type API export) says Google offers it; machine facts come from the
// reference's machine-types.json. A type the reference does not know is skipped and counted.
import { parse } from 'yaml';
import { Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { HOURS_PER_MONTH } from '../../catalog/money.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import type { ProviderDDocuments } from './parse.js';
import { checkPricesDocument } from './schema.js';

/** Aliases allowed in the file (it uses none): an alias bomb fails instead of expanding. */
export const PRICING_FILE_MAX_ALIASES = 16;

const checkPricingFile = Compile(
  Type.Object({
    compute: Type.Object({
      instance: Type.Record(Type.String(), Type.Unknown()),
    }),
  }),
);

const Decimal = /^(0|[1-9][0-9]{0,8})(\.[0-9]{1,18})?$/;
const SCALE_DIGITS = 18;

/** A decimal text as an integer of 10^-18 units, or null for anything else. */
function scaled(text: unknown): bigint | null {
  if (typeof text !== 'string' || !Decimal.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(SCALE_DIGITS, '0'));
}

/** `month` / 730 as decimal text, half-even at 12 decimals (the recordings' rule), or null. */
export function hourlyOfMonthlyText(month: unknown): string | null {
  const units = scaled(month);
  if (units === null) return null;
  const step = 10n ** BigInt(SCALE_DIGITS - 12);
  const divisor = BigInt(HOURS_PER_MONTH) * step;
  let quotient = units / divisor;
  const twice = (units % divisor) * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) quotient += 1n;
  const digits = quotient.toString().padStart(13, '0');
  const fraction = digits.slice(-12).replace(/0+$/, '');
  const whole = digits.slice(0, -12);
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

function invalid(message: string, cause?: unknown): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', `provider_d pricing.yml: ${message}`, {
    cause,
  });
}

/** Parses YAML text with the safe options of ADR 0025; throws UPSTREAM_INVALID_DATA. */
export function parsePricingYaml(text: string): unknown {
  try {
    return parse(text, {
      schema: 'failsafe',
      merge: false,
      maxAliasCount: PRICING_FILE_MAX_ALIASES,
      uniqueKeys: true,
      prettyErrors: false,
    }) as unknown;
  } catch (err) {
    throw invalid(`not YAML we can read (${err instanceof Error ? err.message : 'error'})`, err);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `about.generated` as pricing.pl writes it: UTC, no zone. */
const GENERATED = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/;

/**
 * When the file was built, from its `about`: `timestamp` (epoch seconds), else `generated`
 * (`2026-07-30 06:13:17`, UTC); undefined when neither reads as a time. The prices are Google's
 * as of that build, so that is when they were observed (D37), not when we fetched the file.
 */
export function pricingFileGeneratedAt(file: unknown): Date | undefined {
  const about = isRecord(file) ? file['about'] : undefined;
  if (!isRecord(about)) return undefined;
  const timestamp = about['timestamp'];
  if (typeof timestamp === 'string' && /^[1-9][0-9]{8,10}$/.test(timestamp)) {
    return new Date(Number(timestamp) * 1000);
  }
  const generated =
    typeof about['generated'] === 'string' ? GENERATED.exec(about['generated']) : null;
  if (generated === null) return undefined;
  const at = new Date(`${generated[1]}T${generated[2]}Z`);
  return Number.isFinite(at.getTime()) ? at : undefined;
}

/** Per region, the ids the reference's prices.json marks as offered. */
function offeredByRegion(reference: unknown): Map<string, Set<string>> {
  if (!checkPricesDocument.Check(reference)) {
    throw invalid('the reference prices.json has the wrong envelope');
  }
  const offered = new Map<string, Set<string>>();
  for (const region of reference.regions) {
    const ids = new Set<string>();
    for (const row of region.prices) {
      if (isRecord(row) && row['offered'] === true && typeof row['id'] === 'string') {
        ids.add(row['id']);
      }
    }
    offered.set(region.id, ids);
  }
  return offered;
}

/** The ids of the reference's machine types (its envelope is checked by parse.ts). */
function knownTypes(machineTypes: unknown): Set<string> {
  const list = isRecord(machineTypes) ? machineTypes['machine_types'] : undefined;
  const ids = new Set<string>();
  if (!Array.isArray(list)) return ids;
  for (const type of list as unknown[]) {
    if (isRecord(type) && typeof type['id'] === 'string') ids.add(type['id']);
  }
  return ids;
}

/** One cost row in the snapshot layout's shape; its values are checked by parse.ts. */
function priceRow(id: string, cost: Record<string, unknown>, offered: boolean) {
  const month = scaled(cost['month']);
  const month1y = scaled(cost['month_1y']);
  const month3y = scaled(cost['month_3y']);
  // pricing.pl's fallbacks (no commitment price): not committed-use figures.
  const has1y = month1y !== null && month1y !== month;
  const has3y = has1y && month3y !== null && month3y !== month1y;
  return {
    id,
    offered,
    hour: cost['hour'],
    hour_spot: cost['hour_spot'] ?? null,
    cud_1y_hour: has1y ? hourlyOfMonthlyText(cost['month_1y']) : null,
    cud_3y_hour: has3y ? hourlyOfMonthlyText(cost['month_3y']) : null,
  };
}

/**
 * pricing.yml's text -> the snapshot layout's documents: prices from the file, machine types and
 * availability from `reference` (the bundled snapshot). A region absent from the file is absent
 * from the prices document, so parse.ts leaves its records as they were.
 */
export function pricingFileDocuments(
  text: string,
  reference: ProviderDDocuments,
): ProviderDDocuments {
  const file = parsePricingYaml(text);
  if (!checkPricingFile.Check(file)) throw invalid('expected compute.instance.<type>.cost');
  const offered = offeredByRegion(reference.prices);
  const known = knownTypes(reference.machineTypes);
  const regions = new Map<string, unknown[]>();
  for (const [id, type] of Object.entries(file.compute.instance)) {
    if (!isRecord(type) || !isRecord(type['cost'])) continue;
    for (const [region, cost] of Object.entries(type['cost'])) {
      if (!isRecord(cost)) continue;
      const rows = regions.get(region) ?? [];
      // A type the reference does not know goes on to parse.ts, which skips and counts it
      // (invalid_type), rather than vanishing as "not offered".
      const isOffered = !known.has(id) || (offered.get(region)?.has(id) ?? false);
      rows.push(priceRow(id, cost, isOffered));
      regions.set(region, rows);
    }
  }
  const generatedAt = pricingFileGeneratedAt(file);
  return {
    machineTypes: reference.machineTypes,
    prices: { regions: [...regions].map(([id, prices]) => ({ id, prices })) },
    ...(generatedAt && { generatedAt }),
  };
}

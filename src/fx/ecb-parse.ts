// Parse of the ECB's daily reference rates file (eurofxref-daily.xml): pure, no I/O. The file
// is untrusted upstream data: every element we do not understand, a missing USD rate, a
// duplicate currency or a rate that is not a positive plain decimal makes the whole document
// invalid (UPSTREAM_INVALID_DATA), and the last good rates stay in use.
//
// The layout (see data/snapshots/fx/README.md):
//   <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"
//                    xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
//     <gesmes:subject>Reference rates</gesmes:subject> <gesmes:Sender>...</gesmes:Sender>
//     <Cube><Cube time='2026-10-06'><Cube currency='USD' rate='1.1269'/> ... </Cube></Cube>
//   </gesmes:Envelope>
// The format is small and fixed, so it is matched element by element with linear regular
// expressions rather than through a general XML parser (no entities, DTDs or namespaces to
// resolve, hence nothing for a hostile document to expand).
import { UpstreamError } from '../sync/upstream/upstream-error.js';
import { CURRENCY_CODE } from '../catalog/currencies.js';
import { parseExactDecimal, type ExactDecimal } from '../catalog/exact-decimal.js';
import type { RateTable } from '../catalog/rate-table.js';

const EUROFXREF_NAMESPACE = 'http://www.ecb.int/vocabulary/2002-08-01/eurofxref';
/** The ECB publishes about 30 currencies; far more means the document is not the daily file. */
export const MAX_CURRENCIES = 200;

const ENVELOPE = /<gesmes:Envelope\b[^>]*>/;
const ANY_CUBE = /<Cube\b/g;
const TIME_CUBE = /<Cube\s+time\s*=\s*(["'])(\d{4}-\d{2}-\d{2})\1\s*>/g;
const RATE_CUBE =
  /<Cube\s+currency\s*=\s*(["'])([^"'<>]{0,16})\1\s+rate\s*=\s*(["'])([^"'<>]{0,40})\3\s*\/>/g;

function invalid(message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', `ECB reference rates: ${message}`);
}

function isCalendarDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Decodes the body (UTF-8, BOM allowed) and parses it; throws UpstreamError when invalid. */
export function parseEcbRatesDocument(bytes: Uint8Array): RateTable {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new UpstreamError('UPSTREAM_INVALID_DATA', 'ECB reference rates: not valid UTF-8', {
      cause,
    });
  }
  return parseEcbRatesXml(text);
}

export function parseEcbRatesXml(text: string): RateTable {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw invalid('document type declarations are refused');
  const envelope = ENVELOPE.exec(text);
  if (!envelope) throw invalid('no gesmes:Envelope element (not the ECB daily rates file)');
  if (!envelope[0].includes(EUROFXREF_NAMESPACE)) {
    throw invalid('the envelope does not declare the eurofxref vocabulary');
  }

  const times = [...text.matchAll(TIME_CUBE)];
  if (times.length !== 1) {
    throw invalid(`expected exactly one dated Cube element, found ${times.length}`);
  }
  const asOf = times[0]?.[2] ?? '';
  if (!isCalendarDate(asOf)) throw invalid(`"${asOf}" is not a calendar date`);

  const perEur = new Map<string, ExactDecimal>([['EUR', { units: 1n, scale: 0 }]]);
  const rates = [...text.matchAll(RATE_CUBE)];
  if (rates.length > MAX_CURRENCIES) throw invalid(`more than ${MAX_CURRENCIES} currencies`);
  for (const match of rates) {
    const code = match[2] ?? '';
    const rateText = match[4] ?? '';
    if (!CURRENCY_CODE.test(code)) throw invalid(`"${code}" is not a currency code`);
    if (perEur.has(code)) throw invalid(`${code} is listed twice`);
    const rate = parseExactDecimal(rateText);
    if (rate === null || rate.units === 0n) {
      throw invalid(`the rate of ${code} ("${rateText}") is not a positive decimal`);
    }
    perEur.set(code, rate);
  }
  // Every Cube element must be the outer one, the dated one or a rate we read: anything else
  // (another attribute order, a nested surprise) is a layout we do not know.
  const cubes = text.match(ANY_CUBE)?.length ?? 0;
  if (cubes !== 2 + rates.length) {
    throw invalid(`${cubes - 2 - rates.length} Cube element(s) are not in the expected form`);
  }
  if (!perEur.has('USD')) throw invalid('no USD rate (every price is converted from USD)');
  return { asOf, perEur };
}

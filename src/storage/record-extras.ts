import type { Kysely, Transaction } from 'kysely';
import type { CatalogDatabase } from './catalog-schema.js';
import {
  toInstanceRow,
  type InstanceRecordRow,
  type OptionPriceRow,
  type RecordExtras,
  type SpotAdviceRow,
} from './catalog-rows.js';
import type { InstanceRow } from '../catalog/records.js';

// What a record has beside its on-demand price (D61): its other purchase options and AWS's spot
// advice, read for a set of records in two statements (not a join, which would repeat every
// record once per option) and put on the rows as they are made.

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

/** Which records to read the extras of: listed ids, or ids in (after, upTo]. */
type Which =
  { readonly ids: readonly number[] } | { readonly after?: number; readonly upTo: number };

async function readExtras(db: Executor, which: Which): Promise<Map<number, RecordExtras>> {
  const byId = new Map<number, { options: OptionPriceRow[]; advice?: SpotAdviceRow }>();
  const entry = (id: number) => {
    let found = byId.get(id);
    if (found === undefined) byId.set(id, (found = { options: [] }));
    return found;
  };
  let options = db
    .selectFrom('pricing_options')
    .select(['pricing_id', 'purchase_option', 'hourly_micros', 'monthly_micros', 'observed_at']);
  let advice = db
    .selectFrom('spot_advice')
    .select(['pricing_id', 'interruption_band', 'savings_pct', 'observed_at', 'source']);
  if ('ids' in which) {
    options = options.where('pricing_id', 'in', [...which.ids]);
    advice = advice.where('pricing_id', 'in', [...which.ids]);
  } else {
    options = options.where('pricing_id', '<=', which.upTo);
    advice = advice.where('pricing_id', '<=', which.upTo);
    if (which.after !== undefined) {
      options = options.where('pricing_id', '>', which.after);
      advice = advice.where('pricing_id', '>', which.after);
    }
  }
  for (const row of await options.execute()) entry(Number(row.pricing_id)).options.push(row);
  for (const row of await advice.execute()) entry(Number(row.pricing_id)).advice = row;
  return new Map(
    [...byId].map(([id, found]) => [id, { options: found.options, advice: found.advice }]),
  );
}

/** `rows` as records, each with its options and advice. */
export async function withExtras(
  db: Executor,
  rows: readonly InstanceRecordRow[],
  range?: { readonly after?: number },
): Promise<InstanceRow[]> {
  if (rows.length === 0) return [];
  const which: Which =
    range === undefined
      ? { ids: rows.map((row) => row.id) }
      : { ...range, upTo: Math.max(...rows.map((row) => row.id)) };
  const extras = await readExtras(db, which);
  return rows.map((row) => toInstanceRow(row, extras.get(Number(row.id))));
}

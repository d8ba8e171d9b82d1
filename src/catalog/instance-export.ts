// GET /instances as CSV (D47) as a core function: the same query the JSON answer runs, from the
// same source (the catalogue index now, the store's history for `as_of`), written by
// instancesToCsv. Not cached: an export is rare, and a page of 10,000 rows is built in
// milliseconds from the index.
import type { CatalogIndexHolder } from './index/catalog-index-holder.js';
import { instancesToCsv } from './instance-csv.js';
import { toInstanceRecord } from './instance-json.js';
import type { ParsedInstanceQuery } from './instance-query.js';
import type { InstancePage, InstanceQuery } from './record-query.js';
import type { InstanceRow } from './records.js';

export interface InstancesCsv {
  readonly csv: string;
  /** Records matching the query, over all pages (the JSON answer's pagination.total). */
  readonly total: number;
}

/** The catalogue of a past instant (D41): the store's price history satisfies it. */
export interface AsOfReader {
  queryAsOf(query: InstanceQuery, asOf: Date): Promise<InstancePage>;
}

export interface ExportSources {
  readonly catalog: CatalogIndexHolder;
  readonly store: { readonly history: AsOfReader };
}

/**
 * The page `parsed` asks for as CSV; `asOf` reads the catalogue of that instant (D41);
 * `machineFacts` appends the CLI's columns (instancesToCsv).
 */
export async function exportInstancesCsv(
  sources: ExportSources,
  parsed: ParsedInstanceQuery,
  asOf?: Date,
  machineFacts = false,
): Promise<InstancesCsv> {
  let rows: readonly InstanceRow[];
  let total: number;
  if (asOf === undefined) {
    const index = sources.catalog.current ?? (await sources.catalog.ready());
    ({ rows, total } = index.forOption(parsed.purchaseOption).query(parsed.query));
  } else {
    ({ rows, total } = await sources.store.history.queryAsOf(parsed.query, asOf));
  }
  return {
    csv: instancesToCsv(
      rows.map((row) => toInstanceRecord(row, parsed.money)),
      { machineFacts, purchaseOption: parsed.filtersApplied.purchase_option !== undefined },
    ),
    total,
  };
}

// GET /instances as CSV (D47) as a core function: the same query the JSON answer runs, from the
// same source (the catalogue index now, the store's history for `as_of`), written by
// instancesToCsv. Not cached: an export is rare, and a page of 10,000 rows is built in
// milliseconds from the index.
import type { CatalogStore, InstanceRow } from '../storage/catalog-store.js';
import type { CatalogIndexHolder } from './index/catalog-index-holder.js';
import { instancesToCsv } from './instance-csv.js';
import { toInstanceRecord } from './instance-json.js';
import type { ParsedInstanceQuery } from './instance-query.js';

export interface InstancesCsv {
  readonly csv: string;
  /** Records matching the query, over all pages (the JSON answer's pagination.total). */
  readonly total: number;
}

export interface ExportSources {
  readonly catalog: CatalogIndexHolder;
  readonly store: CatalogStore;
}

/** The page `parsed` asks for as CSV; `asOf` reads the catalogue of that instant (D41). */
export async function exportInstancesCsv(
  sources: ExportSources,
  parsed: ParsedInstanceQuery,
  asOf?: Date,
): Promise<InstancesCsv> {
  let rows: readonly InstanceRow[];
  let total: number;
  if (asOf === undefined) {
    const index = sources.catalog.current ?? (await sources.catalog.ready());
    ({ rows, total } = index.query(parsed.query));
  } else {
    ({ rows, total } = await sources.store.history.queryAsOf(parsed.query, asOf));
  }
  return { csv: instancesToCsv(rows.map((row) => toInstanceRecord(row, parsed.money))), total };
}

// The price history's reads (HistoryStore) over Kysely: a record's history and an `as_of` page
// are each read in one snapshot, and so is the change feed's summary.
import type { Kysely } from 'kysely';
import { selectChangeSummary } from './change-summary-query.js';
import type { CatalogDatabase } from './catalog-schema.js';
import type { DialectCapabilities } from './dialect-capabilities.js';
import { selectAsOfPage, selectChanges, selectRecordHistory } from './history-queries.js';
import type { HistoryStore } from './history-store.js';

export function createHistoryStore(
  db: () => Kysely<CatalogDatabase>,
  caps: DialectCapabilities,
): HistoryStore {
  return {
    recordHistory: (recordId, limit, option) =>
      caps
        .snapshotTransaction(db())
        .execute((trx) => selectRecordHistory(trx, recordId, limit, option)),
    changes: (query) => selectChanges(db(), query),
    changeSummary: (filter, groupLimit) =>
      caps.snapshotTransaction(db()).execute((trx) => selectChangeSummary(trx, filter, groupLimit)),
    queryAsOf: (query, at) =>
      caps.snapshotTransaction(db()).execute((trx) => selectAsOfPage(trx, query, at)),
  };
}

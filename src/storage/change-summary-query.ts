import type { Kysely, Transaction } from 'kysely';
import { isProviderName } from '../catalog/model.js';
import { CHANGE_KINDS, isChangeKind, type ChangeKind } from '../catalog/price-change-model.js';
import type { CatalogDatabase } from './catalog-schema.js';
import { filteredChanges } from './history-queries.js';
import type { ChangeFilter, ChangeGroup, ChangeSummary } from './history-store.js';

// The change feed's counts (ADR 0022): aggregates in the database, so the rows never reach the
// application and memory is bounded by the number of groups asked for, whatever the window.

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;

/**
 * Counts per kind over every item matching `filter`, and per (sync, kind, provider) for the
 * newest `groupLimit` groups (by the catalogue version of their sync, i.e. commit order
 * reversed). Both from one snapshot, so the totals and the groups agree.
 */
export async function selectChangeSummary(
  trx: Executor,
  filter: ChangeFilter,
  groupLimit: number,
): Promise<ChangeSummary> {
  if (!Number.isSafeInteger(groupLimit) || groupLimit < 1) {
    throw new RangeError('groupLimit must be a positive integer');
  }
  const perKind = await filteredChanges(trx, filter)
    .select((eb) => ['c.kind as kind', eb.fn.countAll<number | string>().as('count')])
    .groupBy('c.kind')
    .execute();
  const groupRows = await filteredChanges(trx, filter)
    .select((eb) => [
      'c.sync_id as sync_id',
      'c.kind as kind',
      'c.provider as provider',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.max('c.at').as('at'),
      eb.fn.max('s.catalog_version').as('version'),
    ])
    .groupBy(['c.sync_id', 'c.kind', 'c.provider'])
    .orderBy('version', 'desc')
    // Within one commit (a first fill replaying dated recordings, D64), newest recording first.
    .orderBy('at', 'desc')
    .orderBy('sync_id', 'asc')
    .orderBy('kind', 'asc')
    .orderBy('provider', 'asc')
    .limit(groupLimit + 1)
    .execute();
  const kinds = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as Record<
    ChangeKind,
    number
  >;
  for (const row of perKind) {
    if (!isChangeKind(row.kind)) throw new Error(`unknown kind in the change feed: ${row.kind}`);
    kinds[row.kind] = Number(row.count);
  }
  const groups: ChangeGroup[] = groupRows.slice(0, groupLimit).map((row) => {
    if (!isProviderName(row.provider) || !isChangeKind(row.kind)) {
      throw new Error(`unknown provider or kind in the change feed (sync ${row.sync_id})`);
    }
    return {
      syncId: row.sync_id,
      at: new Date(Number(row.at)),
      kind: row.kind,
      provider: row.provider,
      count: Number(row.count),
    };
  });
  return {
    total: CHANGE_KINDS.reduce((sum, kind) => sum + kinds[kind], 0),
    kinds,
    groups,
    groupsComplete: groupRows.length <= groupLimit,
  };
}

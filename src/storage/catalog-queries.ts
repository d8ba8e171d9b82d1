import { sql } from 'kysely';
import type {
  CompiledQuery,
  Expression,
  ExpressionBuilder,
  Kysely,
  OrderByModifiers,
  SqlBool,
  Transaction,
} from 'kysely';
import type {
  CatalogDatabase,
  InstancesTable,
  PricingTable,
  ProvidersTable,
  RegionsTable,
} from './catalog-schema.js';
import { PROVIDER_NAMES } from '../catalog/model.js';
import { containsPattern } from '../catalog/text-search.js';
import { INSTANCE_RECORD_COLUMNS } from './catalog-rows.js';
import { withExtras } from './record-extras.js';
import type {
  InstanceFilter,
  InstancePage,
  InstanceQuery,
  SortColumn,
} from '../catalog/record-query.js';
import type { InstanceRow } from '../catalog/records.js';

// The listing queries, shared by both dialects. Every query reads available records only
// (D15) through the same four-table join, so filters and sorts mean the same everywhere.

type Executor = Kysely<CatalogDatabase> | Transaction<CatalogDatabase>;
type RecordDatabase = CatalogDatabase & {
  p: PricingTable;
  i: InstancesTable;
  r: RegionsTable;
  pv: ProvidersTable;
};
export type RecordExpressions = ExpressionBuilder<RecordDatabase, 'p' | 'i' | 'r' | 'pv'>;

/** Sort field -> column (D16). Text columns are code-point collated by the migrations. */
export const SORT_COLUMNS = {
  monthly_price: 'p.monthly_micros',
  hourly_price: 'p.hourly_micros',
  vcpu: 'i.vcpu',
  memory_mb: 'i.memory_mb',
  storage_gb: 'i.storage_gb',
  instance_name: 'i.instance_name',
  provider: 'pv.name',
  region: 'r.region_code',
  // Exact ratios compare equal as doubles (both sides are the correctly rounded quotient) and
  // distinct ones at catalogue magnitudes stay distinct, so ties still break on id (D16).
  price_per_vcpu: sql<number>`cast(p.monthly_micros as double precision) / nullif(i.vcpu, 0)`,
  price_per_gb: sql<number>`cast(p.monthly_micros as double precision) / nullif(i.memory_mb, 0)`,
  // D63: the score (a double) over the integer price, the index's quotient; NULL without a score.
  coremark: 'i.coremark',
  coremark_per_price: sql<number>`i.coremark / nullif(p.monthly_micros, 0)`,
} as const satisfies Record<SortColumn, unknown>;

/** Sorts whose column can be NULL (no value): last in both directions. */
const NULLS_LAST: ReadonlySet<SortColumn> = new Set([
  'price_per_vcpu',
  'price_per_gb',
  'coremark',
  'coremark_per_price',
]);

/**
 * The direction of the sort column. A per-unit price has no value (NULL) for a divisor of 0,
 * and NULL sorts first on SQLite and last on PostgreSQL by default: it goes last in both
 * directions on every backend (and in the catalogue index).
 */
export function sortModifiers(sort: SortColumn, order: 'asc' | 'desc'): OrderByModifiers {
  if (!NULLS_LAST.has(sort)) return order;
  return (ob) => (order === 'asc' ? ob.asc() : ob.desc()).nullsLast();
}

/**
 * Records of the providers served (D65): a provider PROVIDERS no longer enables keeps its rows,
 * unread and unlisted, until it is enabled again.
 */
function recordJoin(db: Executor) {
  return db
    .selectFrom('pricing as p')
    .innerJoin('instances as i', 'i.id', 'p.instance_ref')
    .innerJoin('regions as r', 'r.id', 'p.region_id')
    .innerJoin('providers as pv', 'pv.id', 'i.provider_id')
    .where('pv.name', 'in', [...PROVIDER_NAMES]);
}

function availableRecords(db: Executor) {
  // A literal, not a parameter: SQLite uses a partial index only when the query's term
  // matches the index's WHERE clause at prepare time.
  return recordJoin(db).where('p.available', '=', sql.lit(1));
}

function finite(value: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number`);
  return value;
}

/**
 * The columns compared here are integers, so a fractional bound is rounded inward (x >= 1.5
 * is x >= 2): the same rows match, and PostgreSQL never sees a fraction for an integer column.
 */
export function filterConditions(
  eb: RecordExpressions,
  filter: InstanceFilter,
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  const atLeast = (value: number | undefined, name: string) =>
    value === undefined ? undefined : Math.ceil(finite(value, name));
  const atMost = (value: number | undefined, name: string) =>
    value === undefined ? undefined : Math.floor(finite(value, name));

  if (filter.provider !== undefined) conditions.push(eb('pv.name', '=', filter.provider));
  if (filter.region !== undefined) conditions.push(eb('r.region_code', '=', filter.region));
  if (filter.regions !== undefined) {
    // An empty list matches nothing (the parser never makes one).
    conditions.push(
      filter.regions.length === 0 ? sql<SqlBool>`1 = 0` : eb('r.region_code', 'in', filter.regions),
    );
  }
  if (filter.text !== undefined) {
    // lower() folds ASCII letters only, on SQLite and on PostgreSQL's "C" collation (which
    // instance_name has; instance_id is ASCII by its upstream schemas): as foldAsciiCase does.
    const pattern = containsPattern(filter.text);
    conditions.push(
      eb.or([
        sql<SqlBool>`lower(${eb.ref('i.instance_id')}) like ${pattern} escape '\\'`,
        sql<SqlBool>`lower(${eb.ref('i.instance_name')}) like ${pattern} escape '\\'`,
      ]),
    );
  }
  const minVcpu = atLeast(filter.minVcpu, 'minVcpu');
  if (minVcpu !== undefined) conditions.push(eb('i.vcpu', '>=', minVcpu));
  const maxVcpu = atMost(filter.maxVcpu, 'maxVcpu');
  if (maxVcpu !== undefined) conditions.push(eb('i.vcpu', '<=', maxVcpu));
  const minMemory = atLeast(filter.minMemoryMb, 'minMemoryMb');
  if (minMemory !== undefined) conditions.push(eb('i.memory_mb', '>=', minMemory));
  const maxMemory = atMost(filter.maxMemoryMb, 'maxMemoryMb');
  if (maxMemory !== undefined) conditions.push(eb('i.memory_mb', '<=', maxMemory));
  const maxMonthly = atMost(filter.maxMonthlyMicros, 'maxMonthlyMicros');
  if (maxMonthly !== undefined) conditions.push(eb('p.monthly_micros', '<=', maxMonthly));
  if (filter.family !== undefined) conditions.push(eb('i.instance_family', '=', filter.family));
  if (filter.hasGpu !== undefined) {
    conditions.push(filter.hasGpu ? eb('i.gpu_count', '>', 0) : eb('i.gpu_count', '=', 0));
  }
  // D62: `in` never holds a null fact, so a record whose fact is unknown never matches.
  const factIn = (column: 'i.cpu_architecture' | 'i.cpu_allocation', values: readonly string[]) =>
    values.length === 0 ? sql<SqlBool>`1 = 0` : eb(column, 'in', values);
  if (filter.architectures !== undefined) {
    conditions.push(factIn('i.cpu_architecture', filter.architectures));
  }
  if (filter.allocations !== undefined) {
    conditions.push(factIn('i.cpu_allocation', filter.allocations));
  }
  return conditions;
}

export function pageBounds(query: InstanceQuery): void {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1) {
    throw new RangeError('limit must be a positive integer');
  }
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) {
    throw new RangeError('offset must be a non-negative integer');
  }
}

/**
 * The committed catalogue version (the catalog_version row): every apply bumps it in its own
 * transaction, after taking its row lock, so it changes exactly when the catalogue does and in
 * commit order (max(sync_runs.id) did not: ids are handed out at INSERT).
 */
export async function selectCatalogVersion(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('catalog_version')
    .where('id', '=', sql.lit(1))
    .select('version')
    .executeTakeFirst();
  return Number(row?.version ?? 0);
}

/**
 * Records per page of a catalogue scan. A page is what exists at once as database rows (about
 * 1 KB each with their strings): small enough to die in V8's young generation, large enough
 * that 50,000 records are 25 statements.
 */
export const SCAN_PAGE_RECORDS = 2_000;

/**
 * Every available record, by id, in pages read by keyset (`p.id > last`): what the in-memory
 * index is built from. Run it inside one snapshot transaction so the pages belong to one
 * version. Paged rather than one result set so the whole catalogue never exists as rows at
 * once (issue 9: ~110 MB of heap for 50,000 records), and paged rather than a cursor so both
 * dialects share the same SQL (better-sqlite3's iterate() has no counterpart in pg without
 * pg-cursor, and holding an iterator open would pin the SQLite connection between pages).
 */
export async function* scanAvailableRecords(
  db: Executor,
  pageRecords: number = SCAN_PAGE_RECORDS,
): AsyncGenerator<readonly InstanceRow[]> {
  let after: number | undefined;
  for (;;) {
    let page = availableRecords(db).select(INSTANCE_RECORD_COLUMNS);
    if (after !== undefined) page = page.where('p.id', '>', after);
    const rows = await page.orderBy('p.id', 'asc').limit(pageRecords).execute();
    const last = rows.at(-1);
    if (last !== undefined) yield await withExtras(db, rows, { after });
    if (last === undefined || rows.length < pageRecords) return;
    after = last.id;
  }
}

/** Totals by catalogue version and filter: a count only changes when the catalogue does. */
export interface TotalsMemo {
  get(key: string): number | undefined;
  set(key: string, total: number): unknown;
}

function filterKey(filter: InstanceFilter): string {
  return JSON.stringify(Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The common case, in ONE statement (a statement reads one snapshot): the page's ids with the
 * catalogue version beside them. When the caller holds every record of the page and the total
 * for that version and filter is memoised, that is the whole answer. Otherwise undefined, and
 * the caller reads the page in a snapshot transaction (selectInstancePage).
 */
export interface CompiledQueryMemo {
  get(key: string): CompiledQuery<KnownPageRow> | undefined;
  set(key: string, query: CompiledQuery<KnownPageRow>): unknown;
}

interface KnownPageRow {
  id: number;
  version: number | null;
}

export async function selectKnownPage(
  db: Kysely<CatalogDatabase>,
  query: InstanceQuery,
  totals: TotalsMemo,
  known: (id: number) => boolean,
  compiled: CompiledQueryMemo,
): Promise<InstancePage | undefined> {
  pageBounds(query);
  // Building and compiling the query costs as much as running it; a query's SQL depends only on
  // the query, so it is compiled once.
  const key = JSON.stringify([query.filter, query.sort, query.order, query.limit, query.offset]);
  let statement = compiled.get(key);
  if (statement === undefined) {
    statement = availableRecords(db)
      .where((eb) => eb.and(filterConditions(eb, query.filter)))
      .select('p.id')
      .select((eb) =>
        eb
          .selectFrom('catalog_version')
          .where('id', '=', sql.lit(1))
          .select('version')
          .as('version'),
      )
      .orderBy(SORT_COLUMNS[query.sort], sortModifiers(query.sort, query.order))
      .orderBy('p.id', 'asc')
      .limit(query.limit)
      .offset(query.offset)
      .compile();
    compiled.set(key, statement);
  }
  const { rows } = await db.executeQuery(statement);
  const first = rows[0];
  if (first === undefined || !rows.every((row) => known(row.id))) return undefined;
  const total = totals.get(`${Number(first.version ?? 0)}|${filterKey(query.filter)}`);
  if (total === undefined) return undefined;
  return { ids: rows.map((row) => row.id), rows: [], total };
}

/**
 * One page and the total, from one snapshot: run it inside a snapshot transaction. Counting the
 * matching records is the expensive part of a page (a join over every match), so totals are
 * memoised by (catalogue version, filter); the version is read in the same snapshot as the page,
 * so a memoised total always belongs to the very catalogue the rows came from.
 */
export async function selectInstancePage(
  trx: Executor,
  query: InstanceQuery,
  totals: TotalsMemo,
  known: (id: number) => boolean = () => false,
): Promise<InstancePage> {
  pageBounds(query);
  const matching = availableRecords(trx).where((eb) => eb.and(filterConditions(eb, query.filter)));
  const version = await selectCatalogVersion(trx);
  // Sort narrow tuples (sort key, id) and only then read the page's full records by primary key
  // (they were available in this same snapshot): sorting every match with all its columns, or
  // letting the planner look the page up through the partial index, made a page expensive.
  const ids = await matching
    .select('p.id')
    .orderBy(SORT_COLUMNS[query.sort], sortModifiers(query.sort, query.order))
    .orderBy('p.id', 'asc')
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  const pageIds = ids.map((row) => row.id);
  // Records change only at a sync: the caller may already hold some of the page.
  const wanted = pageIds.filter((id) => !known(id));
  const records =
    wanted.length === 0
      ? []
      : await recordJoin(trx).where('p.id', 'in', wanted).select(INSTANCE_RECORD_COLUMNS).execute();
  const byId = new Map((await withExtras(trx, records)).map((record) => [record.id, record]));
  const rows = wanted.flatMap((id) => {
    const record = byId.get(id);
    return record === undefined ? [] : [record];
  });
  const key = `${version}|${filterKey(query.filter)}`;
  let total = totals.get(key);
  if (total === undefined) {
    const counted = await matching
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    total = Number(counted.total);
    totals.set(key, total);
  }
  return { ids: pageIds, rows, total };
}

/** Number of available records (0 on a first start, before any sync). */
export async function countAvailableRecords(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('pricing')
    .where('available', '=', sql.lit(1))
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return row.count;
}

/**
 * A PostgreSQL database of its own for the replica suite. A whole database rather than a schema
 * (test/support/backends.ts isolates contract tests by schema): advisory locks are scoped to a
 * database, not a schema, so only a separate database keeps this suite's provider locks from
 * waiting on (or being held by) another suite or engineer syncing at the same time.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { TEST_DATABASE_URL } from '../support/backends.js';

export interface ReplicaDatabase {
  readonly name: string;
  /** A DATABASE_URL for a replica; `applicationName` tells its sessions apart in pg_stat_activity. */
  urlFor(applicationName: string): string;
  /** Runs a query in the replica database on the suite's own connection. */
  query<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row[]>;
  /** The one row a query returns (an aggregate); throws when there is none. */
  queryOne<Row extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<Row>;
  /** A separate connection (to hold locks in a transaction); the caller ends it. */
  connect(): Promise<pg.Client>;
  /** Closes the suite's connection and drops the database, ending any sessions still in it. */
  drop(): Promise<void>;
}

async function adminQuery(text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

export async function createReplicaDatabase(): Promise<ReplicaDatabase> {
  const name = `cloudprice_replicas_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await adminQuery(`create database "${name}"`);
  const urlFor = (applicationName: string) => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    url.searchParams.set('application_name', applicationName);
    return url.toString();
  };
  const connect = async () => {
    const client = new pg.Client({ connectionString: urlFor('cloudprice_replicas_test') });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  const own = await connect();
  return {
    name,
    urlFor,
    async query<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      return (await own.query<Row>(text, values)).rows;
    },
    async queryOne<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      const [row] = (await own.query<Row>(text, values)).rows;
      if (row === undefined) throw new Error(`no row from: ${text}`);
      return row;
    },
    connect,
    async drop() {
      await own.end().catch(() => undefined);
      // WITH (FORCE) (PostgreSQL 13+) ends the sessions of replicas that did not close cleanly.
      await adminQuery(`drop database if exists "${name}" with (force)`);
    },
  };
}

/**
 * Every provider's catalogue as one comparable text: each priced record with its prices and
 * availability, in a fixed order. Two equal fingerprints mean the same catalogue, row for row.
 */
export async function catalogFingerprint(
  db: ReplicaDatabase,
): Promise<Record<string, readonly string[]>> {
  const rows = await db.query<{ provider: string; line: string }>(
    `select pv.name as provider,
            i.instance_id || '@' || r.region_code || ' ' || p.monthly_micros || '/' ||
              p.hourly_micros || ' available=' || p.available as line
       from pricing p
       join instances i on i.id = p.instance_ref
       join regions r on r.id = p.region_id
       join providers pv on pv.id = i.provider_id
      order by pv.name, i.instance_id, r.region_code`,
  );
  const byProvider: Record<string, string[]> = {};
  for (const row of rows) (byProvider[row.provider] ??= []).push(row.line);
  return byProvider;
}

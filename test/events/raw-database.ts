// Reads a test database's tables directly (SQLite file or PostgreSQL schema, by the store URL),
// for tests that pin how something is stored rather than what the store answers.
import Database from 'better-sqlite3';
import pg from 'pg';

export type Row = Record<string, unknown>;

export async function rawQuery(url: string, text: string): Promise<Row[]> {
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length), { readonly: true });
    try {
      return db.prepare(text).all() as Row[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The one number a `select ... as n` query answers. */
export async function rawNumber(url: string, text: string): Promise<number> {
  const [row] = await rawQuery(url, text);
  return Number(row?.['n']);
}

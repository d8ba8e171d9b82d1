// Shared plumbing for refreshing a provider snapshot from its live upstream (JSON APIs):
// the client settings, a loud error for a failed fetch, and atomic writes of documents in the
// snapshot layout (one upstream record per line, so a refresh diffs readably).
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  buildUserAgent,
  createUpstreamClient,
  type ClosableUpstreamClient,
} from '../../sync/upstream/http-upstream-client.js';
import type { ProviderName } from '../../catalog/model.js';
import type { ProviderCatalog } from '../../catalog/offers.js';
import type { UpstreamClient } from '../../sync/upstream/upstream-client.js';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';

/**
 * Metadata written beside a refreshed snapshot (D37). The generated ones carry the same core
 * fields: `data_source` (what /health shows once the snapshot is synced), `upstream`,
 * `recorded_in`, `observed_at`, `licence` and `statement`.
 */
export interface SnapshotMetadata {
  readonly provider: string;
  readonly data_source: { readonly observed_at: string; readonly source: string };
  readonly upstream: string;
  /** Where the figures were recorded: for a refresh, the live API itself. */
  readonly recorded_in: string;
  /** When the documents were read, ISO date-time (UTC). */
  readonly observed_at: string;
  readonly licence: { readonly name: string };
  readonly statement: string;
}

export interface RefreshOptions {
  /** Upstream base URL; defaults to the provider's live API. Tests point it at a local server. */
  readonly baseUrl?: string;
  /** The time written as `observed_at`; defaults to now. */
  readonly now?: Date;
  readonly signal?: AbortSignal;
}

export interface RefreshResult {
  /** Files written, absolute paths. */
  readonly files: readonly string[];
  /** Our offers the new snapshot yields (it was parsed before being written). */
  readonly offers: number;
}

/** A client with patient limits: a refresh is run by hand, not on the request path. */
export function refreshClient(baseUrl: string): ClosableUpstreamClient {
  return createUpstreamClient({
    baseUrl,
    connectTimeoutMs: 10_000,
    firstByteTimeoutMs: 30_000,
    totalTimeoutMs: 180_000,
    maxRetries: 2,
    maxResponseBytes: 50 * 1024 * 1024,
    userAgent: buildUserAgent('snapshot-refresh'),
  });
}

/** Wraps any failure into one Error that names the provider, the URL and the upstream code. */
export function refreshFailure(provider: string, baseUrl: string, error: unknown): Error {
  const detail =
    error instanceof UpstreamError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  const unreachable =
    error instanceof UpstreamError &&
    (error.code === 'UPSTREAM_NETWORK_ERROR' || error.code === 'UPSTREAM_TIMEOUT');
  const hint = unreachable ? ' The refresh needs internet access to the live API.' : '';
  return new Error(
    `${provider} snapshot refresh failed (${baseUrl}): ${detail}. No snapshot file was changed.${hint}`,
    { cause: error },
  );
}

export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * `{"<key>": [records, one per line], <tail fields>}`: the upstream's own envelope, written as a
 * single page.
 */
export function collectionText(
  key: string,
  records: readonly unknown[],
  tail: Readonly<Record<string, unknown>>,
): string {
  const lines = records.map((record) => `    ${JSON.stringify(record)}`);
  const fields = Object.entries(tail).map(
    ([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`,
  );
  const body = records.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n  ]`;
  return `{\n  ${JSON.stringify(key)}: ${body}${fields.length > 0 ? ',\n' : '\n'}${fields.join(',\n')}\n}\n`;
}

/**
 * Writes all files or leaves the old ones: each goes to a temporary name first (removed again if
 * any write fails), and the renames happen only once all of them are on disk.
 */
export async function writeFilesAtomically(files: ReadonlyMap<string, string>): Promise<string[]> {
  const staged: [string, string][] = [];
  try {
    for (const [file, text] of files) {
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.tmp-${process.pid}`;
      staged.push([temporary, file]);
      await writeFile(temporary, text, 'utf8');
    }
  } catch (error) {
    await Promise.all(staged.map(([temporary]) => rm(temporary, { force: true })));
    throw error;
  }
  for (const [temporary, file] of staged) await rename(temporary, file);
  return staged.map(([, file]) => file);
}

/** What differs between providers' refreshes; refreshSnapshot does the rest. */
export interface SnapshotRefresh<Documents> {
  readonly provider: ProviderName;
  readonly liveUrl: string;
  fetch(client: UpstreamClient, signal: AbortSignal): Promise<Documents>;
  parse(documents: Documents): ProviderCatalog;
  /** Where the documents came from, for the metadata; `source` is the short /health text. */
  describe(
    baseUrl: string,
    date: string,
  ): Pick<SnapshotMetadata, 'upstream' | 'recorded_in' | 'statement'> & { source: string };
  /** The snapshot's documents: paths relative to the provider's directory, and their text. */
  documents(documents: Documents): ReadonlyArray<readonly [string, string]>;
}

/**
 * Fetches a provider's live documents, parses them as a sync would (a snapshot the adapter
 * cannot read must never replace a good one), then writes them and their metadata atomically
 * under `<snapshotsDir>/<provider>/`. Any failure rejects with one message naming the provider,
 * the URL and the upstream code; nothing is written then.
 */
export async function refreshSnapshot<Documents>(
  refresh: SnapshotRefresh<Documents>,
  snapshotsDir: string,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const baseUrl = options.baseUrl ?? refresh.liveUrl;
  const observedAt = (options.now ?? new Date()).toISOString();
  const date = isoDate(new Date(observedAt));
  const client = refreshClient(baseUrl);
  try {
    const documents = await refresh.fetch(client, options.signal ?? new AbortController().signal);
    const catalog = refresh.parse(documents);
    if (catalog.offers.length === 0)
      throw new Error('the upstream data yields no offer in our regions');
    const dir = path.join(snapshotsDir, refresh.provider);
    const { source, ...described } = refresh.describe(baseUrl, date);
    const metadata: SnapshotMetadata = {
      provider: refresh.provider,
      data_source: { observed_at: observedAt, source },
      ...described,
      observed_at: observedAt,
      licence: { name: "the provider's public API; its terms of use apply" },
    };
    const files = new Map<string, string>([
      ...refresh.documents(documents).map(([file, text]) => [path.join(dir, file), text] as const),
      [path.join(dir, 'metadata.json'), `${JSON.stringify(metadata, null, 2)}\n`],
    ]);
    return { files: await writeFilesAtomically(files), offers: catalog.offers.length };
  } catch (error) {
    throw refreshFailure(refresh.provider, baseUrl, error);
  } finally {
    await client.close();
  }
}

// Provenance of a sync's figures (D37). A snapshot directory (a file:// base URL) carries
// `metadata.json` with `data_source: { observed_at, source }`, written by the generators and by
// `npm run snapshots:refresh`; a snapshot without it is refused, since its prices would have no
// date. A live upstream's figures are observed when they are fetched, or earlier when the
// upstream itself says so (a price file's build time).
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { DatedRecordingsError, parseDatedRecordings } from '../catalog/dated-recordings.js';
import type { DatedRecording } from '../catalog/dated-recordings.js';
import type { ProviderName } from '../catalog/model.js';
import type { DataSource, ProviderAdapter, ProviderCatalog } from '../catalog/offers.js';
import type { UpstreamClient } from './upstream/upstream-client.js';
import { UpstreamError } from './upstream/upstream-error.js';

export const SNAPSHOT_METADATA_PATH = '/metadata.json';

const SnapshotMetadata = Compile(
  Type.Object({
    data_source: Type.Object({
      observed_at: Type.String({ maxLength: 40 }),
      source: Type.String({ minLength: 1, maxLength: 400 }),
    }),
    /** D64: the file of earlier dated recordings, beside metadata.json. */
    dated_recordings: Type.Optional(Type.String({ pattern: '^[a-z0-9][a-z0-9_.-]{0,80}\\.json$' })),
  }),
);

/** What a snapshot's metadata.json says: its provenance and where its dated recordings are. */
export interface SnapshotSource {
  readonly dataSource: DataSource;
  /** The dated-recordings file (a plain file name beside metadata.json), when it has one. */
  readonly recordingsFile?: string;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;

/** `data_source` of a snapshot's metadata.json; UPSTREAM_INVALID_DATA when absent or malformed. */
export async function readSnapshotSource(
  provider: ProviderName,
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<DataSource> {
  return (await readSnapshotMetadata(provider, client, signal)).dataSource;
}

/** readSnapshotSource, with the name of the snapshot's dated-recordings file (D64) if any. */
export async function readSnapshotMetadata(
  provider: ProviderName,
  client: UpstreamClient,
  signal: AbortSignal,
): Promise<SnapshotSource> {
  // Without provenance its prices would have no date (D37). The client is told which file is
  // wanted (never the server's path); the log keeps the detail.
  const publicMessage = `The ${provider} snapshot has no usable metadata.json naming where and when its prices were observed (D37); the previous catalogue is unchanged`;
  let metadata: unknown;
  try {
    metadata = await client.getJson(SNAPSHOT_METADATA_PATH, signal);
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.code !== 'UPSTREAM_HTTP_ERROR') throw error;
    throw new UpstreamError('UPSTREAM_INVALID_DATA', `${provider} snapshot: ${error.message}`, {
      cause: error,
      publicMessage,
    });
  }
  const observedAt = SnapshotMetadata.Check(metadata)
    ? new Date(metadata.data_source.observed_at)
    : null;
  if (
    !SnapshotMetadata.Check(metadata) ||
    observedAt === null ||
    !ISO_DATE_TIME.test(metadata.data_source.observed_at) ||
    !Number.isFinite(observedAt.getTime())
  ) {
    throw new UpstreamError(
      'UPSTREAM_INVALID_DATA',
      `${provider} snapshot: metadata.json must name data_source.observed_at (ISO date-time) and data_source.source (D37)`,
      { publicMessage },
    );
  }
  const dataSource: DataSource = {
    kind: 'snapshot',
    observedAt,
    source: metadata.data_source.source,
  };
  const recordingsFile = metadata.dated_recordings;
  return recordingsFile === undefined ? { dataSource } : { dataSource, recordingsFile };
}

/**
 * The snapshot's dated recordings (D64), checked: each before the snapshot's own observation
 * (its current files are the newest recording). UPSTREAM_INVALID_DATA otherwise.
 */
export async function readDatedRecordings(
  provider: ProviderName,
  client: UpstreamClient,
  file: string,
  observedAt: Date,
  signal: AbortSignal,
): Promise<readonly DatedRecording[]> {
  const publicMessage = `The ${provider} snapshot's dated recordings are unusable; the catalogue is unchanged`;
  try {
    const recordings = parseDatedRecordings(await client.getJson(`/${file}`, signal));
    const last = recordings.at(-1);
    if (last !== undefined && last.observedAt.getTime() >= observedAt.getTime()) {
      throw new DatedRecordingsError('a recording is not older than the snapshot itself');
    }
    return recordings;
  } catch (error) {
    if (error instanceof DatedRecordingsError) {
      throw new UpstreamError('UPSTREAM_INVALID_DATA', `${provider} ${file}: ${error.message}`, {
        cause: error,
        publicMessage,
      });
    }
    throw error;
  }
}

/** A host name for a live source's text (never a path or credentials). */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'unknown host';
  }
}

export interface ProvenanceOptions {
  readonly provider: ProviderName;
  /** The upstream the provider reads, as /health names a live source. */
  readonly upstreamName: string;
  readonly baseUrl: string;
  readonly client: UpstreamClient;
  /**
   * A file:// baseUrl that names a live upstream's own document (a provider's isLiveFile), not a
   * snapshot directory: dated like a live fetch, with no metadata.json read.
   */
  readonly liveFile?: boolean;
  readonly now?: () => Date;
}

/** `adapter` whose catalogues carry their DataSource. */
export function withProvenance(
  adapter: ProviderAdapter,
  options: ProvenanceOptions,
): ProviderAdapter {
  const snapshot = options.baseUrl.toLowerCase().startsWith('file:') && options.liveFile !== true;
  const now = options.now ?? (() => new Date());
  return {
    name: adapter.name,
    async fetchCatalog(signal: AbortSignal): Promise<ProviderCatalog> {
      if (snapshot) {
        // Read first: a snapshot without provenance fails before its files are parsed.
        const { dataSource, recordingsFile } = await readSnapshotMetadata(
          options.provider,
          options.client,
          signal,
        );
        const catalog = { ...(await adapter.fetchCatalog(signal)), dataSource };
        if (recordingsFile === undefined) return catalog;
        return {
          ...catalog,
          loadRecordings: (wanted: AbortSignal) =>
            readDatedRecordings(
              options.provider,
              options.client,
              recordingsFile,
              dataSource.observedAt,
              wanted,
            ),
        };
      }
      const fetchedAt = now();
      const catalog = await adapter.fetchCatalog(signal);
      // Observed when fetched, unless the upstream dates its own figures earlier (a file built
      // before it was fetched); a date after the fetch is not believed.
      const stated = catalog.upstreamObservedAt;
      const observedAt = stated !== undefined && stated < fetchedAt ? stated : fetchedAt;
      return {
        ...catalog,
        dataSource: {
          kind: 'live',
          observedAt,
          source: `${options.upstreamName}, live (${hostOf(options.baseUrl)})`,
        },
      };
    },
  };
}

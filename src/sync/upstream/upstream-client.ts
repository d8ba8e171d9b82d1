import type { Readable } from 'node:stream';

/**
 * Reads one provider's upstream. The base URL is `https://`, `http://` or `file://` (a directory
 * holding the same documents: the bundled snapshots). Every failure is an UpstreamError.
 *
 * file:// mapping: the request path is a file under the base directory; the query string is
 * ignored; a path without an extension gets `.json` (so `/linode/types?page=1` reads
 * `<dir>/linode/types.json`). Snapshots therefore hold single-page documents.
 */
export interface UpstreamClient {
  /**
   * The base URL it was created with, so an adapter whose setting may name one document rather
   * than a directory (Google Cloud's pricing.yml) can tell which layout it reads.
   */
  readonly baseUrl: string;
  /** GET `pathAndQuery` (relative to the base URL) and parse the body as JSON. */
  getJson(pathAndQuery: string, signal: AbortSignal): Promise<unknown>;
  /**
   * GET `pathAndQuery` and hand back the body decoded as UTF-8 (a text document another parser
   * reads: YAML). The getJson cap applies, as the text is held whole; over HTTP a `text/*`,
   * YAML or octet-stream content type is accepted.
   */
  getText(pathAndQuery: string, signal: AbortSignal): Promise<string>;
  /**
   * GET `pathAndQuery` and hand back the body as a byte stream, for documents too large to hold
   * (a provider's offer files). The size cap and timeouts still apply while it is read.
   */
  getStream(pathAndQuery: string, signal: AbortSignal): Promise<Readable>;
}

/** UPSTREAM_JSON_MAX_BYTES's default: real providers' API pages are well under 1 MB. */
export const DEFAULT_MAX_JSON_BYTES = 8 * 1024 * 1024;

/** The cap getJson applies (see UpstreamClientOptions.maxJsonBytes). */
export function jsonByteCap(options: UpstreamClientOptions): number {
  return options.maxJsonBytes ?? Math.min(options.maxResponseBytes, DEFAULT_MAX_JSON_BYTES);
}

export interface UpstreamClientOptions {
  /** Base URL, with or without a trailing slash. */
  readonly baseUrl: string;
  readonly connectTimeoutMs: number;
  /** Time allowed from the request being sent to the response headers arriving. */
  readonly firstByteTimeoutMs: number;
  /** Time allowed for a whole request, retries included. */
  readonly totalTimeoutMs: number;
  readonly maxRetries: number;
  /** Largest body accepted by getStream, in bytes. */
  readonly maxResponseBytes: number;
  /**
   * Largest body accepted by getJson, in bytes. A JSON document is held and parsed whole on the
   * event loop, so it gets a cap of its own, far below the streamed one. Unset: the smaller of
   * maxResponseBytes and DEFAULT_MAX_JSON_BYTES.
   */
  readonly maxJsonBytes?: number;
  readonly userAgent: string;
}

// The options every upstream client is built from, and their validation.
import { jsonByteCap, type UpstreamClientOptions } from './upstream-client.js';

/** Optional knobs beyond the shared UpstreamClientOptions; the defaults suit production. */
export interface UpstreamClientTuning {
  /** Longest silence between body chunks, in ms. Default: `firstByteTimeoutMs`. */
  readonly bodyIdleTimeoutMs?: number;
  /** Ceiling of the first retry's jittered delay, in ms. Default 250. */
  readonly retryBaseDelayMs?: number;
  /** Largest jittered delay between attempts, in ms. Default 5000. */
  readonly retryMaxDelayMs?: number;
  /** URLs whose ETag/Last-Modified and body are kept for conditional GET. Default 64; 0 = off. */
  readonly conditionalCacheEntries?: number;
  /** Largest body kept for conditional GET, in bytes. Default 5 MiB. */
  readonly conditionalCacheMaxBodyBytes?: number;
  /**
   * What the upstream serves: `json` (default; the provider APIs) or `xml` (the ECB rates file).
   * Decides the Accept header and which response content types are accepted.
   */
  readonly documentKind?: 'json' | 'xml';
}

export type HttpUpstreamClientOptions = UpstreamClientOptions & UpstreamClientTuning;

/**
 * Throws TypeError or RangeError, naming the option, for a base URL or a number that cannot
 * work; configuration errors must stop start-up, not surface as a failed sync later.
 */
export function checkUpstreamClientOptions(options: HttpUpstreamClientOptions): void {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`upstream base URL is not a URL: ${options.baseUrl}`);
  }
  if (base.search !== '' || base.hash !== '' || base.username !== '' || base.password !== '') {
    throw new TypeError('upstream base URL must not carry a query, fragment or credentials');
  }
  const positive = {
    connectTimeoutMs: options.connectTimeoutMs,
    firstByteTimeoutMs: options.firstByteTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    maxJsonBytes: jsonByteCap(options),
    bodyIdleTimeoutMs: options.bodyIdleTimeoutMs ?? 1,
  };
  for (const [name, value] of Object.entries(positive)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be > 0`);
  }
  const nonNegative = {
    maxRetries: options.maxRetries,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 0,
    retryMaxDelayMs: options.retryMaxDelayMs ?? 0,
    conditionalCacheEntries: options.conditionalCacheEntries ?? 0,
    conditionalCacheMaxBodyBytes: options.conditionalCacheMaxBodyBytes ?? 0,
  };
  for (const [name, value] of Object.entries(nonNegative)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be >= 0`);
  }
  if (options.userAgent.trim() === '' || /[\r\n\0]/.test(options.userAgent)) {
    throw new TypeError('userAgent must be one non-empty header line');
  }
}

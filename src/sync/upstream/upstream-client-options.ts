// Validation of the options every upstream client is built from.

import type { HttpUpstreamClientOptions } from './http-upstream-client.js';
import { jsonByteCap } from './upstream-client.js';

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

import { isStoreUnavailable } from '../storage/store-unavailable.js';
import { AppError, MESSAGES } from '../api/errors.js';

/**
 * The client's answer to a failed store call (already logged by the caller): while the
 * database cannot be reached, 503 SERVICE_UNAVAILABLE with `Retry-After: 5`, like the rate
 * limiter's outage (D11), so clients and balancers retry instead of taking it for a bug;
 * otherwise 500 QUERY_FAILED (spec section 7).
 */
export function queryFailure(error: unknown): AppError {
  return isStoreUnavailable(error)
    ? new AppError('SERVICE_UNAVAILABLE', MESSAGES.SERVICE_UNAVAILABLE, undefined, {
        'retry-after': '5',
      })
    : new AppError('QUERY_FAILED', 'Query execution failed');
}

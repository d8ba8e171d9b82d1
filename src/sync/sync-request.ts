// POST /sync body (spec 4.3, D14, D21), parsed into the providers to sync.
import { PROVIDER_NAMES, isProviderName, type ProviderName } from '../catalog/model.js';
import { echoValue } from '../catalog/echo-value.js';

/** D14: a sync without a body syncs the first registered provider. */
export function defaultSyncProviders(): readonly ProviderName[] {
  return PROVIDER_NAMES.slice(0, 1);
}

export type SyncRequestProblem =
  | { code: 'INVALID_PARAMETER'; message: string; details: Record<string, unknown> }
  | {
      code: 'UNSUPPORTED_PROVIDERS';
      message: string;
      details: { unsupported: string[]; supported: string[] };
    };

export type SyncRequestResult =
  | { ok: true; providers: readonly ProviderName[]; force: boolean }
  | { ok: false; problem: SyncRequestProblem };

const invalid = (parameter: string, value: unknown, reason: string): SyncRequestResult => ({
  ok: false,
  problem: {
    code: 'INVALID_PARAMETER',
    message: `Invalid value for parameter "${parameter}": ${reason}`,
    details: { parameter, value: echoValue(value), reason },
  },
});

/** `body` is undefined when the request had none: that means the defaults (D14). */
export function parseSyncRequest(
  body: Readonly<Record<string, unknown>> | undefined,
): SyncRequestResult {
  if (body === undefined) return { ok: true, providers: defaultSyncProviders(), force: false };
  if ('force' in body && typeof body.force !== 'boolean') {
    return invalid('force', body.force, 'must be a boolean');
  }
  const force = body.force === true;
  if (!('providers' in body)) return { ok: true, providers: defaultSyncProviders(), force };
  const providers = body.providers;
  if (!Array.isArray(providers))
    return invalid('providers', providers, 'must be an array of provider names');
  if (providers.length === 0) return invalid('providers', providers, 'must not be empty');
  if (providers.length > 20) return invalid('providers', providers, 'must have at most 20 entries');
  if (!providers.every((p): p is string => typeof p === 'string')) {
    return invalid('providers', providers, 'must contain only strings');
  }
  const unsupported = [...new Set(providers.filter((p) => !isProviderName(p)))];
  if (unsupported.length > 0) {
    return {
      ok: false,
      problem: {
        code: 'UNSUPPORTED_PROVIDERS',
        message: `Unsupported providers: ${unsupported.map((p) => echoValue(p)).join(', ')}`,
        details: {
          unsupported: unsupported.map((p) => String(echoValue(p))),
          supported: [...PROVIDER_NAMES],
        },
      },
    };
  }
  return { ok: true, providers: [...new Set(providers)], force };
}

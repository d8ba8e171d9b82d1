// POST /webhooks body (D42), parsed into a subscription to create. Bad input is a 400 naming the
// field: MISSING_PARAMETER when absent, INVALID_PARAMETER when wrong (as /recommend does).
import { echoValue } from '../catalog/echo-value.js';
import { PROVIDER_NAMES, REGION_CODES, isProviderName } from '../catalog/model.js';
import {
  EVENT_TYPES,
  isEventType,
  type EventType,
  type WebhookFilter,
} from '../catalog/webhook-event-model.js';
import { TargetRefused, parseTargetUrl } from './target-address.js';

/** Longest accepted URL: enough for any real endpoint, small enough to store and log. */
export const MAX_URL_LENGTH = 2_048;
const FIELDS = ['url', 'events', 'filter'];

export interface WebhookRequest {
  readonly url: URL;
  readonly events: readonly EventType[];
  readonly filter: WebhookFilter;
}

export interface WebhookRequestProblem {
  readonly code: 'MISSING_PARAMETER' | 'INVALID_PARAMETER';
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export type WebhookRequestResult =
  | { readonly ok: true; readonly value: WebhookRequest }
  | { readonly ok: false; readonly problem: WebhookRequestProblem };

export function invalidWebhookParameter(
  parameter: string,
  value: unknown,
  reason: string,
  allowed?: readonly string[],
): { ok: false; problem: WebhookRequestProblem } {
  return {
    ok: false,
    problem: {
      code: 'INVALID_PARAMETER',
      message: `Invalid value for parameter "${parameter}": ${reason}`,
      details: {
        parameter,
        value: echoValue(value),
        reason,
        ...(allowed !== undefined && { allowed: [...allowed] }),
      },
    },
  };
}

const missing = (parameter: string): WebhookRequestResult => ({
  ok: false,
  problem: {
    code: 'MISSING_PARAMETER',
    message: `Missing required parameter: ${parameter}`,
    details: { parameter },
  },
});

/** `body` is undefined when the request had none. Checks form only; the address check is async. */
export function parseWebhookRequest(
  body: Readonly<Record<string, unknown>> | undefined,
): WebhookRequestResult {
  if (body === undefined) return missing('url');
  const unknown = Object.keys(body).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) {
    return invalidWebhookParameter(unknown, body[unknown], 'is not a known field', FIELDS);
  }
  if (!('url' in body)) return missing('url');
  const rawUrl = body.url;
  if (typeof rawUrl !== 'string' || rawUrl.length > MAX_URL_LENGTH) {
    return invalidWebhookParameter(
      'url',
      rawUrl,
      `must be an http or https URL of at most ${MAX_URL_LENGTH} characters`,
    );
  }
  let url: URL;
  try {
    url = parseTargetUrl(rawUrl);
  } catch (error) {
    if (error instanceof TargetRefused)
      return invalidWebhookParameter('url', rawUrl, error.message);
    throw error;
  }
  if (!('events' in body)) return missing('events');
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.length > EVENT_TYPES.length * 2) {
    return invalidWebhookParameter(
      'events',
      events,
      'must be a non-empty array of event types',
      EVENT_TYPES,
    );
  }
  const unknownEvent: unknown = (events as unknown[]).find((event) => !isEventType(event));
  if (unknownEvent !== undefined) {
    return invalidWebhookParameter('events', unknownEvent, 'is not an event type', EVENT_TYPES);
  }
  const filter = parseFilter(body.filter);
  if (!filter.ok) return filter;
  return {
    ok: true,
    value: {
      url,
      // In the documented order, once each.
      events: EVENT_TYPES.filter((type) => (events as unknown[]).includes(type)),
      filter: filter.value,
    },
  };
}

function parseFilter(
  raw: unknown,
): { ok: true; value: WebhookFilter } | { ok: false; problem: WebhookRequestProblem } {
  if (raw === undefined || raw === null) return { ok: true, value: {} };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return invalidWebhookParameter('filter', raw, 'must be an object with provider and/or region');
  }
  const filter = raw as Record<string, unknown>;
  const unknown = Object.keys(filter).find((key) => key !== 'provider' && key !== 'region');
  if (unknown !== undefined) {
    return invalidWebhookParameter(`filter.${unknown}`, filter[unknown], 'is not a known field', [
      'provider',
      'region',
    ]);
  }
  const { provider, region } = filter;
  if (provider !== undefined && !isProviderName(provider)) {
    return invalidWebhookParameter(
      'filter.provider',
      provider,
      'is not a provider',
      PROVIDER_NAMES,
    );
  }
  if (region !== undefined && (typeof region !== 'string' || !REGION_CODES.includes(region))) {
    return invalidWebhookParameter('filter.region', region, 'is not a region code', REGION_CODES);
  }
  return {
    ok: true,
    value: {
      ...(provider !== undefined && { provider }),
      ...(region !== undefined && { region }),
    },
  };
}

// Webhook subscriptions as the API and the CLI see them (D42): create (checking the target's
// address once, at creation, as well as before every attempt), list without secrets, delete.
import type { WebhookConfig } from '../config.js';
import type { Delivery, Webhook, WebhookStore } from '../storage/webhook-store.js';
import type { EventType } from '../catalog/webhook-event-model.js';
import { newWebhookSecret } from './signing.js';
import { TargetRefused, resolveTarget } from './target-address.js';
import {
  invalidWebhookParameter,
  type WebhookRequest,
  type WebhookRequestProblem,
} from './webhook-request.js';

/** Subscriptions at most: each one adds a delivery row per event every sync queues. */
export const MAX_WEBHOOKS = 100;

export interface WebhookJson {
  id: string;
  url: string;
  events: EventType[];
  filter: { provider?: string; region?: string };
  created_at: string;
}

export interface CreatedWebhookJson extends WebhookJson {
  /** Shown once, in the creation response: the HMAC key of every signature. */
  secret: string;
}

export interface DeliveryJson {
  id: number;
  webhook_id: string;
  message_id: string;
  event_type: EventType;
  status: Delivery['status'];
  attempts: number;
  created_at: string;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

export function toWebhookJson(hook: Webhook): WebhookJson {
  return {
    id: hook.id,
    url: hook.url,
    events: [...hook.events],
    filter: { ...hook.filter },
    created_at: hook.createdAt.toISOString(),
  };
}

export function toDeliveryJson(delivery: Delivery): DeliveryJson {
  return {
    id: delivery.id,
    webhook_id: delivery.webhookId,
    message_id: delivery.messageId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: delivery.createdAt.toISOString(),
    next_attempt_at: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    delivered_at: delivery.deliveredAt === null ? null : delivery.deliveredAt.toISOString(),
  };
}

export type CreateResult =
  | { readonly ok: true; readonly webhook: CreatedWebhookJson }
  | { readonly ok: false; readonly problem: WebhookRequestProblem };

const full = (request: WebhookRequest) =>
  invalidWebhookParameter(
    'url',
    request.url.href,
    `at most ${MAX_WEBHOOKS} webhooks may exist; delete one first`,
  );

export async function createWebhook(
  store: WebhookStore,
  request: WebhookRequest,
  config: Pick<WebhookConfig, 'allowPrivate' | 'timeoutMs'>,
  now: Date = new Date(),
): Promise<CreateResult> {
  // A quick refusal before the target is resolved; the store's insert is what enforces the cap.
  if ((await store.count()) >= MAX_WEBHOOKS) return full(request);
  try {
    // Refused now with a clear 400, rather than failing every delivery later. Bounded by the
    // timeout so a slow resolver cannot hold the request long.
    await resolveTarget(request.url, config.allowPrivate, Math.min(config.timeoutMs, 5_000));
  } catch (error) {
    if (error instanceof TargetRefused) {
      return invalidWebhookParameter('url', request.url.href, error.message);
    }
    throw error;
  }
  const created = await store.create(
    {
      url: request.url.href,
      secret: newWebhookSecret(),
      events: request.events,
      filter: request.filter,
      createdAt: now,
    },
    MAX_WEBHOOKS,
  );
  // Full meanwhile: another create took the last slot while this one checked its target.
  if (created === null) return full(request);
  return { ok: true, webhook: { ...toWebhookJson(created), secret: created.secret } };
}

// Webhook rows as the store reads them (D42): subscriptions and deliveries, checked on the way
// out so a corrupt row fails loudly instead of being sent.
import type { Selectable } from 'kysely';
import { isWellFormedProviderName } from '../catalog/model.js';
import { isEventType, type EventType } from '../catalog/webhook-event-model.js';
import type { WebhookDeliveriesTable, WebhooksTable } from './history-schema.js';
import type { Delivery, DeliveryStatus, WebhookWithSecret } from './webhook-store.js';

export function parseEvents(text: string): EventType[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every(isEventType)) {
    throw new Error('corrupt webhook events list');
  }
  return parsed;
}

export function toWebhook(row: Omit<Selectable<WebhooksTable>, 'slot'>): WebhookWithSecret {
  const provider = row.filter_provider;
  // A subscription to a provider PROVIDERS no longer enables stays listed (it gets no events).
  if (provider !== null && !isWellFormedProviderName(provider)) {
    throw new Error('corrupt webhook filter');
  }
  return {
    id: row.id,
    url: row.url,
    secret: row.secret,
    events: parseEvents(row.events),
    filter: {
      ...(provider !== null && { provider }),
      ...(row.filter_region !== null && { region: row.filter_region }),
    },
    createdAt: new Date(row.created_at),
  };
}

export type DeliveryRow = Selectable<WebhookDeliveriesTable> & { readonly event_type: string };

export function toDelivery(row: DeliveryRow): Delivery {
  const type = row.event_type;
  if (!isEventType(type)) throw new Error('corrupt delivery event type');
  return {
    id: row.id,
    webhookId: row.webhook_id,
    messageId: row.message_id,
    eventType: type,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    nextAttemptAt: new Date(row.next_attempt_at),
    lastStatus: row.last_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at === null ? null : new Date(row.delivered_at),
  };
}

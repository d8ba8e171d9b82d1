// The webhook events (D42) and the exact bodies delivered for them. Built inside the apply
// transaction from what the sync stored, so a body never disagrees with the catalogue.
import type { ProviderName } from './model.js';
import { toChangeItem, type ChangeItemJson } from './price-change-json.js';
import type { PriceChange } from './price-change-model.js';

export const EVENT_TYPES = ['sync.completed', 'sync.failed', 'price.changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** Changes per price.changed event at most; a sync with more sends several parts. */
export const MAX_CHANGES_PER_EVENT = 1_000;

export interface WebhookFilter {
  readonly provider?: ProviderName;
  readonly region?: string;
}

export interface SyncOutcome {
  readonly syncId: string;
  readonly provider: ProviderName;
  readonly startedAt: Date;
  readonly completedAt: Date;
}

export interface CompletedSync extends SyncOutcome {
  readonly counts: {
    readonly regions: number;
    readonly instances: number;
    readonly pricing: number;
  };
  /** Every change the sync stored, in feed order. */
  readonly changes: readonly PriceChange[];
}

export interface FailedSync extends SyncOutcome {
  readonly errorCode: string | null;
  readonly errorMessage: string | null;
}

/** One message to send: its type and the JSON body, exactly as it will be signed. */
export interface EventMessage {
  readonly type: EventType;
  readonly body: string;
}

function envelope(type: EventType, at: Date, data: unknown): EventMessage {
  return { type, body: JSON.stringify({ type, timestamp: at.toISOString(), data }) };
}

function matchesProvider(filter: WebhookFilter, provider: ProviderName): boolean {
  return filter.provider === undefined || filter.provider === provider;
}

/** The messages a completed sync sends to one subscriber, given its events and filter. */
export function completedSyncMessages(
  sync: CompletedSync,
  events: readonly EventType[],
  filter: WebhookFilter,
): EventMessage[] {
  if (!matchesProvider(filter, sync.provider)) return [];
  const messages: EventMessage[] = [];
  const changes = sync.changes.filter(
    (c) => filter.region === undefined || c.instance.regionCode === filter.region,
  );
  if (events.includes('sync.completed')) {
    messages.push(
      envelope('sync.completed', sync.completedAt, {
        sync_id: sync.syncId,
        provider: sync.provider,
        started_at: sync.startedAt.toISOString(),
        completed_at: sync.completedAt.toISOString(),
        regions_synced: sync.counts.regions,
        instances_synced: sync.counts.instances,
        pricing_synced: sync.counts.pricing,
        changes: changes.length,
      }),
    );
  }
  if (events.includes('price.changed') && changes.length > 0) {
    const parts = Math.ceil(changes.length / MAX_CHANGES_PER_EVENT);
    for (let part = 0; part < parts; part++) {
      const slice = changes.slice(part * MAX_CHANGES_PER_EVENT, (part + 1) * MAX_CHANGES_PER_EVENT);
      const items: ChangeItemJson[] = slice.map((change) => toChangeItem(change));
      messages.push(
        envelope('price.changed', sync.completedAt, {
          sync_id: sync.syncId,
          provider: sync.provider,
          part: part + 1,
          parts,
          changes: items,
        }),
      );
    }
  }
  return messages;
}

export function failedSyncMessages(
  sync: FailedSync,
  events: readonly EventType[],
  filter: WebhookFilter,
): EventMessage[] {
  if (!events.includes('sync.failed') || !matchesProvider(filter, sync.provider)) return [];
  return [
    envelope('sync.failed', sync.completedAt, {
      sync_id: sync.syncId,
      provider: sync.provider,
      started_at: sync.startedAt.toISOString(),
      completed_at: sync.completedAt.toISOString(),
      error: { code: sync.errorCode, message: sync.errorMessage },
    }),
  ];
}

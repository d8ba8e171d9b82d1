import type { Generated } from 'kysely';

// The tables of price history (D38, D40, migration 004) and of webhooks (D42, migrations 005, 007),
// in the same units as the catalogue: money in integer micro-dollars, times in epoch ms.

/** One price period of one record (pricing.id): [valid_from, valid_to). */
export interface PriceHistoryTable {
  readonly id: Generated<number>;
  /** The record (pricing.id). */
  readonly pricing_id: number;
  /** The sync that opened the period (sync_runs.sync_id); 'migration' for backfilled rows. */
  readonly sync_id: string;
  readonly valid_from: number;
  /** Null while the period is current. */
  readonly valid_to: number | null;
  readonly hourly_micros: number;
  readonly monthly_micros: number;
  /** 1 offered, 0 not offered (the record vanished upstream; prices are the last ones seen). */
  readonly available: number;
  /** When this period's price was observed upstream (D37), epoch ms. */
  readonly observed_at: number;
  /** D61: the purchase option the period prices (migration 011); on_demand by default. */
  readonly purchase_option: Generated<string>;
}

/** One item of the change feed (D40): what a sync changed about one record. */
export interface PriceChangesTable {
  readonly id: Generated<number>;
  readonly sync_id: string;
  readonly provider: string;
  readonly region_code: string;
  /** Epoch ms: the completing sync's completed_at. */
  readonly at: number;
  readonly pricing_id: number;
  /** added, removed, returned, price_increased or price_decreased. */
  readonly kind: string;
  readonly old_hourly_micros: number | null;
  readonly old_monthly_micros: number | null;
  readonly new_hourly_micros: number | null;
  readonly new_monthly_micros: number | null;
  /**
   * The run (sync_runs.id) whose apply wrote it (migration 006); its catalog_version orders the
   * feed. Null only for an item of a run the migration could not find.
   */
  readonly run_id: number | null;
  /** D61: the purchase option whose price changed (migration 011); on_demand by default. */
  readonly purchase_option: Generated<string>;
}

export interface WebhooksTable {
  /** `wh_` and 24 hex digits: not guessable, not a count of subscribers. */
  readonly id: string;
  readonly url: string;
  /** `whsec_` and base64; the HMAC key is the decoded part (Standard Webhooks). */
  readonly secret: string;
  /** JSON array of event types. */
  readonly events: string;
  readonly filter_provider: string | null;
  readonly filter_region: string | null;
  readonly created_at: number;
  /** Unique, below the cap when created (migration 007): the cap holds under concurrent creates. */
  readonly slot: number;
}

/** One event body, stored once whatever the number of subscribers receiving it (migration 007). */
export interface WebhookEventsTable {
  readonly id: Generated<number>;
  readonly event_type: string;
  /** The exact JSON body sent, signed as it is. */
  readonly payload: string;
  readonly created_at: number;
}

/** One event to one webhook, with its attempts (the delivery queue). */
export interface WebhookDeliveriesTable {
  readonly id: Generated<number>;
  readonly event_id: number;
  readonly webhook_id: string;
  /** The Standard Webhooks message id (`webhook-id`), the same on every attempt. */
  readonly message_id: string;
  /** pending, delivered or failed (gave up after the retry window). */
  readonly status: string;
  readonly attempts: number;
  readonly created_at: number;
  readonly next_attempt_at: number;
  /** While a replica sends it: that replica's id and the time its claim lapses. */
  readonly lease_owner: string | null;
  readonly lease_until: number | null;
  readonly last_status: number | null;
  readonly last_error: string | null;
  readonly delivered_at: number | null;
}

export interface HistoryTables {
  readonly price_history: PriceHistoryTable;
  readonly price_changes: PriceChangesTable;
  readonly webhooks: WebhooksTable;
  readonly webhook_events: WebhookEventsTable;
  readonly webhook_deliveries: WebhookDeliveriesTable;
}

// Honest cells: which numbers of a record are not what they seem. A 0 can be a measured zero, a
// thing the price does not include, or a figure the upstream never published; the record's
// numbers stay as they are (existing clients see no change) and `field_notes` says which is
// which. Derived at read time from the provider and the value, because each adapter writes 0 in
// exactly these cases and in no other (src/sync/providers/*/parse.ts):
//   provider_a (Linode): network_speed_gbps is `network_out` / 1000, and 0 when the upstream
//     leaves `network_out` out (the bundled 2024 recording does): not published.
//   provider_b (Vultr): the plans API publishes no network speed; the adapter always writes 0.
//   provider_c (AWS): storage_gb 0 is "EBS only" (no instance storage; EBS volumes are bought
//     apart); transfer_tb is always 0: EC2 includes no data transfer, it is billed per GB.
import type { ProviderName } from './model.js';

export const FIELD_NOTES = ['not_included', 'not_published'] as const;
export type FieldNote = (typeof FIELD_NOTES)[number];

/** The record fields a note can be about. */
export const NOTED_FIELDS = ['storage_gb', 'transfer_tb', 'network_speed_gbps'] as const;
export type NotedField = (typeof NOTED_FIELDS)[number];

export type FieldNotes = Partial<Record<NotedField, FieldNote>>;

export interface NotedValues {
  readonly storageGb: number;
  readonly transferTb: number;
  readonly networkSpeedGbps: number;
}

/** The notes of one record; an empty object when every number means what it says. */
export function fieldNotes(provider: ProviderName, values: NotedValues): FieldNotes {
  const notes: FieldNotes = {};
  switch (provider) {
    case 'provider_a':
    case 'provider_b':
      if (values.networkSpeedGbps === 0) notes.network_speed_gbps = 'not_published';
      break;
    case 'provider_c':
      if (values.storageGb === 0) notes.storage_gb = 'not_included';
      if (values.transferTb === 0) notes.transfer_tb = 'not_included';
      break;
  }
  return notes;
}

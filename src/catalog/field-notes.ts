// Honest cells: which numbers of a record are not what they seem. A 0 can be a measured zero, a
// thing the price does not include, or a figure the upstream never published; the record's
// numbers stay as they are (existing clients see no change) and `field_notes` says which is
// which. Derived at read time from the provider and the value: each provider's folder
// (src/providers/<name>/) says in which cases its adapter writes such a 0, and model.ts's
// fieldNotes asks the record's provider.

/**
 * `not_included`: the price includes none; `not_published`: the upstream publishes no such
 * figure; `not_recorded`: the upstream publishes one, but the recording the record comes from
 * holds none (a bundled snapshot's limit, not the provider's).
 */
export const FIELD_NOTES = ['not_included', 'not_published', 'not_recorded'] as const;
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

// Honest cells: a 0 the API marks in `field_notes` (docs/api.md) is shown as what it means
// ("EBS only", "not published", "—"), with the reason as a tooltip and for screen readers, and
// is never a number to compare against.
import type { InstanceRecord } from './model';
import { blockStorageOf } from './places';

export type NotedField = keyof InstanceRecord['field_notes'];

export interface CellNote {
  /** What the cell shows instead of the number. */
  readonly text: string;
  /** Why, in a sentence (tooltip, and read out after the text). */
  readonly reason: string;
}

/** "EBS only": the provider's own name for the block storage it sells apart (GET /regions). */
function blockStorageText(provider: string): string {
  const name = blockStorageOf(provider);
  return name === undefined ? 'none included' : `${name} only`;
}

export function cellNote(r: InstanceRecord, field: NotedField): CellNote | undefined {
  const note = r.field_notes[field];
  if (note === undefined) return undefined;
  if (note === 'not_published') {
    return {
      text: 'not published',
      reason: `${r.provider.display_name} does not publish this figure; the API's 0 is a placeholder.`,
    };
  }
  if (note === 'not_recorded') {
    return {
      text: 'not recorded',
      reason: `The recording of ${r.provider.display_name}'s catalogue these figures come from holds no such figure; the API's 0 is a placeholder.`,
    };
  }
  if (field === 'storage_gb') {
    return {
      text: blockStorageText(r.provider.name),
      reason: 'No local disk: network block storage is billed separately.',
    };
  }
  return {
    text: '—',
    reason:
      field === 'transfer_tb'
        ? 'No transfer is included: data transfer is billed per GB.'
        : 'Not included in the price.',
  };
}

/** The number, or undefined when the API says it is not a real amount (so no comparisons). */
export function notedValue(r: InstanceRecord, field: NotedField): number | undefined {
  return cellNote(r, field) === undefined ? r[field] : undefined;
}

/** Plain text (copy as CSV or Markdown): the note's text, or the number. */
export function notedText(r: InstanceRecord, field: NotedField): string {
  return cellNote(r, field)?.text ?? String(r[field]);
}

/** The cell: the note's text with its reason as a tooltip, or the number with `unit`. */
export function NotedCell({
  record,
  field,
  unit = '',
}: {
  record: InstanceRecord;
  field: NotedField;
  unit?: string;
}) {
  const note = cellNote(record, field);
  if (note === undefined) return <>{`${record[field]}${unit}`}</>;
  return <NoteText note={note} />;
}

/** A note's text marked as not a number, its reason as a tooltip and read out after it. */
export function NoteText({ note }: { note: CellNote }) {
  return (
    <span class="noted" title={note.reason}>
      {note.text}
      <span class="visually-hidden"> ({note.reason})</span>
    </span>
  );
}

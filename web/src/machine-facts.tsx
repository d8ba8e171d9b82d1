// Machine facts (D62, D63) in the page's words: the CPU as "x86 · dedicated" / "Arm · burstable"
// with Arm and burstable marked (each changes what runs well: images must support Arm, sustained
// load on a burstable CPU is throttled or billed), what the price includes ("80 GB NVMe SSD · 5 TB
// transfer" or "EBS only · transfer billed", the noted parts from field_notes), and the CoreMark
// score. Unknown is said as unknown, never guessed.
import { cellNote, NoteText, type CellNote } from './field-notes';
import { count } from './format';
import type { InstanceRecord } from './model';
import { day } from './provenance';

type Facts = Pick<InstanceRecord, 'cpu'>;

export const ARCH_LABEL: Readonly<Record<string, string>> = { x86_64: 'x86', arm64: 'Arm' };
export const ARM_REASON = 'Arm (arm64) CPU: images for the whole stack must support Arm.';
export const BURSTABLE_REASON =
  'Burstable CPU: a baseline share with bursts on credits; sustained load is throttled or billed beyond the baseline.';
const STORAGE_TYPE: Readonly<Record<string, string>> = {
  nvme_ssd: 'NVMe SSD',
  ssd: 'SSD',
  hdd: 'HDD',
};

export function archText(r: Facts): string {
  const a = r.cpu.architecture;
  return a === null ? 'arch unknown' : (ARCH_LABEL[a] ?? a);
}

export function allocationText(r: Facts): string {
  return r.cpu.allocation ?? 'allocation unknown';
}

/** Why a fact reads "unknown" (D62: null is not recorded, never a guess). */
const unknownNote = (text: string, what: string): CellNote => ({
  text,
  reason: `The ${what} of this type is not recorded in the provider's data; it is not guessed.`,
});

/** "x86 · dedicated", "Arm · burstable" (plain text: CSV, Markdown, card labels). */
export function cpuText(r: Facts): string {
  return `${archText(r)} · ${allocationText(r)}`;
}

/** Maker and model as recorded ("AWS Graviton2"), or empty when neither is. */
export function cpuModelText(r: Facts): string {
  return [r.cpu.manufacturer, r.cpu.model].filter((s) => s !== null).join(' ');
}

/** The CPU cell: Arm and burstable as marked badges with their reason; the rest plain. */
export function CpuFacts({ record: r }: { record: Facts }) {
  const arch = archText(r);
  const allocation = allocationText(r);
  return (
    <span class="facts">
      <span class="fact">
        {r.cpu.architecture === 'arm64' ? (
          <Marked text={arch} reason={ARM_REASON} />
        ) : r.cpu.architecture === null ? (
          <NoteText note={unknownNote(arch, 'CPU architecture')} />
        ) : (
          arch
        )}{' '}
        ·
      </span>{' '}
      <span class="fact">
        {r.cpu.allocation === 'burstable' ? (
          <Marked text={allocation} reason={BURSTABLE_REASON} />
        ) : r.cpu.allocation === null ? (
          <NoteText note={unknownNote(allocation, 'CPU allocation')} />
        ) : (
          allocation
        )}
      </span>
    </span>
  );
}

function Marked({ text, reason }: { text: string; reason: string }) {
  return (
    <span class="badge badge-mark" title={reason}>
      {text}
      <span class="visually-hidden"> ({reason})</span>
    </span>
  );
}

type Included = InstanceRecord;

/** The local disk part: "80 GB NVMe SSD", or the note ("EBS only", "not published"). */
function storagePart(r: Included): { text: string; note?: CellNote } {
  const note = cellNote(r, 'storage_gb');
  if (note !== undefined) return { text: note.text, note };
  const kind = r.storage_type === null ? '' : ` ${STORAGE_TYPE[r.storage_type]}`;
  return { text: `${r.storage_gb} GB${kind}` };
}

/** The transfer part: "5 TB transfer", or "transfer billed" when none is included. */
function transferPart(r: Included): { text: string; note?: CellNote } {
  const note = cellNote(r, 'transfer_tb');
  if (note === undefined) return { text: `${r.transfer_tb} TB transfer` };
  const text = r.field_notes.transfer_tb === 'not_included' ? 'transfer billed' : note.text;
  return { text, note: { ...note, text } };
}

/** What the price includes, as plain text: "80 GB SSD · 5 TB transfer", "EBS only · transfer billed". */
export function includedText(r: Included): string {
  return `${storagePart(r).text} · ${transferPart(r).text}`;
}

export function IncludedFacts({ record }: { record: Included }) {
  const [storage, transfer] = [storagePart(record), transferPart(record)];
  return (
    <span class="facts">
      <span class="fact">
        {storage.note === undefined ? storage.text : <NoteText note={storage.note} />} ·
      </span>{' '}
      <span class="fact">
        {transfer.note === undefined ? transfer.text : <NoteText note={transfer.note} />}
      </span>
    </span>
  );
}

/** CoreMark iterations per second, ungrouped (CSV); empty when none is recorded. */
export function coremarkText(r: Pick<InstanceRecord, 'benchmark'>): string {
  return r.benchmark === null ? '' : String(r.benchmark.coremark);
}

/** CoreMark per USD of monthly price, ungrouped (CSV); empty without a score or for a free record. */
export function coremarkPerPriceText(r: Pick<InstanceRecord, 'benchmark'>): string {
  const v = r.benchmark?.coremark_per_usd_month;
  return v === undefined || v === null ? '' : String(v);
}

/** A number as the screen groups it ("97,652"; per price to whole units), empty stays empty. */
export function groupedText(plain: string): string {
  return plain === '' ? '' : count.format(Math.round(Number(plain)));
}

/** "97,652 CoreMark (ran 2026-01-05; source)", or that none is recorded. */
export function benchmarkText(r: Pick<InstanceRecord, 'benchmark'>): string {
  const b = r.benchmark;
  return b === null
    ? 'no CoreMark score recorded'
    : `${count.format(b.coremark)} CoreMark (ran ${day(b.ran_at)}; ${b.source})`;
}

/** "1 × NVIDIA T4 (16 GiB)"; empty without a GPU. */
export function gpuText(
  r: Pick<InstanceRecord, 'gpu_count' | 'gpu_type' | 'gpu_memory_gb'>,
): string {
  if (r.gpu_count <= 0) return '';
  const memory = r.gpu_memory_gb === null ? '' : ` (${r.gpu_memory_gb} GiB)`;
  return `${r.gpu_count} × ${r.gpu_type ?? 'GPU'}${memory}`;
}

// AWS product attributes are display strings ("8 GiB", "1 x 450 GB NVMe SSD", "Up to 5
// Gigabit"; upstream-formats.md §3.3). These turn them into our units, or null for text we do
// not recognise (the record is then skipped and counted, never guessed at). Pure functions.
import { LIMITS } from '../upstream-values.js';

const DIGITS = '\\d{1,3}(?:,\\d{3})+|\\d+';

/** "2" -> 2. A whole number of vCPUs, 1..LIMITS.maxVcpu. */
export function parseVcpu(text: string | undefined): number | null {
  if (text === undefined || !/^[1-9]\d{0,4}$/.test(text)) return null;
  const vcpu = Number(text);
  return vcpu <= LIMITS.maxVcpu ? vcpu : null;
}

/** A decimal with optional thousands commas ("1,952", "0.5", "12500") as a number. */
function decimal(text: string): number {
  return Number(text.replaceAll(',', ''));
}

const MEMORY = new RegExp(`^(${DIGITS})(\\.\\d+)? GiB$`);

/**
 * "8 GiB" / "0.5 GiB" / "1,952 GiB" -> MB (x 1024, rounded to a whole MB): our memory_mb is
 * binary megabytes, as the other providers report it. "NA" (some u-*tb1 types) -> null.
 */
export function parseMemoryMb(text: string | undefined): number | null {
  const match = text === undefined ? null : MEMORY.exec(text);
  if (!match) return null;
  const mb = Math.round(decimal(`${match[1] ?? ''}${match[2] ?? ''}`) * 1024);
  return mb > 0 && mb <= LIMITS.maxMemoryMb ? mb : null;
}

const SIZE = `(${DIGITS})(\\.\\d+)?`;
const UNIT = '(?: ?(GB|TB))?';
// AWS writes the multiplier as "x", and for some newer types as "X" ("4 X 940 GB NVMe SSD").
const DISKS = new RegExp(`^([1-9]\\d{0,2}) [xX] ${SIZE}${UNIT}(?: .*)?$`);
const ONE_DISK = new RegExp(`^${SIZE} ?(GB|TB)(?: .*)?$`);

/**
 * Instance storage in GB (decimal, as AWS sizes disks): "EBS only" -> 0 (network block storage
 * is billed apart), "1 x 450 GB NVMe SSD" -> 450, "2 x 1900 NVMe SSD" -> 3800 (a bare number
 * is GB), "8 x 1000 SSD" -> 8000, "4 X 940 GB NVMe SSD" -> 3760, "125 GB NVMe SSD" -> 125, "2 x 7.5 TB NVMe SSD" -> 15000.
 */
export function parseStorageGb(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (/^ebs only$/i.test(text)) return 0;
  let count = 1;
  let size: number;
  let unit: string | undefined;
  const disks = DISKS.exec(text);
  if (disks) {
    count = Number(disks[1]);
    size = decimal(`${disks[2] ?? ''}${disks[3] ?? ''}`);
    unit = disks[4];
  } else {
    const one = ONE_DISK.exec(text);
    if (!one) return null;
    size = decimal(`${one[1] ?? ''}${one[2] ?? ''}`);
    unit = one[3];
  }
  const gb = Math.round(count * size * (unit === 'TB' ? 1000 : 1));
  return gb > 0 && gb <= LIMITS.maxDiskGb ? gb : null;
}

/**
 * Older and smaller types state their network as a class, not a figure. We list these
 * approximations of their sustained bandwidth in Gbps (documented in docs/api.md): AWS
 * publishes no number for them.
 */
export const QUALITATIVE_NETWORK_GBPS: ReadonlyMap<string, number> = new Map([
  ['very low', 0.05],
  ['low', 0.1],
  ['low to moderate', 0.3],
  ['moderate', 0.5],
  ['high', 1],
]);

const GIGABIT = /^(?:up to )?(\d+(?:\.\d+)?) gigabit$/i;
const MEGABIT = /^(?:up to )?(\d+(?:\.\d+)?) megabit$/i;
const LINKS = /^([1-9]\d?) ?x ?(\d+(?:\.\d+)?) gigabit$/i;

/**
 * Network speed in Gbps: "10 Gigabit" -> 10, "Up to 5 Gigabit" -> 5 (the burst ceiling, which is
 * the figure AWS states), "Up to 12500 Megabit" -> 12.5, "4x 100 Gigabit" -> 400, and the
 * qualitative classes above. Rounded to 3 decimals.
 */
export function parseNetworkGbps(text: string | undefined): number | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  const qualitative = QUALITATIVE_NETWORK_GBPS.get(trimmed.toLowerCase());
  if (qualitative !== undefined) return qualitative;
  let gbps: number | null = null;
  const links = LINKS.exec(trimmed);
  const giga = GIGABIT.exec(trimmed);
  const mega = MEGABIT.exec(trimmed);
  if (links) gbps = Number(links[1]) * Number(links[2]);
  else if (giga) gbps = Number(giga[1]);
  else if (mega) gbps = Number(mega[1]) / 1000;
  if (gbps === null || !(gbps > 0) || gbps * 1000 > LIMITS.maxNetworkMbps) return null;
  return Math.round(gbps * 1000) / 1000;
}

/** The `gpu` attribute: absent on types without GPUs (-> 0), else a whole count. */
export function parseGpuCount(text: string | undefined): number | null {
  if (text === undefined) return 0;
  if (!/^\d{1,3}$/.test(text)) return null;
  const count = Number(text);
  return count <= LIMITS.maxGpuCount ? count : null;
}

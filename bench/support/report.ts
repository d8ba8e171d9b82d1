// Benchmarks write their own section of docs/performance.md, between markers, so each can be
// re-run alone without disturbing the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILE = path.resolve(import.meta.dirname, '../../docs/performance.md');
const HEADER = `# Performance

Every number here was written by a benchmark script, with the command that produced it.
Timings on these shared 2-core machines are noisy: compare the ratios measured side by side in
the same run, not absolute numbers across runs. No test asserts on timing.
`;

export function writeSection(name: string, markdown: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = existsSync(FILE) ? readFileSync(FILE, 'utf8') : HEADER;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text =
    from >= 0 && to > from
      ? text.slice(0, from) + block + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, text);
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`;
}

/** What `uptime` prints: the load averages over 1, 5 and 15 minutes, and when. */
export function uptime(): string {
  const [one, five, fifteen] = os.loadavg().map((l) => l.toFixed(2));
  return `${one}, ${five}, ${fifteen} (${new Date().toISOString().slice(11, 16)} UTC)`;
}

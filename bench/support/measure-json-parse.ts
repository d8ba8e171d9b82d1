// Child process of bench/sync.bench.ts: the naive way to read an offer file, readFileSync of the
// whole file + JSON.parse, timed, with the peak RSS it costs. Prints one JSON line.
import { readFileSync } from 'node:fs';

function main(): void {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: measure-json-parse.ts <offer file>');
  const started = performance.now();
  const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const ms = performance.now() - started;
  // Touch the result so the parse cannot be skipped.
  const products =
    typeof doc === 'object' && doc !== null && 'products' in doc && typeof doc.products === 'object'
      ? Object.keys(doc.products ?? {}).length
      : -1;
  console.log(JSON.stringify({ ms, products, maxRssKb: process.resourceUsage().maxRSS }));
}

try {
  main();
} catch (err) {
  console.error('measure-json-parse failed:', err);
  process.exitCode = 1;
}

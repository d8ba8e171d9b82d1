// npx tsx bench/support/sequential-requests.ts <port> <from> <count> [new|cached] — sends GET
// /instances requests one after another on one connection, as bench/instructions-per-request.sh
// needs: each a new filter (a max_price never sent before, numbered from <from>) or, with
// `cached`, the same URL every time. Identity encoding, like wrk (the server compresses for
// clients that ask). Prints the count and the mean answer size.
import { CACHED_PATH, CLIENT_HEADER, KEY, NEW_FILTER_PATH } from './bench-settings.js';

const [port, from, count] = process.argv.slice(2, 5).map(Number);
const cached = process.argv[5] === 'cached';
if (![port, from, count].every((n) => Number.isSafeInteger(n))) {
  console.error('usage: sequential-requests.ts <port> <from> <count> [new|cached]');
  process.exit(2);
}
let bytes = 0;
for (let n = from!; n < from! + count!; n++) {
  const price = (20 + (n % 480) + (n + 1) / 1e6).toFixed(6);
  const path = cached ? CACHED_PATH : NEW_FILTER_PATH.replace('{price}', price);
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { 'accept-encoding': 'identity', 'x-api-key': KEY, [CLIENT_HEADER]: `c${n}` },
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  bytes += (await response.arrayBuffer()).byteLength;
}
console.log(`${count} requests, ${Math.round(bytes / count!)} bytes each`);

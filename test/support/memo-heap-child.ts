// Run as `node --expose-gc --import tsx test/support/memo-heap-child.ts <mode> <n>`: fills a
// RecommendMemo with `n` entries shaped like the route's (an answer around its query time, made
// by answerAround, a key like recommendKey's) and prints, as JSON, the heap growth after gc() and the
// memo's own count of bytes held. Modes: `one-byte` and `two-byte` answers (each offered twice,
// so kept), `seen` (keys offered once: only the key is kept).
import { answerAround, RecommendMemo } from '../../src/recommend/recommend-memo.js';
import type { RecommendData } from '../../src/recommend/recommend.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
// A character outside Latin-1 makes V8 store the whole string with two bytes a character.
const [mode, countText] = process.argv.slice(2);
const count = Number(countText);
const name = mode === 'two-byte' ? 'Tōkyō → Ōsaka' : 'Tokyo - Osaka';

/** Twenty recommendations' worth of data (their fields vary; their size is the route's). */
function data(i: number): RecommendData {
  const recommendations = Array.from({ length: 20 }, (_, r) => ({
    rank: r + 1,
    id: i * 100 + r,
    instance_name: `${name} ${i}.${r}`,
    monthly_price: (i * 7 + r) / 100,
    pros: [`cheapest in ${name}`],
    cons: [`${i}`],
  }));
  return { recommendations } as unknown as RecommendData;
}

function heap(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const memo = new RecommendMemo(1024 * 1024 * 1024);
const index = {};
const before = heap();
for (let i = 0; i < count; i++) {
  const key = JSON.stringify([['nginx', 'redis'], 'medium', i * 1000, 10, null, null, 'USD', null]);
  const askings = mode === 'seen' ? 1 : 2;
  for (let asked = 0; asked < askings; asked++) {
    memo.offer(index, key, answerAround(data(i), undefined));
  }
}
const grown = heap() - before;
process.stdout.write(JSON.stringify({ grown, counted: memo.bytesHeld, entries: memo.size }));

// Memory of the in-process rate-limit counters (src/infra/memory/memory-counter-store.ts):
// bytes of heap plus typed arrays per live counter, for IPv4 and for IPv6 clients, each family in
// a fresh process. Run: node --expose-gc --import tsx bench/counter-memory.ts [count]
//
// Keys are made the way the server makes them: `rl:<scope>:<window>:<client>` with the client
// from clientKey (an IPv4 address as it is, an IPv6 address as its /64), all in one window.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { clientKey } from '../src/http/client-address.js';
import { MemoryCounterStore } from '../src/infra/memory/memory-counter-store.js';

type Family = 'ipv4' | 'ipv6';

function address(family: Family, i: number): string {
  return family === 'ipv4'
    ? `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
    : `2001:db8:${((i >> 16) & 0xffff).toString(16)}:${(i & 0xffff).toString(16)}::1`;
}

function heapBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** Bytes per counter of `count` live counters of one family, in this process. */
async function measure(family: Family, count: number): Promise<number> {
  const window = Math.floor(Date.now() / 60_000);
  const store = new MemoryCounterStore({ maxKeys: count, sweepIntervalMs: 3_600_000 });
  const before = heapBytes();
  for (let i = 0; i < count; i++) {
    const client = clientKey(address(family, i))!;
    await store.increment(`rl:/instances:${window}:${client}`, 600_000);
  }
  const after = heapBytes();
  if (store.size !== count) throw new Error(`expected ${count} counters, got ${store.size}`);
  await store.close();
  return (after - before) / count;
}

const [mode, countText] = process.argv.slice(2);
if (mode === 'ipv4' || mode === 'ipv6') {
  process.stdout.write(`${await measure(mode, Number(countText))}\n`);
} else {
  const count = Number(mode ?? 250_000);
  const self = fileURLToPath(import.meta.url);
  const perCounter = (family: Family): number => {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', self, family, String(count)],
      { encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(run.stderr);
    return Number(run.stdout.trim());
  };
  const ipv4 = perCounter('ipv4');
  const ipv6 = perCounter('ipv6');
  const mb = (bytesEach: number) => ((bytesEach * count) / 1e6).toFixed(1);
  console.log(`${count} counters, node ${process.version}, heap + typed arrays after gc():`);
  console.log(`  IPv4: ${ipv4.toFixed(1)} bytes a counter (${mb(ipv4)} MB)`);
  console.log(`  IPv6: ${ipv6.toFixed(1)} bytes a counter (${mb(ipv6)} MB)`);
  console.log(`  IPv6 / IPv4: ${(ipv6 / ipv4).toFixed(2)}`);
}

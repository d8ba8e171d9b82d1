// The bundled snapshots (data/snapshots/) and their test copy (test/fixtures/snapshots/) are
// generated from the recorded figures in data/sources/, never edited by hand: each must be
// exactly what `npm run snapshots:generate` writes. A generator also stops, naming the row,
// on bad or partial recorded data instead of writing a guess.
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAllSnapshots } from '../../scripts/snapshots/generate-all.js';
import { parseRecordedCsv } from '../../src/providers/snapshot/recorded-csv.js';
import { readAwsRecording } from '../../src/providers/provider-c/snapshot/aws-recording.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files of the provider snapshots (the exchange-rate snapshot beside them is not ours). */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .filter((file) => file.startsWith('provider_'))
    .sort();
}

describe('generated snapshots', () => {
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'cloudprice-snapshots-'));
    await generateAllSnapshots(path.join(work, 'bundled'), path.join(work, 'fixtures'));
  });

  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it.each([
    ['data/snapshots', 'bundled'],
    ['test/fixtures/snapshots', 'fixtures'],
  ])('%s is exactly what the generators write', async (committedDir, generatedDir) => {
    const committed = path.join(ROOT, committedDir);
    const generated = path.join(work, generatedDir);
    const files = await listFiles(committed);
    expect(await listFiles(generated)).toEqual(files);
    for (const file of files) {
      const [want, got] = await Promise.all([
        readFile(path.join(committed, file), 'utf8'),
        readFile(path.join(generated, file), 'utf8'),
      ]);
      expect(got, file).toBe(want);
    }
  });
});

describe('recorded data checks', () => {
  const header =
    'region,instance_type,vcpus,memory_mib,cpu_arch,cpu_manufacturer,gpu_count,gpu_name,storage_gb,storage_type,network_gbps,price_usd_per_hour,observed_at';
  const good = 'ap-east-1,c5.large,2,4096,X86_64,Intel,0,,0,,0.75,0.108,2024-02-21 08:20:21Z';
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cloudprice-recorded-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function read(lines: string[]) {
    const file = path.join(dir, 'aws.csv');
    await writeFile(file, `${lines.join('\n')}\n`);
    return readAwsRecording(file);
  }

  it('reads a good row', async () => {
    expect(await read([header, good])).toMatchObject([
      { line: 2, instanceType: 'c5.large', priceUsdPerHour: '0.108' },
    ]);
  });

  it.each([
    ['an unparseable price', good.replace(',0.108,', ',0.1o8,'), /line 3, column "price_usd_per_hour"/],
    ['an empty price', good.replace(',0.108,', ',,'), /line 3, column "price_usd_per_hour": empty/],
    ['a zero price', good.replace(',0.108,', ',0,'), /line 3, column "price_usd_per_hour"/],
    ['a missing cell', good.replace(',Intel,', ','), /line 3: 12 cells, the header has 13/],
    ['an unknown region', good.replace('ap-east-1', 'us-east-1'), /line 3, column "region"/],
    ['a GPU name without GPUs', good.replace(',0,,0,', ',0,NVIDIA T4,0,'), /line 3, column "gpu_name"/],
    ['a second row for a type', good, /line 3: ap-east-1 c5.large again \(first on line 2\)/],
  ])('stops on %s, naming the row', async (_name, bad, message) => {
    await expect(read([header, good, bad])).rejects.toThrow(message);
  });

  it('stops on a missing column, naming it', () => {
    expect(() =>
      parseRecordedCsv('a,b\n1,2\n', 'x.csv', ['a', 'b', 'price']),
    ).toThrow(/x.csv line 1: missing column\(s\) price/);
  });
});

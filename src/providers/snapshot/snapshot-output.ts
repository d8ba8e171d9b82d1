// What every snapshot generator does with its files: replace the output folder with them, and,
// when the generator is run as a script, write the bundled snapshot and fail loudly.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** (path relative to the snapshot folder, file text) */
export type SnapshotFile = readonly [string, string];

/** Replaces `outDir` with exactly `files`; returns their relative paths. */
export async function writeSnapshotFiles(
  outDir: string,
  files: readonly SnapshotFile[],
): Promise<string[]> {
  await rm(outDir, { recursive: true, force: true });
  for (const [relative, text] of files) {
    const target = path.join(outDir, relative);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return files.map(([relative]) => relative);
}

/**
 * Runs `generate` when the module at `moduleUrl` is the script node was started with: into
 * argv[2], or data/snapshots/<provider>. A failure prints one line and exits non-zero.
 */
export function runWhenInvoked(
  moduleUrl: string,
  provider: string,
  generate: (outDir: string) => Promise<readonly string[]>,
): void {
  const script = process.argv[1];
  if (script === undefined || moduleUrl !== pathToFileURL(script).href) return;
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'data/snapshots', provider));
  generate(outDir).then(
    (written) => console.log(`${provider} snapshot: wrote ${written.length} files under ${outDir}`),
    (err: unknown) => {
      console.error(
        `${provider} snapshot generation failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      process.exitCode = 1;
    },
  );
}

// Builds the web UI (web/ -> dist/web) with Vite. With --if-needed (what `npm start` runs), the
// build is skipped when dist/web was built from exactly the current sources: a digest of every
// file under web/ and of the lock file is kept in dist/web/.source-digest.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB = path.join(ROOT, 'web');
const OUT = path.join(ROOT, 'dist', 'web');
const STAMP = path.join(OUT, '.source-digest');

function sourceDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile())
        hash.update(path.relative(ROOT, full)).update('\0').update(readFileSync(full));
    }
  };
  walk(WEB);
  hash.update(readFileSync(path.join(ROOT, 'package-lock.json')));
  return hash.digest('hex');
}

const digest = sourceDigest();
if (
  process.argv.includes('--if-needed') &&
  existsSync(path.join(OUT, 'index.html')) &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8') === digest
) {
  process.exit(0);
}
try {
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      path.join(WEB, 'vite.config.ts'),
      '--logLevel',
      'warn',
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
} catch {
  console.error('cloudprice: building the web UI (vite build) failed');
  process.exit(1);
}
writeFileSync(STAMP, digest);

// The two builds `npm start` needs (the server's TypeScript, the web UI) and one rule for both:
// with `ifNeeded`, a build is skipped when its output was built from exactly the current
// sources, which a digest of its inputs kept beside the output proves. A first start builds
// both; later starts skip both until a source changes (the TypeScript build alone takes longer
// than the 10 s a start may take on a 2-core machine: docs/performance.md).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Build {
  readonly name: string;
  /** Files and folders (relative to the repository) whose content decides the output. */
  readonly inputs: readonly string[];
  /** A file the build writes: without it the output is missing whatever the stamp says. */
  readonly output: string;
  /** Where the digest of the inputs the output was built from is kept. */
  readonly stamp: string;
  /** The command, run with the repository as working directory. */
  readonly command: readonly string[];
}

const bin = (pkg: string, file: string) => path.join(ROOT, 'node_modules', pkg, file);

export const serverBuild: Build = {
  name: 'the server (tsc)',
  inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
  output: 'dist/src/main.js',
  stamp: 'dist/src/.source-digest',
  command: [process.execPath, bin('typescript', 'bin/tsc'), '-p', 'tsconfig.build.json'],
};

export const webBuild: Build = {
  name: 'the web UI (vite build)',
  inputs: ['web', 'package-lock.json'],
  output: 'dist/web/index.html',
  stamp: 'dist/web/.source-digest',
  command: [
    process.execPath,
    bin('vite', 'bin/vite.js'),
    'build',
    '--config',
    path.join(ROOT, 'web', 'vite.config.ts'),
    '--logLevel',
    'warn',
  ],
};

/** SHA-256 over the path and content of every file under the inputs, in a fixed order. */
export function sourceDigest(inputs: readonly string[]): string {
  const hash = createHash('sha256');
  const add = (full: string) => {
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(path.join(full, entry));
    } else {
      hash.update(path.relative(ROOT, full)).update('\0').update(readFileSync(full));
    }
  };
  for (const input of inputs) add(path.join(ROOT, input));
  return hash.digest('hex');
}

/** Runs the build unless `ifNeeded` and its output is up to date; exits the process on failure. */
export function runBuild(build: Build, options: { readonly ifNeeded: boolean }): void {
  const digest = sourceDigest(build.inputs);
  const stamp = path.join(ROOT, build.stamp);
  if (
    options.ifNeeded &&
    existsSync(path.join(ROOT, build.output)) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === digest
  ) {
    return;
  }
  try {
    execFileSync(build.command[0]!, build.command.slice(1), { cwd: ROOT, stdio: 'inherit' });
  } catch {
    console.error(`cloudprice: building ${build.name} failed`);
    process.exit(1);
  }
  writeFileSync(stamp, digest);
}

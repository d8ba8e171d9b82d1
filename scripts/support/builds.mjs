// The two builds `npm start` needs (the server's TypeScript, the web UI) and one rule for both:
// with `ifNeeded`, a build is skipped when its output was built from exactly the current
// sources, which a digest of its inputs kept beside the output proves. A first start builds
// both; later starts skip both until a source changes (the TypeScript build alone takes longer
// than the 10 s a start may take on a 2-core machine: docs/performance.md).
//
// Plain JavaScript run by `node`, so a production install (`npm ci --omit=dev`) can run it:
// the build tools are optionalDependencies, installed by `npm ci` with or without
// `--omit=dev`, and left out only by `--omit=optional`, where a prebuilt dist/ must be there
// (the container image does that: docs/adr/0015).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * @typedef {object} Build
 * @property {string} name
 * @property {readonly string[]} inputs Files and folders (relative to the repository) whose
 *   content decides the output.
 * @property {string} output A file the build writes: without it the output is missing whatever
 *   the stamp says.
 * @property {string} stamp Where the digest of the inputs the output was built from is kept.
 * @property {string} tool The script of the build tool, relative to node_modules.
 * @property {readonly string[]} args Its arguments, run with the repository as working directory.
 * @property {string} duration What the build usually takes, for the line printed before it.
 */

/** @type {Build} */
export const serverBuild = {
  name: 'the server (TypeScript, tsc)',
  inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
  output: 'dist/src/main.js',
  stamp: 'dist/src/.source-digest',
  tool: 'typescript/bin/tsc',
  args: ['-p', 'tsconfig.build.json'],
  duration: 'about 15 s on 2 idle cores',
};

/** @type {Build} */
export const webBuild = {
  name: 'the web UI (vite build)',
  inputs: ['web', 'package-lock.json'],
  output: 'dist/web/index.html',
  stamp: 'dist/web/.source-digest',
  tool: 'vite/bin/vite.js',
  args: ['build', '--config', path.join(ROOT, 'web', 'vite.config.ts'), '--logLevel', 'warn'],
  duration: 'about 5 s',
};

/**
 * SHA-256 over the path and content of every file under the inputs, in a fixed order.
 * @param {readonly string[]} inputs
 */
export function sourceDigest(inputs) {
  const hash = createHash('sha256');
  /** @param {string} full */
  const add = (full) => {
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) add(path.join(full, entry));
    } else {
      hash.update(path.relative(ROOT, full)).update('\0').update(readFileSync(full));
    }
  };
  for (const input of inputs) add(path.join(ROOT, input));
  return hash.digest('hex');
}

/** @param {string} message */
function fail(message) {
  console.error(`cloudprice: ${message}`);
  process.exit(1);
}

/**
 * Runs the build unless `ifNeeded` and its output is up to date; says so before a build, since
 * one takes seconds; exits the process with a message on failure.
 * @param {Build} build
 * @param {{ readonly ifNeeded: boolean }} options
 */
export function runBuild(build, options) {
  const digest = sourceDigest(build.inputs);
  const stamp = path.join(ROOT, build.stamp);
  const built = existsSync(path.join(ROOT, build.output));
  if (options.ifNeeded && built && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) {
    return;
  }
  const tool = path.join(ROOT, 'node_modules', build.tool);
  if (!existsSync(tool)) {
    fail(
      `${build.output} is ${built ? 'not built from these sources' : 'missing'} and cannot be ` +
        `built: node_modules/${build.tool} is not installed (an install with --omit=optional). ` +
        'Install with `npm ci --omit=dev` (production) or `npm ci`, which include the build tools.',
    );
  }
  const why = !options.ifNeeded
    ? 'asked for'
    : built
      ? 'its sources changed since the last build'
      : 'not built yet';
  console.error(`cloudprice: building ${build.name} (${why}; ${build.duration})...`);
  const started = Date.now();
  try {
    execFileSync(process.execPath, [tool, ...build.args], { cwd: ROOT, stdio: 'inherit' });
  } catch {
    fail(`building ${build.name} failed (above)`);
  }
  writeFileSync(stamp, digest);
  console.error(
    `cloudprice: built ${build.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

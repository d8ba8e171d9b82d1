// The SQLite binary for Node.js 20, which is end of life and not supported but is what this
// workplace's machines run as `node` (ADR 0005, amendment of 2026-11-24). better-sqlite3 13's
// bundled binary needs Node-API 10 and crashes Node 20 (Node-API 9), so on such a runtime the
// package is compiled here with node-gyp: at Node-API's experimental level, because the C++
// keeps references to strings, which Node 20 allows only there (Node-API 10 made it standard).
// The result goes where src/storage/sqlite/open-sqlite.ts looks for it; on Node-API 10 and
// newer nothing is built. Needs a C++ compiler, make, python3 and the running Node's headers.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { sqliteBindingPlan } from '../../src/storage/sqlite/open-sqlite.js';

const BUNDLED_LEVEL = "'NAPI_VERSION=10'";
const EXPERIMENTAL_LEVEL = "'NAPI_EXPERIMENTAL'";

function fail(message: string): never {
  console.error(`cloudprice: ${message}`);
  process.exit(1);
}

/** npm's own node-gyp (what `npm install` runs for native packages). */
function nodeGyp(): string {
  const candidates = [
    // Set while npm runs a script: <npm>/bin/npm-cli.js.
    process.env['npm_execpath'] && path.join(path.dirname(process.env['npm_execpath']), '..'),
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm'),
  ];
  for (const npm of candidates) {
    const file = npm && path.join(npm, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    if (file && existsSync(file)) return file;
  }
  return fail("cannot find npm's node-gyp to build better-sqlite3 for this Node.js");
}

/** The running Node's headers when they are installed beside it (Debian: /usr/include/node). */
function nodeDirArgs(): string[] {
  const prefix = path.dirname(path.dirname(process.execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))
    ? [`--nodedir=${prefix}`]
    : [];
}

/**
 * Builds the local binary when this runtime needs one and it is missing; returns at once
 * otherwise. Exits the process with a message on failure.
 */
export function ensureSqliteBinaryForNode20(): void {
  const { version, packageDir, localBinary } = sqliteBindingPlan();
  if (localBinary === undefined || existsSync(localBinary)) return;
  console.error(
    `cloudprice: Node.js ${process.version} (Node-API ${process.versions.napi}) cannot load ` +
      `better-sqlite3 ${version}'s bundled binary; compiling one for it (a few minutes, once). ` +
      'Node.js 22 and 24 need no compiling (README).',
  );
  // Inside node_modules, so the build's `require('node-addon-api')` finds the sibling package.
  const work = mkdtempSync(path.join(path.dirname(packageDir), '.better-sqlite3-node20-'));
  try {
    cpSync(packageDir, work, { recursive: true });
    const gyp = path.join(work, 'binding.gyp');
    const source = readFileSync(gyp, 'utf8');
    if (!source.includes(BUNDLED_LEVEL)) {
      fail(
        `better-sqlite3 ${version}'s binding.gyp no longer defines ${BUNDLED_LEVEL}; see ADR 0005`,
      );
    }
    writeFileSync(gyp, source.replace(BUNDLED_LEVEL, EXPERIMENTAL_LEVEL));
    const args = [
      nodeGyp(),
      'rebuild',
      '--release',
      '--force_build=1',
      `--jobs=${availableParallelism()}`,
      ...nodeDirArgs(),
    ];
    try {
      // Quiet unless it fails: the compiler's warnings about SQLite's C are not ours to act on.
      execFileSync(process.execPath, args, {
        cwd: work,
        stdio: 'pipe',
        maxBuffer: 256 * 1024 * 1024,
        // binding.gyp runs `node`: the one running this, not another on PATH.
        env: {
          ...process.env,
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env['PATH'] ?? ''}`,
        },
      });
    } catch (error) {
      const output = error as { stdout?: Buffer; stderr?: Buffer };
      process.stderr.write(output.stdout ?? '');
      process.stderr.write(output.stderr ?? '');
      fail(
        `compiling better-sqlite3 ${version} for Node.js ${process.version} failed (above). ` +
          'Use Node.js 22 or 24, which need no compiling, or install a C++ compiler, make, ' +
          "python3 and this Node's headers.",
      );
    }
    mkdirSync(path.dirname(localBinary), { recursive: true });
    cpSync(path.join(work, 'build', 'Release', 'better_sqlite3.node'), `${localBinary}.tmp`);
    renameSync(`${localBinary}.tmp`, localBinary);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

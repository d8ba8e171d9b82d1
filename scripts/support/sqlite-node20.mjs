// The SQLite binary for Node.js 20, which is end of life and not supported but is what this
// workplace's machines run as `node` (ADR 0005, amendment of 2026-11-24). better-sqlite3 13's
// bundled binary needs Node-API 10 and crashes Node 20 (Node-API 9), so on such a runtime the
// package is compiled here with node-gyp: at Node-API's experimental level, because the C++
// keeps references to strings, which Node 20 allows only there (Node-API 10 made it standard).
// The result goes where src/storage/sqlite/open-sqlite.ts looks for it; on Node-API 10 and
// newer nothing is built. Needs a C++ compiler, make, python3 and the running Node's headers.
// Plain JavaScript run by `node` (postinstall, prestart): a production install has no TypeScript
// runner, so the place of the binary is computed here as open-sqlite.ts computes it
// (`sqliteBindingPlan`); a test holds the two to the same answer.
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
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import betterSqlite from 'better-sqlite3/package.json' with { type: 'json' };

const require = createRequire(import.meta.url);

/** The Node-API version the bundled binary of better-sqlite3 13 is built for. */
const BUNDLED_BINARY_NODE_API = 10;

/**
 * Which binary this runtime needs: `localBinary` is undefined when the bundled one loads.
 * @returns {{ version: string, packageDir: string, localBinary: string | undefined }}
 */
export function sqliteBindingPlan() {
  const manifest = require.resolve('better-sqlite3/package.json');
  const { version } = betterSqlite;
  const packageDir = path.dirname(manifest);
  const nodeApi = Number(process.versions.napi);
  const major = Number(version.split('.')[0]);
  const localBinary =
    major >= 13 && nodeApi < BUNDLED_BINARY_NODE_API
      ? path.join(packageDir, `build-node-api-${nodeApi}`, 'better_sqlite3.node')
      : undefined;
  return { version, packageDir, localBinary };
}

const BUNDLED_LEVEL = "'NAPI_VERSION=10'";
const EXPERIMENTAL_LEVEL = "'NAPI_EXPERIMENTAL'";

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`cloudprice: ${message}`);
  process.exit(1);
}

/** npm's own node-gyp (what `npm install` runs for native packages). */
/** @returns {string} */
function nodeGyp() {
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
/** @returns {string[]} */
function nodeDirArgs() {
  const prefix = path.dirname(path.dirname(process.execPath));
  return existsSync(path.join(prefix, 'include', 'node', 'node_api.h'))
    ? [`--nodedir=${prefix}`]
    : [];
}

/**
 * Builds the local binary when this runtime needs one and it is missing; returns at once
 * otherwise. Exits the process with a message on failure.
 */
export function ensureSqliteBinaryForNode20() {
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
      const output = /** @type {{ stdout?: Buffer, stderr?: Buffer }} */ (error);
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

// Every SQLite connection of the service, its CLI and its tests is opened here, because which
// native binary better-sqlite3 loads depends on the runtime (ADR 0005):
// - better-sqlite3 13 ships one Node-API binary per platform (`prebuilds/`), built for
//   Node-API 10. Node.js 22 and 24 (Node-API 10) load it as it is; it does not depend on the ABI.
// - Node.js 20 has Node-API 9. Loading that binary there does not throw: Node 20 crashes with
//   SIGSEGV right after deciding the version is too new. The package's C++ also needs a Node-API
//   10 behaviour (references to strings) that Node 20 only offers at its experimental level, so
//   on Node-API < 10 a binary compiled locally at that level is used instead
//   (scripts/support/sqlite-node20.mjs builds it on `npm ci` and `npm start`).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The Node-API version the bundled binary of better-sqlite3 13 is built for. */
export const BUNDLED_BINARY_NODE_API = 10;

export interface SqliteBindingPlan {
  /** better-sqlite3's installed version. */
  readonly version: string;
  readonly packageDir: string;
  /** Where the local binary for this runtime is, or undefined when the bundled one loads. */
  readonly localBinary: string | undefined;
}

let plan: SqliteBindingPlan | undefined;

/** Which binary this runtime needs; the answer does not change during a process. */
export function sqliteBindingPlan(): SqliteBindingPlan {
  if (plan) return plan;
  const manifest = require.resolve('better-sqlite3/package.json');
  const { version } = require(manifest) as { version: string };
  const packageDir = path.dirname(manifest);
  const nodeApi = Number(process.versions.napi);
  // better-sqlite3 12 (a node_modules installed before the upgrade) compiles per ABI instead.
  const major = Number(version.split('.')[0]);
  const localBinary =
    major >= 13 && nodeApi < BUNDLED_BINARY_NODE_API
      ? path.join(packageDir, `build-node-api-${nodeApi}`, 'better_sqlite3.node')
      : undefined;
  plan = { version, packageDir, localBinary };
  return plan;
}

/**
 * The `nativeBinding` option for this runtime: undefined on Node-API 10 and newer; on older
 * runtimes the local binary, or an error that says what to do when it was never built (instead
 * of the crash the bundled binary would cause).
 */
export function nativeBindingForThisRuntime(): string | undefined {
  const { version, localBinary } = sqliteBindingPlan();
  if (localBinary === undefined || existsSync(localBinary)) return localBinary;
  throw new Error(
    `better-sqlite3 ${version} bundles a binary for Node-API ${BUNDLED_BINARY_NODE_API} ` +
      `(Node.js 22.13 or newer); Node.js ${process.version} has Node-API ` +
      `${process.versions.napi} and would crash loading it. Use Node.js 22 or 24 (supported), ` +
      `or build a binary for this Node.js with \`npm run sqlite:node20\` (needs a C++ compiler, ` +
      `make, python3 and the Node.js headers; README "Quick start").`,
  );
}

/** `new Database(file, options)` with the native binary this runtime can load. */
export function openSqlite(file: string, options: Database.Options = {}): Database.Database {
  const nativeBinding = nativeBindingForThisRuntime();
  return new Database(file, nativeBinding === undefined ? options : { ...options, nativeBinding });
}

// What `npm start` runs first: the SQLite binary when the runtime needs a local one (Node.js 20,
// scripts/support/sqlite-node20.ts), then the server build and the web build, each only when
// its output is missing or was built from other sources (scripts/support/builds.ts). One
// process for all, since starting a TypeScript runner costs about a second of CPU.
import { runBuild, serverBuild, webBuild } from './support/builds.js';
import { ensureSqliteBinaryForNode20 } from './support/sqlite-node20.js';

ensureSqliteBinaryForNode20();
runBuild(serverBuild, { ifNeeded: true });
runBuild(webBuild, { ifNeeded: true });

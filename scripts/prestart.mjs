// What `npm start` runs first: the SQLite binary when the runtime needs a local one (Node.js 20,
// scripts/support/sqlite-node20.mjs), then the server build and the web build, each only when
// its output is missing or was built from other sources (scripts/support/builds.mjs). Plain
// JavaScript run by `node`: a production install has no TypeScript runner (docs/adr/0015).
import { runBuild, serverBuild, webBuild } from './support/builds.mjs';
import { ensureSqliteBinaryForNode20 } from './support/sqlite-node20.mjs';

ensureSqliteBinaryForNode20();
runBuild(serverBuild, { ifNeeded: true });
runBuild(webBuild, { ifNeeded: true });

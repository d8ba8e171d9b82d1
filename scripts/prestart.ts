// What `npm start` runs first: the server build and the web build, each only when its output
// is missing or was built from other sources (scripts/support/builds.ts). One process for
// both, since starting a TypeScript runner costs about a second of CPU.
import { runBuild, serverBuild, webBuild } from './support/builds.js';

runBuild(serverBuild, { ifNeeded: true });
runBuild(webBuild, { ifNeeded: true });

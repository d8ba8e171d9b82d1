// Builds the web UI (web/ -> dist/web) with Vite. With --if-needed the build is skipped when
// dist/web was built from exactly the current sources (scripts/support/builds.mjs).
import { runBuild, webBuild } from './support/builds.mjs';

runBuild(webBuild, { ifNeeded: process.argv.includes('--if-needed') });

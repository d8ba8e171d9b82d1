// `npm run sqlite:node20`, also run by `npm ci`/`npm install` (postinstall): builds the SQLite
// binary Node.js 20 needs (scripts/support/sqlite-node20.mjs); on Node.js 22 and 24 it does
// nothing. Plain JavaScript run by `node`: a production install has no TypeScript runner.
import { ensureSqliteBinaryForNode20 } from './support/sqlite-node20.mjs';

ensureSqliteBinaryForNode20();

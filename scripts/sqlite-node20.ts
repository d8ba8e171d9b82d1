// `npm run sqlite:node20`, also run by `npm ci`/`npm install` (postinstall): builds the SQLite
// binary Node.js 20 needs (scripts/support/sqlite-node20.ts); on Node.js 22 and 24 it does nothing.
import { ensureSqliteBinaryForNode20 } from './support/sqlite-node20.js';

ensureSqliteBinaryForNode20();

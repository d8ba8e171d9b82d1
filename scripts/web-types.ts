// `npm run web:types`: writes web/src/api-types.ts from the document the app serves (see
// web-api-types.ts). No network: the app is built in-process and asked with inject.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultAppTypes, WEB_API_TYPES_FILE } from './web-api-types.js';

writeFileSync(WEB_API_TYPES_FILE, await defaultAppTypes());
console.log(`wrote ${path.relative(process.cwd(), WEB_API_TYPES_FILE)}`);

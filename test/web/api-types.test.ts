// The web UI's API types are the served document's (ARCHITECTURE habit 14): web/src/api-types.ts
// must be exactly what openapi-typescript generates from GET /openapi.json of the app as
// `npm start` builds it. A route schema changed without `npm run web:types` fails here.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { defaultAppTypes, WEB_API_TYPES_FILE } from '../../scripts/web-api-types.js';

it('web/src/api-types.ts is what the served OpenAPI document generates (npm run web:types)', async () => {
  const committed = readFileSync(WEB_API_TYPES_FILE, 'utf8');
  const generated = await defaultAppTypes();
  expect(committed, 'run `npm run web:types` and commit the file').toBe(generated);
  // The page's record type is the document's schema, not a copy.
  expect(generated).toContain('InstanceRecord: {');
}, 60_000);

// The image's HEALTHCHECK: exits 0 when the server in this container answers GET /health, with
// 200 (healthy) or 503 (degraded or unhealthy: the process works and serves the catalogue, see
// docs/operations.md "Health checks"), and 1 otherwise, also while it drains after SIGTERM
// (`shutting_down`). Sends a key, so the check never counts as a failed authentication: the
// first of API_KEYS, else of API_KEYS_FILE, else of the key file generated in DATA_DIR.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';

/** @param {string} file @returns {string | undefined} */
function firstKeyIn(file) {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && !line.startsWith('#'));
  } catch {
    return undefined;
  }
}

const env = process.env;
const key =
  env['API_KEYS']?.split(',')[0]?.trim() ||
  firstKeyIn(env['API_KEYS_FILE'] ?? path.join(env['DATA_DIR'] ?? './data', 'api-keys')) ||
  '';

const req = request(
  { host: '127.0.0.1', port: Number(env['PORT'] ?? 8080), path: '/health', timeout: 4000 },
  (res) => {
    let body = '';
    res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    res.on('end', () => {
      const up =
        (res.statusCode === 200 || res.statusCode === 503) && !/"shutting_down"/.test(body);
      if (!up) console.error(`GET /health answered ${res.statusCode}: ${body.slice(0, 200)}`);
      process.exit(up ? 0 : 1);
    });
  },
);
req.setHeader('X-API-Key', key);
req.on('timeout', () => req.destroy(new Error('no answer within 4 s')));
req.on('error', (error) => {
  console.error(`GET /health failed: ${error.message}`);
  process.exit(1);
});
req.end();

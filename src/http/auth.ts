import { timingSafeEqual } from 'node:crypto';
import { digestKey, type KeyDigest } from '../keys/key-digest.js';

/**
 * API key check (D5): it is given only SHA-256 digests of the configured keys; a candidate is
 * hashed and compared with `timingSafeEqual` against every configured digest, without stopping
 * at a match, so neither the length nor the content of a wrong key changes the timing.
 */
export function createApiKeyVerifier(
  digests: readonly KeyDigest[],
): (candidate: unknown) => boolean {
  const decoy = digestKey('');
  return (candidate) => {
    const given = typeof candidate === 'string' ? digestKey(candidate) : decoy;
    let match = false;
    for (const expected of digests) {
      // Bitwise OR, not ||: every digest is compared whatever the earlier results were.
      match = timingSafeEqual(given, expected) || match;
    }
    return match && typeof candidate === 'string';
  };
}

/**
 * The key a request presents: `X-API-Key` (D5); on POST /mcp only (`bearer`), `Authorization:
 * Bearer <key>` when X-API-Key is absent, since MCP hosts often send only that (D66). Every
 * other endpoint reads X-API-Key alone, as the specification says.
 */
export function apiKeyOf(
  headers: { 'x-api-key'?: string | string[] | undefined; authorization?: string | undefined },
  bearer: boolean,
): unknown {
  const key = headers['x-api-key'];
  if (key !== undefined || !bearer) return key;
  const match = /^Bearer +(\S+) *$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

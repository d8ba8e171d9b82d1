import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * API key check (D5): only SHA-256 digests of the configured keys are kept; a candidate is
 * hashed and compared with `timingSafeEqual` against every configured digest, without stopping
 * at a match, so neither the length nor the content of a wrong key changes the timing.
 */
export function createApiKeyVerifier(keys: readonly string[]): (candidate: unknown) => boolean {
  const digests = keys.map(digest);
  const decoy = digest('');
  return (candidate) => {
    const given = typeof candidate === 'string' ? digest(candidate) : decoy;
    let match = false;
    for (const expected of digests) {
      // Bitwise OR, not ||: every digest is compared whatever the earlier results were.
      match = timingSafeEqual(given, expected) || match;
    }
    return match && typeof candidate === 'string';
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

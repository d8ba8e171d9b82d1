import { hash } from 'node:crypto';

/**
 * The SHA-256 digest of an API key: the only form in which a key stays in memory (D5). Keys are
 * digested as soon as they are read (configuration, keys file, generation) and the text is
 * dropped, so a heap dump or a core file of a running server holds no usable key.
 */
export type KeyDigest = Buffer;

export function digestKey(key: string): KeyDigest {
  // One-shot: every request's key is digested (auth.ts), and a Hash object per request showed
  // in the cached /instances profile.
  return hash('sha256', key, 'buffer');
}

/** First 8 hex characters of the digest: enough to tell keys apart, useless to an attacker. */
export function digestFingerprint(digest: KeyDigest): string {
  return digest.toString('hex').slice(0, 8);
}

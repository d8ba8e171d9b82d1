// API keys from configuration, a keys file, or (D6) a key generated on first start and kept in
// the data directory with mode 0600.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { digestKey, type KeyDigest } from './key-digest.js';

export const GENERATED_KEYS_FILE = 'api-keys';

export interface ResolvedKeys {
  /** SHA-256 digests of the accepted keys; the keys themselves are not kept (D5). */
  readonly digests: readonly KeyDigest[];
  /** Where the keys came from, for the start-up message. */
  readonly source: 'API_KEYS' | 'API_KEYS_FILE' | 'generated' | 'data-dir';
  readonly file?: string;
  /**
   * The key this start generated, the first time it is called, so it can be printed once (D6);
   * undefined afterwards, and when no key was generated. After that only its digest remains.
   */
  takeGeneratedKey(): string | undefined;
}

/** 32 random bytes, base64url: 43 characters. */
export function generateKey(): string {
  return randomBytes(32).toString('base64url');
}

/** One key per line; blank lines and `#` comments ignored. */
export function readKeysFile(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

export function writeKeysFile(file: string, keys: readonly string[]): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `# cloudprice API keys, one per line\n${keys.join('\n')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export function keysFileOf(config: Config): string {
  return config.apiKeysFile ?? path.join(config.dataDir, GENERATED_KEYS_FILE);
}

export function resolveApiKeys(config: Config): ResolvedKeys {
  const nothingGenerated = () => undefined;
  if (config.apiKeyDigests.length > 0) {
    return {
      digests: config.apiKeyDigests,
      source: 'API_KEYS',
      takeGeneratedKey: nothingGenerated,
    };
  }
  const file = keysFileOf(config);
  if (config.apiKeysFile !== undefined) {
    const digests = readKeysFile(file).map(digestKey);
    if (digests.length === 0) throw new Error(`API_KEYS_FILE ${file} holds no keys`);
    return { digests, source: 'API_KEYS_FILE', file, takeGeneratedKey: nothingGenerated };
  }
  if (existsSync(file)) {
    const digests = readKeysFile(file).map(digestKey);
    if (digests.length > 0) {
      return { digests, source: 'data-dir', file, takeGeneratedKey: nothingGenerated };
    }
  }
  let generated: string | undefined = generateKey();
  writeKeysFile(file, [generated]);
  return {
    digests: [digestKey(generated)],
    source: 'generated',
    file,
    takeGeneratedKey() {
      const key = generated;
      generated = undefined;
      return key;
    },
  };
}

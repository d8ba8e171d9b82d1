// `cloudprice keys create|list|revoke` (D6 rotation, extension): several keys may be valid at
// once, so a new key is added before the old one is revoked. The text transformations are pure;
// the file is only ever replaced whole (temporary file + rename, mode 0600), never half-written.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { digestFingerprint, digestKey, type KeyDigest } from '../keys/key-digest.js';
import { generateKey, keysFileOf } from '../keys/key-file.js';
import {
  configOf,
  EXIT_FAILURE,
  EXIT_OK,
  parseCommandArgs,
  UsageError,
  type CliIo,
} from './cli-common.js';

export const KEYS_USAGE = `Usage: cloudprice keys <create|list|revoke> [options]

  keys create                 add a new random key to the keys file and print it (once)
  keys list                   print the fingerprint of every configured key (never the key)
  keys revoke <fingerprint>   remove the key with that fingerprint from the keys file
      --force                 allow removing the last key

The keys file is API_KEYS_FILE, or $DATA_DIR/api-keys. Keys set in API_KEYS are managed in the
environment and cannot be changed here. Running servers read keys at start: restart them after
create or revoke.`;

const FILE_HEADER = '# cloudprice API keys, one per line\n';
const FINGERPRINT = /^[0-9a-f]{8,64}$/;
const RESTART_NOTE =
  'Running servers read keys at start: restart them (one replica at a time) for this to take effect.';

/** First 8 hex characters of the key's SHA-256: enough to tell keys apart, useless to an attacker. */
export function keyFingerprint(key: string): string {
  return digestFingerprint(digestKey(key));
}

function fullFingerprint(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The keys in a keys file's text, by the server's rules (readKeysFile): trimmed lines, blank and `#` lines skipped. */
export function keysInText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** The file's text with `key` as a new last line; comments and other keys are kept as they are. */
export function appendKeyToText(text: string | undefined, key: string): string {
  const base = text === undefined || text === '' ? FILE_HEADER : text;
  return `${base}${base.endsWith('\n') ? '' : '\n'}${key}\n`;
}

export type RevokeOutcome =
  | { readonly kind: 'revoked'; readonly text: string; readonly remaining: number }
  | { readonly kind: 'not-found' }
  /** The prefix matches more than one distinct key; nothing is removed. */
  | { readonly kind: 'ambiguous'; readonly count: number };

/**
 * Removes the key whose SHA-256 hex starts with `fingerprint` (lower case). Every line holding
 * that key goes, so a key listed twice is really revoked; every other line stays byte for byte.
 */
export function revokeKeyInText(text: string, fingerprint: string): RevokeOutcome {
  const matching = new Set(
    keysInText(text).filter((key) => fullFingerprint(key).startsWith(fingerprint)),
  );
  if (matching.size === 0) return { kind: 'not-found' };
  if (matching.size > 1) return { kind: 'ambiguous', count: matching.size };
  const lines = text.split('\n').filter((line) => !matching.has(line.trim()));
  const result = lines.join('\n');
  return { kind: 'revoked', text: result, remaining: new Set(keysInText(result)).size };
}

/**
 * Replaces `file` with `content` atomically: a reader sees the old file or the new one, never
 * a mix, and a crash leaves at worst a stray temporary file. The new file has mode 0600.
 */
export function writeFileAtomic(file: string, content: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  // 'wx': never follow or reuse something already at the temporary name.
  const fd = openSync(temp, 'wx', 0o600);
  try {
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(dir);
}

/** Makes the rename durable; some file systems cannot fsync a directory, which is not fatal. */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // The rename itself succeeded; only its durability across a power cut is weaker.
  }
}

/** The file's text, or undefined when it does not exist (any other error propagates). */
function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export function runKeysCommand(args: readonly string[], io: CliIo): number {
  const [action, ...rest] = args;
  if (action === '--help' || action === '-h' || action === 'help') {
    io.out(KEYS_USAGE);
    return EXIT_OK;
  }
  switch (action) {
    case 'create':
      return keysCreate(rest, io);
    case 'list':
      return keysList(rest, io);
    case 'revoke':
      return keysRevoke(rest, io);
    case undefined:
      throw new UsageError('missing keys command (create, list or revoke)', 'keys');
    default:
      throw new UsageError(`unknown keys command "${action}"`, 'keys');
  }
}

function helpOnly(command: string, args: readonly string[], io: CliIo): boolean {
  const { values } = parseCommandArgs(
    command,
    args,
    { help: { type: 'boolean', short: 'h' } },
    false,
  );
  if (values.help === true) io.out(KEYS_USAGE);
  return values.help === true;
}

/** API_KEYS wins over any file at start (resolveApiKeys), so editing the file would change nothing. */
function refuseEnvironmentKeys(config: Config, io: CliIo): boolean {
  if (config.apiKeyDigests.length === 0) return false;
  io.err(
    'cloudprice: API_KEYS is set: its keys are managed in the environment, and the server ' +
      'ignores the keys file while it is set. Change API_KEYS (comma-separated; several keys ' +
      'may be valid at once) and restart the servers, or unset it to use the keys file.',
  );
  return true;
}

function keysCreate(args: readonly string[], io: CliIo): number {
  if (helpOnly('keys create', args, io)) return EXIT_OK;
  const config = configOf(io);
  if (refuseEnvironmentKeys(config, io)) return EXIT_FAILURE;
  const file = keysFileOf(config);
  const key = generateKey();
  writeFileAtomic(file, appendKeyToText(readIfExists(file), key));
  // stdout carries the key alone, so `KEY=$(cloudprice keys create)` works; the rest is stderr.
  io.out(key);
  io.err(`Added key ${keyFingerprint(key)} to ${file} (mode 0600). It is not shown again.`);
  io.err(RESTART_NOTE);
  return EXIT_OK;
}

function keysList(args: readonly string[], io: CliIo): number {
  if (helpOnly('keys list', args, io)) return EXIT_OK;
  const config = configOf(io);
  let digests: readonly KeyDigest[];
  if (config.apiKeyDigests.length > 0) {
    digests = config.apiKeyDigests;
    io.err('Keys from API_KEYS (the keys file is ignored while it is set):');
  } else {
    const file = keysFileOf(config);
    const text = readIfExists(file);
    if (text === undefined) {
      if (config.apiKeysFile !== undefined) {
        io.err(`cloudprice: API_KEYS_FILE ${file} does not exist; the server will not start.`);
        return EXIT_FAILURE;
      }
      io.err(`No keys file at ${file}: the server generates a key there on its first start.`);
      return EXIT_OK;
    }
    digests = keysInText(text).map(digestKey);
    io.err(`Keys in ${file}:`);
  }
  const distinct = [...new Map(digests.map((d) => [d.toString('hex'), d])).values()];
  for (const digest of distinct) io.out(digestFingerprint(digest));
  io.err(`${distinct.length} key(s).`);
  return EXIT_OK;
}

function keysRevoke(args: readonly string[], io: CliIo): number {
  const { values, positionals } = parseCommandArgs(
    'keys revoke',
    args,
    { help: { type: 'boolean', short: 'h' }, force: { type: 'boolean' } },
    true,
  );
  if (values.help === true) {
    io.out(KEYS_USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) {
    throw new UsageError('give exactly one key fingerprint (see `cloudprice keys list`)', 'keys');
  }
  const fingerprint = positionals[0]!.toLowerCase();
  if (!FINGERPRINT.test(fingerprint)) {
    throw new UsageError(
      `"${positionals[0]}" is not a fingerprint (8 or more hex characters, from \`cloudprice keys list\`)`,
      'keys',
    );
  }
  const config = configOf(io);
  if (refuseEnvironmentKeys(config, io)) return EXIT_FAILURE;
  const file = keysFileOf(config);
  const text = readIfExists(file);
  const outcome =
    text === undefined ? ({ kind: 'not-found' } as const) : revokeKeyInText(text, fingerprint);
  if (outcome.kind === 'not-found') {
    io.err(`cloudprice: no key with fingerprint ${fingerprint} in ${file}`);
    return EXIT_FAILURE;
  }
  if (outcome.kind === 'ambiguous') {
    io.err(
      `cloudprice: ${fingerprint} matches ${outcome.count} keys in ${file}; nothing was removed. ` +
        'Give more characters of the SHA-256 of the key.',
    );
    return EXIT_FAILURE;
  }
  if (outcome.remaining === 0 && values.force !== true) {
    io.err(
      `cloudprice: ${fingerprint} is the last key in ${file}; removing it would lock every ` +
        'client out. Create a new key first, or repeat with --force.',
    );
    return EXIT_FAILURE;
  }
  writeFileAtomic(file, outcome.text);
  io.out(`Revoked key ${fingerprint} from ${file}; ${outcome.remaining} key(s) remain.`);
  if (outcome.remaining === 0) {
    io.out(
      config.apiKeysFile !== undefined
        ? 'The file holds no keys now: the server will refuse to start until one is added.'
        : 'The file holds no keys now: the server will generate a new key at its next start.',
    );
  }
  io.out(RESTART_NOTE);
  return EXIT_OK;
}

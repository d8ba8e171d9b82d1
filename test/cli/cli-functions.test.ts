// The CLI's pure parts: keys file text edits, provider argument checks and the sync table.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-common.js';
import {
  appendKeyToText,
  keyFingerprint,
  keysInText,
  revokeKeyInText,
} from '../../src/cli/keys-command.js';
import { formatSyncTable, providersToSync } from '../../src/cli/sync-command.js';
import { readKeysFile, writeKeysFile } from '../../src/keys/key-file.js';
import type { SyncReport } from '../../src/sync/sync-service.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const sha = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

describe('keys file text', () => {
  it('a fingerprint is the first 8 hex characters of the SHA-256 of the key', () => {
    expect(keyFingerprint('abc')).toBe('ba7816bf');
  });

  it('keysInText reads exactly what the server reads (readKeysFile)', () => {
    const text = '# comment\n  key-one-0123456789  \n\n#key-commented\r\nkey-two-0123456789\r\n';
    const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-keys-text-'));
    try {
      const file = path.join(dir, 'keys');
      writeFileSync(file, text);
      expect(keysInText(text)).toEqual(readKeysFile(file));
      expect(keysInText(text)).toEqual(['key-one-0123456789', 'key-two-0123456789']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('appending to a missing or empty file starts it with the header the server writes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-keys-text-'));
    try {
      const file = path.join(dir, 'keys');
      writeKeysFile(file, ['k']);
      const written = readFileSync(file, 'utf8');
      expect(appendKeyToText(undefined, 'k')).toBe(written);
      expect(appendKeyToText('', 'k')).toBe(written);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('appending keeps every existing byte and adds a missing final newline first', () => {
    expect(appendKeyToText('# mine\nold', 'new')).toBe('# mine\nold\nnew\n');
    expect(appendKeyToText('# mine\nold\n', 'new')).toBe('# mine\nold\nnew\n');
  });

  it('revoking removes every line of that key and keeps the other lines byte for byte', () => {
    const text = '# keep me\nkey-a\n  key-b  \nkey-a\n# trailing comment\n';
    const outcome = revokeKeyInText(text, keyFingerprint('key-a'));
    expect(outcome).toEqual({
      kind: 'revoked',
      text: '# keep me\n  key-b  \n# trailing comment\n',
      remaining: 1,
    });
  });

  it('a fingerprint matching no key, or a commented-out key, is not found', () => {
    expect(revokeKeyInText('# key-a\nkey-b\n', keyFingerprint('key-a'))).toEqual({
      kind: 'not-found',
    });
  });

  it('a prefix matching two different keys removes nothing (ambiguous)', () => {
    // Two keys whose digests share the first hex character.
    const keys = Array.from({ length: 40 }, (_, i) => `key-${i}`);
    const first = keys[0]!;
    const twin = keys.slice(1).find((k) => sha(k)[0] === sha(first)[0])!;
    expect(twin).toBeDefined();
    const outcome = revokeKeyInText(`${first}\n${twin}\n`, sha(first)[0]!);
    expect(outcome).toEqual({ kind: 'ambiguous', count: 2 });
    // The full digest tells them apart.
    expect(revokeKeyInText(`${first}\n${twin}\n`, sha(first))).toMatchObject({
      kind: 'revoked',
      text: `${twin}\n`,
    });
  });

  it('removing the only key reports zero remaining', () => {
    expect(revokeKeyInText('# h\nonly\n', keyFingerprint('only'))).toEqual({
      kind: 'revoked',
      text: '# h\n',
      remaining: 0,
    });
  });
});

describe('sync arguments and table', () => {
  it('no names means every provider; names are deduplicated in the order given', () => {
    expect(providersToSync([])).toEqual(['provider_a', 'provider_b', 'provider_c']);
    expect(providersToSync(['provider_c', 'provider_a', 'provider_c'])).toEqual([
      'provider_c',
      'provider_a',
    ]);
  });

  it('unknown names are a usage error listing all of them', () => {
    expect(() => providersToSync(['provider_a', 'Provider_B', 'x'])).toThrow(UsageError);
    expect(() => providersToSync(['provider_a', 'Provider_B', 'x'])).toThrow(/Provider_B, x/);
  });

  it('the table has one aligned row per provider with the error code of failures', () => {
    const report: SyncReport = {
      sync_id: 'sync_1_abcdefgh',
      success: false,
      started_at: '2026-01-01T00:00:00.000Z',
      completed_at: '2026-01-01T00:00:01.000Z',
      total_duration_ms: 1000,
      providers: [
        {
          provider: 'provider_a',
          success: true,
          regions_synced: 3,
          instances_synced: 28,
          pricing_synced: 76,
          duration_ms: 120,
        },
        {
          provider: 'provider_b',
          success: false,
          regions_synced: 0,
          instances_synced: 0,
          pricing_synced: 0,
          duration_ms: 5,
          error: 'boom',
          error_details: { code: 'UPSTREAM_TIMEOUT', message: 'boom' },
        },
      ],
      summary: {
        total_providers: 2,
        successful_providers: 1,
        failed_providers: 1,
        total_regions: 3,
        total_instances: 28,
        total_pricing: 76,
      },
    };
    const lines = formatSyncTable(report).split('\n');
    expect(lines[0]).toBe('PROVIDER    STATUS  REGIONS  INSTANCES  PRICES  DURATION  ERROR');
    expect(lines[1]).toBe('provider_a  ok            3         28      76    120 ms');
    expect(lines[2]).toBe(
      'provider_b  FAILED        0          0       0      5 ms  UPSTREAM_TIMEOUT: boom',
    );
    expect(lines[4]).toContain('1 of 2 provider(s) synced');
  });
});

// Which addresses a webhook may reach (D42, issue 22 item 7): link-local and cloud metadata
// addresses are refused in every mode, whatever form the address takes (IPv4, IPv6, IPv4
// carried in IPv6) and whether it is written in the URL or is what a host name resolves to.
import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  isLinkLocalOrMetadata,
  isNonPublicAddress,
  resolveTarget,
  TargetRefused,
} from '../../src/events/target-address.js';

const NEVER = [
  '169.254.169.254',
  '169.254.0.1',
  '100.100.100.200',
  'fe80::1',
  'FE80::a9fe:a9fe',
  'febf:ffff::1',
  'fe80::1%eth0',
  'fd00:ec2::254',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '0:0:0:0:0:ffff:a9fe:a9fe',
  '::169.254.169.254',
  '64:ff9b::169.254.169.254',
  '64:ff9b::a9fe:a9fe',
];
const PRIVATE_ONLY = ['127.0.0.1', '10.2.3.4', '192.168.1.1', '::1', 'fd12::1', '::ffff:10.0.0.1'];
const PUBLIC = ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14'];

describe('webhook target addresses', () => {
  it.each(NEVER)('refuses %s in every mode', (address) => {
    expect(isLinkLocalOrMetadata(address)).toBe(true);
    expect(isNonPublicAddress(address)).toBe(true);
    for (const allowPrivate of [false, true]) {
      expect(addressRefusal([{ address }], allowPrivate)).toMatch(/link-local or cloud metadata/);
    }
  });

  it.each(PRIVATE_ONLY)('allows %s only when private targets are allowed', (address) => {
    expect(isLinkLocalOrMetadata(address)).toBe(false);
    expect(addressRefusal([{ address }], false)).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
    expect(addressRefusal([{ address }], true)).toBeUndefined();
  });

  it.each(PUBLIC)('allows public %s', (address) => {
    expect(isNonPublicAddress(address)).toBe(false);
    expect(addressRefusal([{ address }], false)).toBeUndefined();
  });

  it('refuses a host name when any of its addresses is link-local, even with private allowed', () => {
    // What a resolver answers for a name such as metadata.google.internal, or a name whose
    // owner added a metadata address beside a good one.
    const answers = [{ address: '10.0.0.5' }, { address: '169.254.169.254' }];
    expect(addressRefusal(answers, true)).toMatch(/link-local or cloud metadata/);
    expect(addressRefusal([{ address: '10.0.0.5' }], true)).toBeUndefined();
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://0xa9fea9fe/',
    'http://169.254.43518/',
    'http://[fd00:ec2::254]/',
  ])('resolveTarget refuses %s with private targets allowed', async (url) => {
    const refused = resolveTarget(new URL(url), true, 1_000);
    await expect(refused).rejects.toBeInstanceOf(TargetRefused);
    await expect(refused).rejects.toThrow(/link-local or cloud metadata/);
  });

  it('resolveTarget still allows a loopback target with private targets allowed', async () => {
    const target = await resolveTarget(new URL('http://localhost:9/'), true, 1_000);
    expect(['127.0.0.1', '::1']).toContain(target.address);
  });
});

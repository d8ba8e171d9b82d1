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

// Issue 35 item 11: IPv6 transition forms that carry an IPv4 address (6to4, NAT64 well-known
// and local-use, Teredo) and the deprecated site-local range.
describe('webhook target addresses in IPv6 transition forms', () => {
  it.each([
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:0a00:0001::1', // 6to4 of 10.0.0.1
    '2002:c0a8:0101:1::5', // 6to4 of 192.168.1.1
    '64:ff9b:1::a00:1', // local-use NAT64 (/96 position) of 10.0.0.1
    '64:ff9b:1:a00:1::', // local-use NAT64 (/64 position) of 10.0.0.1
    '64:ff9b:1:5f00:3f9b::', // local-use NAT64 of a public address: local use is never public
    '64:ff9b::7f00:1', // well-known NAT64 of 127.0.0.1
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '2001::1',
    'fec0::1', // site-local (deprecated, RFC 3879)
    'feff:ffff::1',
  ])('refuses %s unless private targets are allowed', (address) => {
    expect(isNonPublicAddress(address)).toBe(true);
    expect(addressRefusal([{ address }], false)).toBeDefined();
  });

  it.each([
    '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
    '2002:a9fe:a9fe:1:2:3:4:5',
    '2002:6464:64c8::', // 6to4 of 100.100.100.200 (Alibaba metadata)
    '64:ff9b:1::a9fe:a9fe', // local-use NAT64, /96 position
    '64:ff9b:1:0:a9:fea9:fe00::', // /64 position (octet 8 is the zero u octet)
    '64:ff9b:1:a9:fe:a9fe::', // /56 position
    '64:ff9b:1:a9fe:a9:fe00::', // /48 position
    '64:ff9b::a9fe:a9fe',
    // Teredo, client 169.254.169.254 (stored inverted: 5601:5601) and server 169.254.169.254
    '2001:0:4136:e378:8000:63bf:5601:5601',
    '2001:0:a9fe:a9fe::1',
  ])('refuses %s in every mode', (address) => {
    expect(isLinkLocalOrMetadata(address)).toBe(true);
    for (const allowPrivate of [false, true]) {
      expect(addressRefusal([{ address }], allowPrivate)).toMatch(/link-local or cloud metadata/);
    }
  });

  it.each(['2002:5db8:d70e::1', '2002:5db8:d70e:1:2:3:4:5'])(
    'allows %s, carrying a public IPv4 address',
    (address) => {
      expect(isNonPublicAddress(address)).toBe(false);
      expect(addressRefusal([{ address }], false)).toBeUndefined();
    },
  );

  it('resolveTarget refuses a 6to4 form of the metadata address with private targets allowed', async () => {
    const refused = resolveTarget(new URL('http://[2002:a9fe:a9fe::1]/'), true, 1_000);
    await expect(refused).rejects.toThrow(/link-local or cloud metadata/);
  });
});

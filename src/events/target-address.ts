// Where a webhook may be sent (D42): http(s) URLs whose host resolves only to public addresses,
// unless private targets are allowed by configuration. The name is resolved once per attempt
// and the connection goes to the address that was checked (see webhook-sender.ts), so a DNS
// answer that changes between check and connect (rebinding) cannot redirect it.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, shared (CGNAT), unspecified, multicast and reserved ranges. */
const NON_PUBLIC = new BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/** True for an address a public webhook must not reach (IPv4-mapped IPv6 as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return NON_PUBLIC.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface ResolvedTarget {
  readonly url: URL;
  readonly address: string;
  readonly family: 4 | 6;
}

export class TargetRefused extends Error {
  override readonly name = 'TargetRefused';
}

/** Parses a webhook URL: http or https, a host, no credentials. Throws TargetRefused. */
export function parseTargetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetRefused('must be an absolute http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TargetRefused('must not carry credentials');
  }
  return url;
}

/**
 * Resolves the URL's host once and checks every address it has. Resolves with the first
 * address, the one to connect to; rejects with TargetRefused when the host does not resolve
 * within `timeoutMs` or any address is not public (and private ones are not allowed).
 */
export async function resolveTarget(
  url: URL,
  allowPrivate: boolean,
  timeoutMs: number,
): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      addresses = await Promise.race([
        lookup(host, { all: true, verbatim: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
        }),
      ]);
    } catch {
      throw new TargetRefused(`host ${host} could not be resolved`);
    } finally {
      clearTimeout(timer);
    }
  }
  const first = addresses[0];
  if (first === undefined) throw new TargetRefused(`host ${host} could not be resolved`);
  if (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address))) {
    throw new TargetRefused(
      'resolves to a loopback, link-local or private address (set WEBHOOK_ALLOW_PRIVATE=true to allow)',
    );
  }
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

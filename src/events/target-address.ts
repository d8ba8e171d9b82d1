// Where a webhook may be sent (D42): http(s) URLs whose host resolves only to public addresses,
// unless private targets are allowed by configuration; link-local and cloud metadata addresses
// never, in any mode. The name is resolved once per attempt and the connection goes to the
// address that was checked (see webhook-sender.ts), so a DNS answer that changes between check
// and connect (rebinding) cannot redirect it.
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
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): an operator's own translator
  ['2001::', 32], // Teredo: a tunnel whose far end the address does not name plainly
  ['2001:db8::', 32],
  ['fec0::', 10], // site-local (deprecated by RFC 3879, still routed on old networks)
] as const) {
  NON_PUBLIC.addSubnet(prefix, bits, 'ipv6');
}

/**
 * Refused whatever WEBHOOK_ALLOW_PRIVATE says: link-local addresses (nothing a webhook should
 * reach lives there) and the cloud instance-metadata endpoints, whose answers carry the host's
 * credentials. Allowing private targets is for a receiver on the operator's own network, never
 * for these.
 */
const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local: AWS, GCP, Azure, OCI metadata 169.254.169.254
NEVER.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
NEVER.addSubnet('fe80::', 10, 'ipv6'); // link-local
NEVER.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

/** The 8 groups of an IPv6 address (zone id dropped), or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.replace(/%.*$/, '');
  if (isIP(text) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const v4 = (bytes: readonly number[]): string => bytes.join('.');

/** The 16 bytes of an address given as its 8 groups. */
function octets(groups: readonly number[]): number[] {
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

/**
 * Every IPv4 address an IPv6 one carries and may reach: IPv4-mapped (::ffff:a.b.c.d, also
 * written ::ffff:a9fe:a9fe), IPv4-compatible (::a.b.c.d), NAT64 well-known (64:ff9b::/96) and
 * local-use (64:ff9b:1::/48, RFC 8215: the IPv4 sits where the operator's prefix length puts
 * it, RFC 6052 section 2.2, so each possible position counts), 6to4 (2002:aabb:ccdd::/48) and
 * Teredo (2001::/32: the server in the second 32 bits, the client inverted in the last 32).
 */
function embeddedIpv4s(groups: readonly number[]): string[] {
  const o = octets(groups);
  const [g0, g1, g2, g3, g4, g5] = groups;
  const zeroes = g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  const last = v4(o.slice(12));
  if (g0 === 0 && zeroes && (g5 === 0xffff || g5 === 0)) return [last];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [last];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0x0001) {
    return [
      v4([o[6], o[7], o[9], o[10]] as number[]), // /48
      v4([o[7], o[9], o[10], o[11]] as number[]), // /56
      v4(o.slice(9, 13)), // /64
      last, // /96
    ];
  }
  if (g0 === 0x2002) return [v4(o.slice(2, 6))];
  if (g0 === 0x2001 && g1 === 0) return [v4(o.slice(4, 8)), v4(o.slice(12).map((b) => b ^ 0xff))];
  return [];
}

/** True when `list` holds the address, or an IPv4 address an IPv6 form of it carries. */
function listed(list: BlockList, address: string): boolean {
  if (isIP(address) === 4) return list.check(address, 'ipv4');
  const groups = ipv6Groups(address);
  if (groups === undefined) return false;
  const v6 = groups.map((g) => g.toString(16)).join(':');
  return list.check(v6, 'ipv6') || embeddedIpv4s(groups).some((a) => list.check(a, 'ipv4'));
}

/** True for an address a public webhook must not reach (IPv4 carried in IPv6 as its IPv4). */
export function isNonPublicAddress(address: string): boolean {
  if (isIP(address.replace(/%.*$/, '')) === 0) return true;
  return listed(NON_PUBLIC, address);
}

/** True for a link-local or cloud metadata address: never a webhook target, in any mode. */
export function isLinkLocalOrMetadata(address: string): boolean {
  if (isIP(address.replace(/%.*$/, '')) === 0) return true;
  return listed(NEVER, address);
}

/**
 * Why a host with these addresses may not be a webhook target, or undefined when it may. Every
 * address is checked, not only the one connected to, so a name cannot hide a bad one.
 */
export function addressRefusal(
  addresses: readonly { address: string }[],
  allowPrivate: boolean,
): string | undefined {
  if (addresses.some((a) => isLinkLocalOrMetadata(a.address))) {
    return 'resolves to a link-local or cloud metadata address (never allowed)';
  }
  if (!allowPrivate && addresses.some((a) => isNonPublicAddress(a.address))) {
    return 'resolves to a loopback, link-local or private address (set WEBHOOK_ALLOW_PRIVATE=true to allow)';
  }
  return undefined;
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
  const refusal = addressRefusal(addresses, allowPrivate);
  if (refusal !== undefined) throw new TargetRefused(refusal);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

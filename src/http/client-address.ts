import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client key used for rate limiting and the failed-authentication limit (D9). Only the one
 * header named by CLIENT_IP_HEADER is trusted, because only the network edge can be trusted to
 * set it; X-Forwarded-For and friends are ignored unless that exact name is configured.
 *
 * The header is used only when it was sent exactly once and holds one value: no comma, no
 * space, at most 64 characters. Node joins a repeated header into one comma-separated value
 * ("1.1.1.1, 2.2.2.2"), so a client whose edge appends rather than replaces could otherwise mint
 * a new key per request; a repeated, comma-joined, empty or overlong value falls back to the
 * socket's remote address. A value that is not an IP address (an edge's own client token) is
 * used as it is.
 *
 * IPv6 clients are keyed by their /64: one subscriber usually holds a whole /64 and can rotate
 * through its addresses at will, so counting per /128 would hand it a fresh bucket per request.
 */
export function createClientAddressResolver(
  trustedHeader: string | undefined,
): (request: FastifyRequest) => string {
  const socketAddress = (request: FastifyRequest) => {
    const address = request.socket.remoteAddress;
    return address === undefined ? 'unknown' : (clientKey(address) ?? address);
  };
  if (trustedHeader === undefined) return socketAddress;
  return (request) => {
    const header = request.headers[trustedHeader];
    if (typeof header === 'string' && sentOnce(request.raw.rawHeaders, trustedHeader)) {
      const value = header.trim();
      // One value, and a sane bound: an address, not a payload smuggled into our counter keys.
      if (value !== '' && value.length <= 64 && !/[\s,]/.test(value)) {
        return clientKey(value) ?? value;
      }
    }
    return socketAddress(request);
  };
}

/** Whether `name` (lower-case) appears exactly once among the raw header lines. */
function sentOnce(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === name && ++seen > 1) return false;
  }
  return seen === 1;
}

/**
 * The counting key of one textual IP address: an IPv4 address as it is (an IPv4-mapped IPv6
 * address, as a dual-stack socket reports IPv4 peers, counts as that IPv4 address), an IPv6
 * address as its /64 prefix (`2001:db8:1:2::/64`); undefined when `address` is not one address.
 */
export function clientKey(address: string): string | undefined {
  const zoneless = address.replace(/%[\w.-]+$/, '');
  const family = isIP(zoneless);
  if (family === 4) return zoneless;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(zoneless);
  const mapped = groups.slice(0, 6).join(':') === '0:0:0:0:0:65535';
  if (mapped) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (isIP checked it), `::` and IPv4 tail expanded. */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = address.indexOf('::');
  if (gap < 0) return parse(address);
  const head = parse(address.slice(0, gap));
  const tail = parse(address.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

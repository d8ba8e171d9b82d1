import type { FastifyRequest } from 'fastify';

/**
 * The client address used for rate limiting (D9). Only the one header named by CLIENT_IP_HEADER
 * is trusted, because only the network edge can be trusted to set it; X-Forwarded-For and
 * friends are ignored unless that exact name is configured. Without the setting, or when the
 * header is absent or repeated, the socket's remote address is used.
 */
export function createClientAddressResolver(
  trustedHeader: string | undefined,
): (request: FastifyRequest) => string {
  const socketAddress = (request: FastifyRequest) => request.socket.remoteAddress ?? 'unknown';
  if (trustedHeader === undefined) return socketAddress;
  return (request) => {
    const value = request.headers[trustedHeader];
    if (typeof value === 'string') {
      const address = value.trim();
      // A sane bound: an address, not a payload smuggled into our counter keys.
      if (address !== '' && address.length <= 64) return address;
    }
    return socketAddress(request);
  };
}

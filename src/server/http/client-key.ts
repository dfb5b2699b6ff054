import { isIPv4, isIPv6 } from 'node:net';

// The bucket a client's address counts in for rate limits and quotas. An IPv4 address is one bucket;
// an IPv6 subscriber usually holds a whole /64 (2^64 addresses), so counting per address would let one
// client reset every limit by changing its address: IPv6 counts per /64.

/** `1.2.3.4` for IPv4 (also when written IPv4-mapped, `::ffff:1.2.3.4`), `2001:db8:0:1::/64` for IPv6. */
export function clientBucket(ip: string): string {
  const address = withoutPort(ip.trim()).replace(/%.*$/, '');
  if (isIPv4(address) || !isIPv6(address)) return address;
  const groups = expandIPv6(address);
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 client itself.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted quad converted). */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

/**
 * Some proxies forward `1.2.3.4:5678` or `[2001:db8::1]:5678` in X-Forwarded-For: the port (and the
 * brackets) are not part of the client, and would make every connection a bucket of its own.
 */
function withoutPort(ip: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) return bracketed[1]!;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(ip);
  return v4 ? v4[1]! : ip;
}

import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether an outbound request may go to an address: the one rule against server-side request
 * forgery, for addresses written in a URL and for those a host name resolved to alike.
 *
 * IPv4: public unless in a block that is loopback, private, link-local (cloud metadata),
 * CGNAT, multicast, documentation, benchmarking or otherwise reserved.
 *
 * IPv6: an allow-list. Only global unicast (2000::/3) can be public, minus its special blocks;
 * everything else (::/8 with loopback, unspecified and the deprecated IPv4-compatible ::a.b.c.d,
 * unique-local, link-local, multicast, discard-only, ...) is refused. Forms that carry an IPv4
 * address are judged by it where the translation is global: IPv4-mapped ::ffff:a.b.c.d and the
 * well-known NAT64 prefix 64:ff9b::/96 are public exactly when their IPv4 address is. The other
 * carriers are refused whole, whatever they embed: 6to4 (2002::/16, IPv4 in bits 16-48, deprecated),
 * Teredo (2001::/32, client IPv4 inverted in the last 32 bits, inside 2001::/23) and local-use
 * NAT64 (64:ff9b:1::/48), so no spelling of 127.0.0.1 or 169.254.169.254 in IPv6 passes.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return isPublicIpv4(ipv4Number(address));
  if (!isIPv6(address)) return false;
  // a zone (fe80::1%eth0) only makes sense on a link-local address
  if (address.includes('%')) return false;
  const groups = ipv6Groups(address);
  return groups !== undefined && isPublicIpv6(groups);
}

/** [network, prefix length] of the IPv4 blocks no outbound request may reach. */
const IPV4_REFUSED: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const ipv4Number = (dotted: string) => dotted.split('.').reduce((value, part) => value * 256 + Number(part), 0);

const ipv4Blocks = IPV4_REFUSED.map(([network, prefix]) => {
  const size = 2 ** (32 - prefix);
  const start = ipv4Number(network);
  return [start, start + size] as const;
});

function isPublicIpv4(value: number): boolean {
  return !ipv4Blocks.some(([start, end]) => value >= start && value < end);
}

/** The eight 16-bit groups of an IPv6 address already known valid (isIPv6), a dotted IPv4 tail included. */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4Number(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const groups =
    tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : undefined;
}

/** [first groups of the network, prefix length] of special blocks inside 2000::/3 that are not public. */
const IPV6_REFUSED: [number[], number][] = [
  [[0x2001, 0x0000], 23], // IETF protocol assignments, Teredo (2001::/32) among them
  [[0x2001, 0x0db8], 32], // documentation
  [[0x2002], 16], // 6to4
  [[0x3fff, 0x0000], 20], // documentation
];

const inBlock = (groups: number[], [network, prefix]: [number[], number]) => {
  for (let bit = 0; bit < prefix; bit += 16) {
    const width = Math.min(16, prefix - bit);
    const mask = (0xffff << (16 - width)) & 0xffff;
    if ((groups[bit / 16]! & mask) !== ((network[bit / 16] ?? 0) & mask)) return false;
  }
  return true;
};

const lastIpv4 = (groups: number[]) => groups[6]! * 0x10000 + groups[7]!;

function isPublicIpv6(groups: number[]): boolean {
  // IPv4-mapped ::ffff:a.b.c.d: a socket connects to the IPv4 address itself
  if (inBlock(groups, [[0, 0, 0, 0, 0, 0xffff], 96])) return isPublicIpv4(lastIpv4(groups));
  // well-known NAT64 prefix: the translator forwards to the embedded IPv4 address
  if (inBlock(groups, [[0x64, 0xff9b, 0, 0, 0, 0], 96])) return isPublicIpv4(lastIpv4(groups));
  if ((groups[0]! & 0xe000) !== 0x2000) return false;
  return !IPV6_REFUSED.some((block) => inBlock(groups, block));
}

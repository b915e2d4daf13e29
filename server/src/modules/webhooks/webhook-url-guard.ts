import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_URL_MAX } from '@riff/contract';
import { AppError } from '../../platform/errors/app-error.js';

export interface WebhookUrlRules {
  allowHttp: boolean;
  /** Lifts the address rule (tests on loopback); the other rules stay. */
  allowPrivate: boolean;
}

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

/** Where a delivery may go: the URL and the addresses its host resolved to, all public. */
export interface CheckedUrl {
  url: URL;
  address: { address: string; family: number };
}

const resolveAll: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Addresses a webhook may never reach: loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved. */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) forbidden.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) forbidden.addSubnet(network, prefix, 'ipv6');

/** Hostnames of cloud metadata services, refused by name whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (::ffff:7f00:1 is 127.0.0.1). */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,5}(?:ffff:)?(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address.replace(/^::/, '0:0:0:0:0:'));
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = parseInt(match[2]!, 16);
  const low = parseInt(match[3]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !forbidden.check(address, 'ipv4');
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') || /^::\d/.test(lower) || /^(0{1,4}:){5}ffff:/.test(lower)) {
    const inner = embeddedIpv4(lower);
    if (!inner || !isPublicAddress(inner)) return false;
  }
  return !forbidden.check(address, 'ipv6');
}

const refuse = (reason: string) => new AppError('INVALID_WEBHOOK_URL', `The webhook URL ${reason}`, { details: [{ field: 'url', message: reason, value: '' }] });

/**
 * The rules of ADDENDUM "Webhooks" for a URL: absolute https (http only when allowed), no
 * credentials, at most 2048 characters, and a host whose every address is public. Node's URL
 * parser has already turned decimal, octal and hexadecimal IPv4 forms (http://2130706433/) into
 * dotted ones. Checked at registration and again before every delivery, whose connection then
 * goes to the address checked here (so a DNS answer that changes in between cannot redirect it).
 */
export async function checkWebhookUrl(raw: string, rules: WebhookUrlRules, resolve: Resolve = resolveAll): Promise<CheckedUrl> {
  if (raw.length > WEBHOOK_URL_MAX) throw refuse(`must be at most ${WEBHOOK_URL_MAX} characters`);
  if (!URL.canParse(raw)) throw refuse('must be an absolute URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) throw refuse(rules.allowHttp ? 'must use https or http' : 'must use https');
  if (url.username || url.password) throw refuse('must not carry credentials');
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!host) throw refuse('must name a host');
  if (METADATA_HOSTS.has(host) && !rules.allowPrivate) throw refuse('must not lead to a cloud metadata service');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw refuse('has a host that does not resolve');
    }
  }
  if (addresses.length === 0) throw refuse('has a host that does not resolve');
  if (!rules.allowPrivate && addresses.some((entry) => !isPublicAddress(entry.address))) {
    throw refuse('must lead to a public address (not loopback, private, link-local, CGNAT, multicast or reserved)');
  }
  return { url, address: addresses[0]! };
}

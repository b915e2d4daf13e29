import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { WEBHOOK_URL_MAX } from '@riff/contract';
import { AppError } from '../../platform/errors/app-error.js';
import { isPublicAddress } from '../../platform/net/public-address.js';

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

/** Hostnames of cloud metadata services, refused by name whatever they resolve to. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

const refuse = (reason: string) =>
  new AppError('INVALID_WEBHOOK_URL', `The webhook URL ${reason}`, {
    details: [{ field: 'url', message: reason, value: '' }],
  });

/**
 * The rules for a webhook URL: absolute https (http only when allowed), no credentials, at most
 * 2048 characters, and a host whose every address is public. Node's URL parser has already turned
 * decimal, octal and hexadecimal IPv4 forms (http://2130706433/, http://0x7f.1/) into dotted ones
 * and IPv6 ones into their compressed hexadecimal spelling; every address, written in the URL or
 * resolved from its host name, then goes through the one address rule (isPublicAddress). Checked
 * at registration, at update and again before every delivery, whose connection then goes to the
 * address checked here (so a DNS answer that changes in between cannot redirect it).
 */
export async function checkWebhookUrl(
  raw: string,
  rules: WebhookUrlRules,
  resolve: Resolve = resolveAll,
): Promise<CheckedUrl> {
  if (raw.length > WEBHOOK_URL_MAX) throw refuse(`must be at most ${WEBHOOK_URL_MAX} characters`);
  if (!URL.canParse(raw)) throw refuse('must be an absolute URL');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:'))
    throw refuse(rules.allowHttp ? 'must use https or http' : 'must use https');
  if (url.username || url.password) throw refuse('must not carry credentials');
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
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

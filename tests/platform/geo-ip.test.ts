import { describe, expect, it } from 'vitest';
import { countryOf } from '../../server/src/platform/net/geo-ip.js';

describe('countryOf (offline GeoIP)', () => {
  it('finds the country of public IPv4 addresses, as written and inside IPv4-mapped IPv6', () => {
    expect(countryOf('8.8.8.8')).toBe('US');
    expect(countryOf('81.2.69.142')).toBe('GB');
    expect(countryOf('::ffff:81.2.69.142')).toBe('GB');
    expect(countryOf('::FFFF:8.8.8.8')).toBe('US');
    // the same mapped address in hexadecimal groups (51.02.45.8e = 81.2.69.142)
    expect(countryOf('::ffff:5102:458e')).toBe('GB');
  });

  it('answers ZZ for no address, private, loopback and reserved ones, IPv6 without an IPv4 inside, and nonsense', () => {
    for (const ip of [
      null,
      '',
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.20',
      '172.16.0.1',
      '100.64.0.1',
      '203.0.113.7',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::1',
      '2001:db8::1',
      '2a00:1450:4001:80b::200e',
      'not an address',
      '999.1.1.1',
    ]) {
      expect(countryOf(ip), String(ip)).toBe('ZZ');
    }
  });
});

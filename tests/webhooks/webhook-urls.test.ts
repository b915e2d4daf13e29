import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, type Resolve } from '../../server/src/modules/webhooks/webhook-url-guard.js';
import { isPublicAddress } from '../../server/src/platform/net/public-address.js';
import { createUser } from '../support/factories.js';
import { storeWebhookUrl } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';

// the production rules: https only, public addresses only
const suite = useTestServer();

const refusedUrls = [
  // not https, credentials, not absolute
  'http://93.184.216.34/hook',
  'ftp://93.184.216.34/hook',
  'https://user:secret@93.184.216.34/hook',
  '/hook',
  'https://',
  // loopback in every spelling a URL parser accepts
  'https://127.0.0.1/hook',
  'https://127.1/hook',
  'https://2130706433/hook',
  'https://0x7f000001/hook',
  'https://0x7f.0.0.1/hook',
  'https://0177.0.0.1/hook',
  'https://[::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:7f00:1]/hook',
  'https://[0:0:0:0:0:ffff:7f00:1]/hook',
  'https://localhost/hook',
  'https://localhost./hook',
  // private, link-local (cloud metadata), CGNAT, multicast, unspecified, unique-local
  'https://10.1.2.3/hook',
  'https://172.16.0.1/hook',
  'https://192.168.1.1/hook',
  'https://169.254.169.254/latest/meta-data/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://100.64.0.1/hook',
  'https://224.0.0.1/hook',
  'https://0.0.0.0/hook',
  'https://[::]/hook',
  'https://[fe80::1]/hook',
  'https://[fd12:3456::1]/hook',
  'https://[::ffff:a9fe:a9fe]/hook',
  // IPv6 forms that carry a private IPv4 address: IPv4-compatible, NAT64, 6to4, Teredo
  'https://[::a9fe:a9fe]/latest/meta-data/',
  'https://[::169.254.169.254]/hook',
  'https://[::a00:1]/hook',
  'https://[::7f00:1]/hook',
  'https://[64:ff9b::a9fe:a9fe]/hook',
  'https://[64:ff9b:1::a00:1]/hook',
  'https://[2002:a9fe:a9fe::1]/hook',
  'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
  // other IPv4 notations the URL parser turns into 127.0.0.1
  'https://0x7f.1/hook',
  'https://127.000.000.001/hook',
];

describe('webhook URLs (SSRF rules)', () => {
  it.each(refusedUrls)('refuses %s with 400 INVALID_WEBHOOK_URL at registration', async (url) => {
    const owner = await createUser(suite.server);
    const reply = await suite.http.post('/webhooks', { token: owner.token, body: { url, events: ['*'] } });
    expect([reply.status, reply.body.error.code, reply.body.error.details?.[0]?.field]).toEqual([
      400,
      'INVALID_WEBHOOK_URL',
      'url',
    ]);
  });

  it('accepts a public https address, and refuses a private one on update too', async () => {
    const owner = await createUser(suite.server);
    const created = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: 'https://93.184.216.34/hook', events: ['track.created'] },
    });
    expect(created.status).toBe(201);
    const moved = await suite.http.put(`/webhooks/${created.body.data.webhook.id}`, {
      token: owner.token,
      body: { url: 'https://[::1]:8443/' },
    });
    expect([moved.status, moved.body.error.code]).toEqual([400, 'INVALID_WEBHOOK_URL']);
    for (const url of [
      'https://[::a9fe:a9fe]/hook',
      'https://[::a00:1]/hook',
      'https://[::ffff:a00:1]/hook',
      'https://[2002:a00:1::1]/hook',
    ]) {
      const refused = await suite.http.put(`/webhooks/${created.body.data.webhook.id}`, {
        token: owner.token,
        body: { url },
      });
      expect([refused.status, refused.body.error.code], url).toEqual([400, 'INVALID_WEBHOOK_URL']);
    }
    expect(
      (await suite.http.get(`/webhooks/${created.body.data.webhook.id}`, { token: owner.token })).body.data.webhook.url,
    ).toBe('https://93.184.216.34/hook');
  });

  it('refuses at delivery a stored URL whose address is no longer accepted: nothing is sent, the attempt fails naming the rule', async () => {
    const owner = await createUser(suite.server);
    const created = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: 'https://93.184.216.34/hook', events: ['track.created'] },
    });
    expect(created.status).toBe(201);
    // as if registered under an older rule
    await storeWebhookUrl(suite.server, created.body.data.webhook.id, 'https://[::a9fe:a9fe]/latest/meta-data/');
    const tested = await suite.http.post(`/webhooks/${created.body.data.webhook.id}/test`, { token: owner.token });
    expect(tested.status).toBe(200);
    expect(tested.body.data.delivery).toMatchObject({ status: 'failed', response_status: null });
    expect(tested.body.data.delivery.error).toContain('must lead to a public address');
  });
});

describe('the URL guard', () => {
  const rules = { allowHttp: false, allowPrivate: false };

  it('refuses a host any of whose addresses is not public, and one that does not resolve', async () => {
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.8', family: 4 },
    ];
    await expect(checkWebhookUrl('https://hooks.example.com/x', rules, mixed)).rejects.toMatchObject({
      code: 'INVALID_WEBHOOK_URL',
    });
    const none: Resolve = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkWebhookUrl('https://nowhere.example/x', rules, none)).rejects.toMatchObject({
      code: 'INVALID_WEBHOOK_URL',
    });
  });

  it('checks again at each delivery: a host that answered public at registration and private later (DNS rebinding) is refused then', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    const rebinding: Resolve = async () => [{ address: answers.shift()!, family: 4 }];
    const first = await checkWebhookUrl('https://rebind.example/x', rules, rebinding);
    // the connection is pinned to the address checked
    expect(first.address).toEqual({ address: '93.184.216.34', family: 4 });
    await expect(checkWebhookUrl('https://rebind.example/x', rules, rebinding)).rejects.toMatchObject({
      code: 'INVALID_WEBHOOK_URL',
    });
  });

  it('tells public addresses from the others', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:c0a8:101',
      '64:ff9b::a00:1',
      '::a9fe:a9fe',
      '::a00:1',
      '::8.8.8.8',
      '100::1',
      '2001:db8::1',
      '3fff::1',
      '5f00::1',
      'not an ip',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('judges an IPv4 address the same in every IPv6 form that carries it', () => {
    // blocks no outbound request may reach, written out here rather than taken from the rule
    const privateBlocks: [number, number][] = [
      [0x00000000, 8],
      [0x0a000000, 8],
      [0x64400000, 10],
      [0x7f000000, 8],
      [0xa9fe0000, 16],
      [0xac100000, 12],
      [0xc0a80000, 16],
      [0xc6120000, 15],
      [0xe0000000, 4],
      [0xf0000000, 4],
    ];
    const privateIpv4 = fc
      .tuple(fc.constantFrom(...privateBlocks), fc.integer({ min: 0, max: 0xffffffff }))
      .map(([[network, prefix], host]) => (network + (host % 2 ** (32 - prefix))) >>> 0);
    const hex = (value: number) => value.toString(16);
    const dotted = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
    const high = (v: number) => hex(v >>> 16);
    const low = (v: number) => hex(v & 0xffff);
    const forms: Record<string, (v: number, r: number) => string> = {
      compatible: (v) => `::${high(v)}:${low(v)}`,
      compatibleDotted: (v) => `::${dotted(v)}`,
      compatibleFull: (v) => `0:0:0:0:0:0:${high(v)}:${low(v)}`,
      mapped: (v) => `::ffff:${high(v)}:${low(v)}`,
      mappedDotted: (v) => `::FFFF:${dotted(v)}`,
      mappedFull: (v) => `0000:0000:0000:0000:0000:ffff:${high(v)}:${low(v)}`,
      nat64: (v) => `64:ff9b::${high(v)}:${low(v)}`,
      nat64Dotted: (v) => `64:ff9b::${dotted(v)}`,
      nat64Local: (v, r) => `64:ff9b:1:${hex(r & 0xffff)}::${high(v)}:${low(v)}`,
      sixToFour: (v, r) => `2002:${high(v)}:${low(v)}:${hex(r & 0xffff)}::1`,
      teredo: (v, r) =>
        `2001:0:${hex(r >>> 16)}:${hex(r & 0xffff)}:0:${hex(r & 0xfff)}:${high(~v >>> 0)}:${low(~v >>> 0)}`,
    };
    fc.assert(
      fc.property(
        privateIpv4,
        fc.constantFrom(...Object.keys(forms)),
        fc.integer({ min: 0, max: 0xffffffff }),
        (v, form, random) => {
          const address = forms[form]!(v, random);
          expect(isPublicAddress(dotted(v)), dotted(v)).toBe(false);
          expect(isPublicAddress(address), `${form} ${address}`).toBe(false);
          // as the URL parser writes it, too
          expect(isPublicAddress(new URL(`https://[${address}]/`).hostname.slice(1, -1)), `${form} ${address}`).toBe(
            false,
          );
        },
      ),
      { numRuns: 2000 },
    );
    // a public IPv4 address stays reachable through the translations that are global; the deprecated carriers are refused whole
    for (const v of [0x5db8d822, 0x08080808, 0x01010101]) {
      expect(isPublicAddress(dotted(v))).toBe(true);
      for (const form of ['mapped', 'mappedDotted', 'nat64', 'nat64Dotted'])
        expect(isPublicAddress(forms[form]!(v, 7)), form).toBe(true);
      for (const form of ['compatible', 'compatibleDotted', 'nat64Local', 'sixToFour', 'teredo'])
        expect(isPublicAddress(forms[form]!(v, 7)), form).toBe(false);
    }
  });

  it('judges resolved addresses by the same rule (a host name resolving to an IPv6 carrier of a private address)', async () => {
    for (const address of [
      '::a9fe:a9fe',
      '::169.254.169.254',
      '0:0:0:0:0:0:a00:1',
      '::ffff:127.0.0.1',
      '2002:7f00:1::',
      'fe80::1%eth0',
    ]) {
      const resolve: Resolve = async () => [{ address, family: 6 }];
      await expect(checkWebhookUrl('https://hooks.example.com/x', rules, resolve), address).rejects.toMatchObject({
        code: 'INVALID_WEBHOOK_URL',
      });
    }
    const publicV6: Resolve = async () => [{ address: '2606:4700:4700::1111', family: 6 }];
    await expect(checkWebhookUrl('https://hooks.example.com/x', rules, publicV6)).resolves.toMatchObject({
      address: { address: '2606:4700:4700::1111' },
    });
  });

  it('allows http and private addresses only when told to (tests on loopback)', async () => {
    await expect(
      checkWebhookUrl('http://127.0.0.1:9/x', { allowHttp: true, allowPrivate: true }),
    ).resolves.toMatchObject({ address: { address: '127.0.0.1' } });
    await expect(
      checkWebhookUrl('http://127.0.0.1:9/x', { allowHttp: false, allowPrivate: true }),
    ).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    await expect(
      checkWebhookUrl('https://127.0.0.1:9/x', { allowHttp: true, allowPrivate: false }),
    ).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
  });
});

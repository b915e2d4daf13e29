import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress, type Resolve } from '../../server/src/modules/webhooks/webhook-url-guard.js';
import { createUser } from '../support/factories.js';
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
];

describe('webhook URLs (SSRF rules)', () => {
  it.each(refusedUrls)('refuses %s with 400 INVALID_WEBHOOK_URL at registration', async (url) => {
    const owner = await createUser(suite.server);
    const reply = await suite.http.post('/webhooks', { token: owner.token, body: { url, events: ['*'] } });
    expect([reply.status, reply.body.error.code, reply.body.error.details?.[0]?.field]).toEqual([400, 'INVALID_WEBHOOK_URL', 'url']);
  });

  it('accepts a public https address, and refuses a private one on update too', async () => {
    const owner = await createUser(suite.server);
    const created = await suite.http.post('/webhooks', { token: owner.token, body: { url: 'https://93.184.216.34/hook', events: ['track.created'] } });
    expect(created.status).toBe(201);
    const moved = await suite.http.put(`/webhooks/${created.body.data.webhook.id}`, { token: owner.token, body: { url: 'https://[::1]:8443/' } });
    expect([moved.status, moved.body.error.code]).toEqual([400, 'INVALID_WEBHOOK_URL']);
    expect((await suite.http.get(`/webhooks/${created.body.data.webhook.id}`, { token: owner.token })).body.data.webhook.url).toBe('https://93.184.216.34/hook');
  });
});

describe('the URL guard', () => {
  const rules = { allowHttp: false, allowPrivate: false };

  it('refuses a host any of whose addresses is not public, and one that does not resolve', async () => {
    const mixed: Resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.8', family: 4 },
    ];
    await expect(checkWebhookUrl('https://hooks.example.com/x', rules, mixed)).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    const none: Resolve = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkWebhookUrl('https://nowhere.example/x', rules, none)).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
  });

  it('checks again at each delivery: a host that answered public at registration and private later (DNS rebinding) is refused then', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    const rebinding: Resolve = async () => [{ address: answers.shift()!, family: 4 }];
    const first = await checkWebhookUrl('https://rebind.example/x', rules, rebinding);
    // the connection is pinned to the address checked
    expect(first.address).toEqual({ address: '93.184.216.34', family: 4 });
    await expect(checkWebhookUrl('https://rebind.example/x', rules, rebinding)).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
  });

  it('tells public addresses from the others', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of ['127.0.0.1', '10.0.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'ff02::1', '::ffff:10.0.0.1', '::ffff:c0a8:101', '64:ff9b::a00:1', 'not an ip']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('allows http and private addresses only when told to (tests on loopback)', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', { allowHttp: true, allowPrivate: true })).resolves.toMatchObject({ address: { address: '127.0.0.1' } });
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', { allowHttp: false, allowPrivate: true })).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    await expect(checkWebhookUrl('https://127.0.0.1:9/x', { allowHttp: true, allowPrivate: false })).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
  });
});

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { newIdentity } from '../support/accounts.js';
import { readOutbox } from '../support/mail.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let server: TestServer;
const received: Received[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Riff <hello@riff.test>' });
});
afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function waitForDelivery(to: string): Promise<Received> {
  for (let i = 0; i < 200; i++) {
    const mail = received.find((item) => item.to.includes(to));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no mail delivered to ${to}`);
}

describe('mail over SMTP', () => {
  it('delivers the verification mail with plain-text and HTML bodies, and writes no outbox file', async () => {
    const identity = newIdentity();
    const reply = await api(server.baseUrl).post('/auth/register', {
      body: { ...identity, password_confirmation: identity.password },
    });
    expect(reply.status).toBe(201);

    const mail = await waitForDelivery(identity.email);
    expect(mail.from).toBe('hello@riff.test');
    const unfolded = mail.raw.replace(/=\r\n/g, '');
    expect(unfolded).toMatch(/^Subject: Confirm your Riff email address/m);
    expect(unfolded).toMatch(/Content-Type: multipart\/alternative/);
    expect(unfolded).toMatch(/Content-Type: text\/plain/);
    expect(unfolded).toMatch(/Content-Type: text\/html/);
    expect(unfolded).toMatch(/verify-email\?token=3D[a-z2-7]+|verify-email\?token=[a-z2-7]+/);
    expect(await readOutbox(server.outboxDir)).toEqual([]);
  });

  it('a mail server that is down does not fail the request', async () => {
    const offline = await startTestServer({ SMTP_URL: 'smtp://127.0.0.1:1' });
    try {
      const identity = newIdentity();
      const reply = await api(offline.baseUrl).post('/auth/register', {
        body: { ...identity, password_confirmation: identity.password },
      });
      expect(reply.status).toBe(201);
    } finally {
      await offline.close();
    }
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { login, newIdentity, register, signedInUser } from '../support/accounts.js';
import { waitForMail } from '../support/mail.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const linkIn = (mail: { text: string }) => {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error('no link in mail');
  return new URL(match[0]);
};

/** GET a page as a browser would: the HTML, and the script and stylesheet it names. */
async function openPage(link: URL) {
  const page = await fetch(link);
  const html = await page.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  const styles = [...html.matchAll(/<link\b[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
  const scriptUrl = new URL(/src="([^"]+)"/.exec(scripts[0]?.[1] ?? '')![1]!, link);
  const script = await fetch(scriptUrl);
  return { page, html, scripts, styles, script, scriptText: await script.text() };
}

interface FakeElement {
  textContent: string;
  className: string;
  hidden: boolean;
  disabled: boolean;
  value?: string;
  listeners: Record<string, (event: { preventDefault(): void }) => void>;
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
  querySelector(selector: string): FakeElement;
}

const element = (): FakeElement => ({
  textContent: '',
  className: '',
  hidden: false,
  disabled: false,
  listeners: {},
  addEventListener(type, listener) {
    this.listeners[type] = listener;
  },
  querySelector: () => button,
});
const button = element();

/**
 * Runs the page's own script against a minimal DOM, with fetch going to the page's origin: what a
 * browser does, without one. Answers the status element, the form and the address bar.
 */
function runScript(scriptText: string, link: URL, pageKind: string, formValues: Record<string, string> = {}) {
  const status = element();
  const form = element();
  const requests: { url: string; init: RequestInit }[] = [];
  const pending: Promise<unknown>[] = [];
  const location = { search: link.search, pathname: link.pathname, href: link.href };
  class FakeFormData {
    get(name: string) {
      return formValues[name] ?? null;
    }
  }
  runInNewContext(scriptText, {
    window: {
      location,
      history: {
        replaceState: (_state: unknown, _title: string, url: string) => {
          location.search = '';
          location.href = new URL(url, link).href;
        },
      },
    },
    document: {
      body: { getAttribute: (name: string) => (name === 'data-page' ? pageKind : null) },
      getElementById: (id: string) =>
        id === 'status' ? status : id === 'reset-form' && pageKind === 'reset' ? form : null,
    },
    URLSearchParams,
    FormData: FakeFormData,
    JSON,
    fetch: (url: string, init: RequestInit) => {
      requests.push({ url, init });
      const reply = fetch(new URL(url, link), init);
      pending.push(reply);
      return reply;
    },
  });
  const settled = async () => {
    for (let i = 0; i < 50 && !['ok', 'error'].includes(status.className); i++) {
      await Promise.allSettled(pending);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { status, form, requests, location, settled };
}

function expectStrictPage(reply: Response, html: string, scripts: RegExpMatchArray[]) {
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = reply.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  // one script, from this origin, nothing inline; no asset from elsewhere
  expect(scripts).toHaveLength(1);
  expect(scripts[0]![2]!.trim()).toBe('');
  expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  expect(html).not.toMatch(/\son[a-z]+=/i);
  expect(html).not.toMatch(/style="/);
}

describe('account pages (APP_BASE_URL not set)', () => {
  it('a newcomer finishes registration from the mail link alone', async () => {
    const identity = await register(suite.server);
    const link = linkIn(await waitForMail(suite.server.outboxDir, identity.email, 'verify-email'));
    expect(link.origin).toBe(suite.server.directUrl);
    expect(link.pathname).toBe('/verify-email');

    const { page, html, scripts, styles, script, scriptText } = await openPage(link);
    expectStrictPage(page, html, scripts);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    for (const href of styles) expect((await fetch(new URL(href, link))).status).toBe(200);

    const run = runScript(scriptText, link, 'verify');
    await run.settled();
    expect(run.status.className).toBe('ok');
    expect(run.status.textContent).toMatch(/verified/i);
    // the token went in the header, not the URL, and left the address bar
    expect(run.requests).toHaveLength(1);
    expect(run.requests[0]!.url).toBe('/api/v1/auth/verify-email');
    expect(run.requests[0]!.init.headers).toMatchObject({ 'X-Verify-Token': link.searchParams.get('token') });
    expect(run.location.href).not.toContain('token');

    await login(suite.server, identity);

    // the link used twice says so
    const again = runScript(scriptText, link, 'verify');
    await again.settled();
    expect(again.status.className).toBe('error');
    expect(again.status.textContent).toMatch(/invalid, used or expired/);
  });

  it('the reset link opens a form that sets the new password', async () => {
    const user = await signedInUser(suite.server);
    await suite.http.post('/auth/password/reset-request', { body: { email: user.email } });
    const link = linkIn(await waitForMail(suite.server.outboxDir, user.email, 'password-reset'));
    expect(link.pathname).toBe('/reset-password');

    const { page, html, scripts, scriptText } = await openPage(link);
    expectStrictPage(page, html, scripts);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(html).toMatch(/<form id="reset-form" method="post">/);
    expect(html).toMatch(/name="password" type="password"/);
    expect(html).toMatch(/name="password_confirmation" type="password"/);

    const mismatch = runScript(scriptText, link, 'reset', {
      password: 'a new password 123',
      password_confirmation: 'another one 123',
    });
    mismatch.form.listeners['submit']!({ preventDefault() {} });
    await mismatch.settled();
    expect(mismatch.status.className).toBe('error');
    expect(mismatch.status.textContent).toContain('password_confirmation must equal password');

    const NEW_PASSWORD = 'a new password 123';
    const run = runScript(scriptText, link, 'reset', { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    run.form.listeners['submit']!({ preventDefault() {} });
    await run.settled();
    expect(run.status.className).toBe('ok');
    expect(run.form.hidden).toBe(true);
    expect(JSON.parse(String(run.requests[0]!.init.body))).toEqual({
      token: link.searchParams.get('token'),
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    await login(suite.server, { email: user.email, password: NEW_PASSWORD });
  });

  it('a link without a token says what to do', async () => {
    const link = new URL('/verify-email', suite.server.directUrl);
    const { scriptText } = await openPage(link);
    const run = runScript(scriptText, link, 'verify');
    expect(run.status.className).toBe('error');
    expect(run.requests).toHaveLength(0);
  });

  it('openapi.json marks the token query parameter of verify-email deprecated', async () => {
    const document = JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../openapi.json'), 'utf8'));
    const parameters = document.paths['/api/v1/auth/verify-email'].post.parameters as {
      name: string;
      in: string;
      deprecated?: boolean;
    }[];
    expect(parameters.find((parameter) => parameter.in === 'query' && parameter.name === 'token')?.deprecated).toBe(
      true,
    );
    expect(parameters.find((parameter) => parameter.in === 'header')?.deprecated).toBeUndefined();
  });
});

describe('account pages with APP_BASE_URL set', () => {
  it('are not served: the mail links lead to the frontend', async () => {
    let server: TestServer | undefined;
    try {
      server = await startTestServer({ APP_BASE_URL: 'https://app.example.test' });
      const identity = newIdentity();
      await register(server, identity);
      const link = linkIn(await waitForMail(server.outboxDir, identity.email, 'verify-email'));
      expect(link.origin).toBe('https://app.example.test');
      expect((await fetch(`${server.directUrl}/verify-email?token=x`)).status).toBe(404);
      expect((await fetch(`${server.directUrl}/reset-password?token=x`)).status).toBe(404);
    } finally {
      await server?.close();
    }
  });
});

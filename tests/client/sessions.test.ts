import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  createRiffClient,
  memorySessionHint,
  memoryTokenStore,
  type LockManagerLike,
  type TokenStore,
} from '@riff/client';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

/** A fetch that counts what it forwards to the real one; optionally a cookie jar for the refresh cookie. */
function recordingFetch(jar?: { cookie?: string }) {
  const sent: string[] = [];
  const statuses: number[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    const headers = new Headers(init?.headers);
    if (jar?.cookie && url.pathname.startsWith('/api/v1/auth/')) headers.set('cookie', jar.cookie);
    const reply = await fetch(input, { ...init, headers });
    const set = /refresh_token=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];
    if (jar && set !== undefined) jar.cookie = `refresh_token=${set}`;
    statuses.push(reply.status);
    return reply;
  };
  return { sent, statuses, fetch: fetchImpl, count: (line: string) => sent.filter((entry) => entry === line).length };
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Looks like an expired access token of this user, but is signed by nobody. */
const staleTokenOf = (userId: string) =>
  `${base64url({ alg: 'EdDSA', typ: 'JWT' })}.${base64url({ sub: userId, exp: Math.floor(Date.now() / 1000) - 60 })}.${'A'.repeat(86)}`;

/** Tokens kept by the browser's cookie only: what a browser app gives the client. */
function accessOnlyStore(): TokenStore {
  let access: string | undefined;
  return { getAccessToken: () => access, setAccessToken: (token) => void (access = token) };
}

/**
 * Node 20 has BroadcastChannel but not navigator.locks: this stands in for the Web Locks API,
 * granting each name to one holder at a time, in order of request.
 */
function inProcessLocks(): LockManagerLike & { requested: string[] } {
  const tails = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  const requested: string[] = [];
  return {
    requested,
    request(name, options, callback) {
      requested.push(name);
      if (options.ifAvailable && held.has(name)) return callback(null);
      const run = (tails.get(name) ?? Promise.resolve()).then(async () => {
        held.add(name);
        try {
          return await callback({ name });
        } finally {
          held.delete(name);
        }
      });
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

describe('first visit, no session', () => {
  it('answers the 401 without a refresh, without onSessionExpired', async () => {
    const recorder = recordingFetch({});
    const onSessionExpired = vi.fn();
    const client = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: accessOnlyStore(),
      fetch: recorder.fetch,
      onSessionExpired,
    });

    expect((await client.auth.me()).status).toBe(401);
    expect(await client.refresh()).toBe(false);
    expect(recorder.sent).toEqual(['GET /api/v1/auth/me']);
    expect(recorder.statuses).not.toContain(400);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('a later visit with the session hint renews the session from the refresh cookie', async () => {
    const user = await signedInUser(suite.server);
    const jar = {};
    const hint = memorySessionHint();
    const headers = { origin: suite.server.origin };
    const first = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: accessOnlyStore(),
      sessionHint: hint,
      headers,
      fetch: recordingFetch(jar).fetch,
    });
    expect((await first.login({ email: user.email, password: user.password })).status).toBe(200);
    expect(hint.get()).toBe(true);

    // the page is loaded again: the cookie and the hint remain, the access token is gone
    const recorder = recordingFetch(jar);
    const onSessionExpired = vi.fn();
    const reloaded = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: accessOnlyStore(),
      sessionHint: hint,
      headers,
      fetch: recorder.fetch,
      onSessionExpired,
    });
    const me = await reloaded.auth.me();
    expect(me.status).toBe(200);
    expect(recorder.sent).toEqual(['GET /api/v1/auth/me', 'POST /api/v1/auth/refresh', 'GET /api/v1/auth/me']);

    // after a logout the hint is cleared: the next visit sends no refresh
    await reloaded.logout();
    expect(hint.get()).toBe(false);
    const after = recordingFetch(jar);
    const next = createRiffClient({
      baseUrl: suite.server.baseUrl,
      tokens: accessOnlyStore(),
      sessionHint: hint,
      headers,
      fetch: after.fetch,
      onSessionExpired,
    });
    expect((await next.auth.me()).status).toBe(401);
    expect(after.sent).toEqual(['GET /api/v1/auth/me']);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });
});

describe('refreshes across tabs', () => {
  /** Two tabs holding the same (stale) pair of one login, refreshing at the same moment. */
  async function twoTabsAtOnce(crossTab: { name: string; locks: LockManagerLike | null }) {
    const user = await signedInUser(suite.server);
    const stale = staleTokenOf(user.id);
    const tabs = [0, 1].map(() => {
      const recorder = recordingFetch();
      const tokens = memoryTokenStore({ accessToken: stale, refreshToken: user.refreshToken });
      const onSessionExpired = vi.fn();
      const client = createRiffClient({
        baseUrl: suite.server.baseUrl,
        tokens,
        fetch: recorder.fetch,
        onSessionExpired,
        crossTab,
      });
      return { recorder, tokens, onSessionExpired, client };
    });
    try {
      const replies = await Promise.all(tabs.map((tab) => tab.client.auth.me()));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
      const refreshes = tabs.map((tab) => tab.recorder.count('POST /api/v1/auth/refresh'));
      expect(refreshes.reduce((sum, count) => sum + count, 0)).toBe(1);
      // both tabs hold the one new pair: neither will present a rotated token later
      const [a, b] = tabs as [(typeof tabs)[0], (typeof tabs)[0]];
      expect(a.tokens.getRefreshToken()).toBe(b.tokens.getRefreshToken());
      expect(a.tokens.getRefreshToken()).not.toBe(user.refreshToken);
      for (const tab of tabs) expect(tab.onSessionExpired).not.toHaveBeenCalled();

      // the pair keeps working in the tab that did not refresh, and the family is alive
      const idle = refreshes[0] === 0 ? a : b;
      expect((await idle.client.auth.me()).status).toBe(200);
      expect(await idle.client.refresh()).toBe(true);
    } finally {
      for (const tab of tabs) tab.client.close();
    }
  }

  it('with the Web Locks API: one refresh for both tabs, its pair passed to the other', async () => {
    const locks = inProcessLocks();
    const name = `riff-refresh-${randomUUID()}`;
    await twoTabsAtOnce({ name, locks });
    expect(locks.requested.length).toBeGreaterThanOrEqual(2);
    expect(new Set(locks.requested)).toEqual(new Set([name]));
  });

  it('without it (BroadcastChannel claim): one refresh for both tabs', async () => {
    await twoTabsAtOnce({ name: `riff-refresh-${randomUUID()}`, locks: null });
  });

  it('a pair announced by a tab of another user is not taken', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const crossTab = { name: `riff-refresh-${randomUUID()}`, locks: null };
    const aliceTokens = memoryTokenStore({ accessToken: staleTokenOf(alice.id), refreshToken: alice.refreshToken });
    const bobTokens = memoryTokenStore({ accessToken: bob.accessToken, refreshToken: bob.refreshToken });
    const aliceTab = createRiffClient({ baseUrl: suite.server.baseUrl, tokens: aliceTokens, crossTab });
    const bobTab = createRiffClient({ baseUrl: suite.server.baseUrl, tokens: bobTokens, crossTab });
    // a third party on the channel, to know when Alice's tab has told the others
    const listener = new BroadcastChannel(crossTab.name);
    const announced = new Promise<{ kind: string; pair?: { subject: string } }>((resolve) => {
      listener.onmessage = (event) => {
        if (event.data?.kind === 'refreshed') resolve(event.data);
      };
    });
    try {
      expect((await aliceTab.auth.me()).status).toBe(200);
      expect((await announced).pair?.subject).toBe(alice.id);
      const bobMe = await bobTab.auth.me();
      expect(bobMe.status).toBe(200);
      if (bobMe.status === 200) expect(bobMe.body.data.id).toBe(bob.id);
      expect(bobTokens.getAccessToken()).toBe(bob.accessToken);
      expect(bobTokens.getRefreshToken()).toBe(bob.refreshToken);
    } finally {
      listener.close();
      aliceTab.close();
      bobTab.close();
    }
  });
});

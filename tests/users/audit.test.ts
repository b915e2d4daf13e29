import { describe, expect, it } from 'vitest';
import { request } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const today = () => new Date().toISOString().slice(0, 10);

describe('audit log', () => {
  it('records actions with actor, action, resource, resource_id, ip_address, user_agent and time', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    await suite.http.post(`/users/${bob.id}/follow`, {
      token: alice.accessToken,
      headers: { 'user-agent': 'riff-test-agent/1.0' },
    });

    const logs = await suite.http.get(`/audit/logs?action=user.followed&resource_id=${bob.id}`, {
      token: alice.accessToken,
    });
    expect(logs.status).toBe(200);
    expect(logs.body.data.logs).toEqual([
      {
        id: expect.any(String),
        user_id: alice.id,
        action: 'user.followed',
        resource: 'user',
        resource_id: bob.id,
        ip_address: expect.stringMatching(/127\.0\.0\.1/),
        user_agent: 'riff-test-agent/1.0',
        metadata: {},
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
  });

  it('a user sees only their own entries', async () => {
    const alice = await signedInUser(suite.server);
    const bob = await signedInUser(suite.server);
    const logs = await suite.http.get('/audit/logs?limit=100', { token: bob.accessToken });
    expect(logs.body.data.logs.length).toBeGreaterThan(0);
    expect(logs.body.data.logs.every((entry: { user_id: string }) => entry.user_id === bob.id)).toBe(true);
    const aliceEntries = await suite.http.get(`/audit/logs?resource_id=${alice.id}`, { token: bob.accessToken });
    expect(aliceEntries.body.data.logs).toEqual([]);
    const activity = await suite.http.get('/audit/activity', { token: bob.accessToken });
    expect(activity.body.data.activities.every((entry: { user_id: string }) => entry.user_id === bob.id)).toBe(true);
    expect(activity.body.data.activities[0].action).toBe('auth.login');
  });

  it('filters by action and dates, paginates by page or offset, newest first', async () => {
    const alice = await signedInUser(suite.server);
    for (let i = 0; i < 3; i++) await suite.http.post('/users/me/privacy/opt-out', { token: alice.accessToken });
    const all = await suite.http.get(
      `/audit/logs?action=user.privacy_opt_out&start_date=${today()}&end_date=${today()}`,
      { token: alice.accessToken },
    );
    expect(all.body.data.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    const times = all.body.data.logs.map((entry: { created_at: string }) => entry.created_at);
    expect(times).toEqual([...times].sort().reverse());

    const page2 = await suite.http.get('/audit/logs?action=user.privacy_opt_out&limit=2&page=2', {
      token: alice.accessToken,
    });
    expect(page2.body.data.logs).toHaveLength(1);
    expect(page2.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    const offset = await suite.http.get('/audit/logs?action=user.privacy_opt_out&limit=2&offset=1', {
      token: alice.accessToken,
    });
    expect(offset.body.data.logs.map((e: { id: string }) => e.id)).toEqual(
      all.body.data.logs.slice(1, 3).map((e: { id: string }) => e.id),
    );

    const past = await suite.http.get('/audit/logs?end_date=2000-01-01', { token: alice.accessToken });
    expect(past.body.data.logs).toEqual([]);
    const future = await suite.http.get('/audit/logs?start_date=2999-01-01', { token: alice.accessToken });
    expect(future.body.data.pagination.total).toBe(0);
  });

  it('a bad date is 400', async () => {
    const alice = await signedInUser(suite.server);
    for (const query of [
      'start_date=2026-13-01',
      'end_date=21-11-2026',
      'start_date=2026-02-30',
      'start_date=2026-11-22&end_date=2026-11-21',
      'resource_id=not-a-uuid',
      'limit=0',
      'page=abc',
    ]) {
      const reply = await suite.http.get(`/audit/logs?${query}`, { token: alice.accessToken });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get('/audit/stats?start_date=nope', { token: alice.accessToken })).status).toBe(400);
  });

  it('stats count the caller’s entries by action and resource', async () => {
    const alice = await signedInUser(suite.server);
    const stats = await suite.http.get(`/audit/stats?start_date=${today()}`, { token: alice.accessToken });
    expect(stats.status).toBe(200);
    expect(stats.body.data.stats).toMatchObject({
      by_action: { 'auth.register': 1, 'auth.email_verified': 1, 'auth.login': 1 },
      by_resource: { user: 2, session: 1 },
      total: 3,
    });
    expect(Date.parse(stats.body.data.stats.first_at)).toBeLessThanOrEqual(Date.parse(stats.body.data.stats.last_at));
  });

  it('needs authentication, and entries cannot be edited or deleted through the API', async () => {
    expect((await suite.http.get('/audit/logs')).status).toBe(401);
    expect((await suite.http.get('/audit/activity')).status).toBe(401);
    expect((await suite.http.get('/audit/stats')).status).toBe(401);
    const alice = await signedInUser(suite.server);
    const [entry] = (await suite.http.get('/audit/logs', { token: alice.accessToken })).body.data.logs;
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const reply = await request(suite.server.baseUrl, method, `/api/v1/audit/logs/${entry.id}`, {
        token: alice.accessToken,
        body: { action: 'forged' },
      });
      expect(reply.status).toBe(404);
    }
    const reread = (await suite.http.get('/audit/logs', { token: alice.accessToken })).body.data.logs[0];
    expect(reread).toEqual(entry);
  });
});

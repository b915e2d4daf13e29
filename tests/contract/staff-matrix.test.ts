/**
 * Authorization matrix, staff half: every route of the contract with staff or admin metadata (the
 * moderation queue and content actions, sanctions, copyright and appeal decisions, administration,
 * the staff log, whatever is added later) is found by walking the contract, and each is sent with a
 * request its schemas accept and real objects in its path:
 * - anonymous: 401 UNAUTHENTICATED;
 * - a signed-in user: 403 FORBIDDEN;
 * - any key, even an admin's with scope admin: 403 INSUFFICIENT_SCOPE (a key never acts as staff);
 * - a moderator: 403 FORBIDDEN on admin-only routes, and through on staff routes (the service
 *   answers: 2xx, or 404/409 for an object an earlier call already closed; never 400, 401 or 403);
 * and nothing any refused call tried is found changed afterwards.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { request, type HttpReply } from '../support/http.js';
import { createModerator } from '../support/moderation.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { literalPathParams, sampleRequest } from './inputs.js';
import { bodySchema, contractOperations, isMultipart, querySchema, type Operation } from './operations.js';

const operations = contractOperations();
const staffOperations = operations.filter((operation) => operation.meta.staff !== undefined);
const adminOnly = staffOperations.filter((operation) => operation.meta.staff === 'admin');
const staffWide = staffOperations.filter((operation) => operation.meta.staff === 'staff');

let server: TestServer;
let admin: TestUser;
let moderator: TestUser;
let user: TestUser;
/** The plain user every action falls on: a moderator may act on them. */
let target: TestUser;
let claimant: TestUser;
let adminKey: string;
/** What the path of a staff route names, by the segment before its parameters. */
const objects: Record<string, string> = {};
let reportedTrack: string;
let appealedTrack: string;

beforeAll(async () => {
  server = await startTestServer();
  [admin, moderator, user, target, claimant] = await Promise.all([
    createAdmin(server),
    createModerator(server),
    createUser(server),
    createUser(server),
    createUser(server),
  ]);
  const as = (caller: TestUser, method: string, path: string, body?: unknown) =>
    request(server.baseUrl, method, `/api/v1${path}`, { token: caller.accessToken, ...(body ? { body } : {}) });
  const expectOk = (reply: HttpReply, status: number) => expect(reply.status, reply.text).toBe(status);

  // a track of the target's with an open case (a user's report)
  reportedTrack = (await createTrack(server, target, { title: 'Reported' })).id;
  expectOk(await as(user, 'POST', '/reports', { target_type: 'track', target_id: reportedTrack, reason: 'spam' }), 201);
  // a claim against another of the target's tracks
  const claimed = (await createTrack(server, target, { title: 'Claimed' })).id;
  const claim = await as(claimant, 'POST', '/copyright/claims', {
    track_id: claimed,
    claimant_name: 'Rights Desk',
    claimant_email: 'rights@label.example',
    work_description: 'Our recording',
    statement_good_faith: true,
    statement_accuracy: true,
    signature: 'R. Desk',
  });
  expectOk(claim, 201);
  // an appeal of a third track, hidden by the admin (so the moderator may decide it)
  appealedTrack = (await createTrack(server, target, { title: 'Appealed' })).id;
  expectOk(await as(admin, 'POST', `/moderation/content/track/${appealedTrack}/hide`, { note: 'Have a look' }), 200);
  const appeal = await as(target, 'POST', '/appeals', {
    subject_type: 'content',
    subject_id: appealedTrack,
    message: 'It is mine',
  });
  expectOk(appeal, 201);
  // the strongest key there is: an admin's, with scope admin
  const key = await as(admin, 'POST', '/developer/api-keys', { name: 'staff?', scopes: ['read', 'write', 'admin'] });
  expectOk(key, 201);
  adminKey = key.body.data.key;

  Object.assign(objects, {
    users: target.id,
    cases: reportedTrack,
    content: reportedTrack,
    copyright: claim.body.data.claim.id,
    appeals: appeal.body.data.appeal.id,
  });
});

afterAll(async () => {
  await server?.close();
});

/**
 * The path with real objects: a parameter with literal values (a target type) takes `track` or
 * its first one; an id takes the object its collection segment names (`users/:id` the target,
 * `copyright/:id` the claim…), or a random id for a collection this file does not know yet.
 */
function pathOf(operation: Operation): string {
  const literals = literalPathParams(operation.route);
  const segments = operation.route.path.split('/');
  return segments
    .map((segment, index) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const allowed = literals[name];
      // literalPathParams gives the first literal; a track where the parameter allows one
      if (allowed !== undefined) return allowsTrack(operation, name) ? 'track' : allowed;
      const collection = segments
        .slice(0, index)
        .reverse()
        .find((candidate) => !candidate.startsWith(':'));
      return objects[collection ?? ''] ?? randomUUID();
    })
    .join('/');
}

function allowsTrack(operation: Operation, name: string): boolean {
  const schema = operation.route.pathParams as {
    shape?: Record<string, { safeParse(value: unknown): { success: boolean } }>;
  };
  return schema?.shape?.[name]?.safeParse('track').success ?? false;
}

/**
 * Bodies the rules accept too, for a moderator (a schema-valid body can still be refused by them: a
 * suspension in the past or beyond 30 days, a suspension without its length), so that what refuses
 * the calls below is who calls. Every other route gets a body generated from its schema.
 */
const actingBodies: Record<string, unknown> = {
  'moderation.resolveCase': { action: 'none', note: 'Looked at it' },
  'sanctions.suspend': { reason: 'Cool off', until: new Date(Date.now() + 7 * 86_400_000).toISOString() },
};

interface Sent {
  path: string;
  query: string;
  body: unknown;
}

/** A request the route's schemas accept: no query when none is required, a generated body. */
function requestFor(operation: Operation): Sent {
  const { route } = operation;
  const sample = sampleRequest(route, 7);
  const query = querySchema(route);
  const needsQuery = query !== undefined && !query.safeParse({}).success;
  const queryString = needsQuery
    ? `?${new URLSearchParams(Object.entries(sample.query ?? {}).map(([key, value]) => [key, String(value)]))}`
    : '';
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE' && bodySchema(route) !== undefined;
  const body = !hasBody ? undefined : operation.id in actingBodies ? actingBodies[operation.id] : sample.body;
  if (hasBody)
    expect(bodySchema(route)!.safeParse(body).success, `${operation.id}: body ${JSON.stringify(body)}`).toBe(true);
  return { path: pathOf(operation), query: queryString, body };
}

async function send(operation: Operation, credentials: { token?: string; key?: string }) {
  const sent = requestFor(operation);
  const reply = await request(server.baseUrl, operation.route.method, sent.path + sent.query, {
    ...(credentials.token ? { token: credentials.token } : {}),
    ...(credentials.key ? { headers: { 'x-api-key': credentials.key } } : {}),
    ...(sent.body !== undefined ? { body: sent.body } : {}),
  });
  return { sent, reply };
}

/** Sends every operation as the caller; lists each reply that is not the expected status and code. */
async function refusals(
  list: Operation[],
  credentials: { token?: string; key?: string },
  status: number,
  code: string,
) {
  const wrong: string[] = [];
  for (const operation of list) {
    const { sent, reply } = await send(operation, credentials);
    if (reply.status !== status || reply.body?.error?.code !== code) {
      wrong.push(`${operation.id} ${operation.route.method} ${sent.path}: ${reply.status} ${reply.text.slice(0, 160)}`);
    }
  }
  return wrong;
}

/** What the staff routes could change, read as the admin and the target see it. */
async function world() {
  const read = async (path: string, caller: TestUser = admin) => {
    const reply = await request(server.baseUrl, 'GET', `/api/v1${path}`, { token: caller.accessToken });
    expect(reply.status, `${path}: ${reply.text}`).toBe(200);
    return reply.body.data;
  };
  const { role, is_admin, status, is_verified, quota_bytes, sanctions, email } = (
    await read(`/admin/users/${target.id}`)
  ).user;
  const { case: found } = await read(`/moderation/cases/track/${reportedTrack}`);
  const track = async (id: string) => (await read(`/tracks/${id}`)).track.moderation_status ?? 'visible';
  const staffLog = async (actor: TestUser) => (await read(`/admin/audit?actor_id=${actor.id}`)).pagination.total;
  const settings = (await read('/admin/settings')).settings;
  return {
    target: { role, is_admin, status, is_verified, quota_bytes, sanctions, email },
    // revoke-sessions would have signed the target out
    targetSignedIn: (await request(server.baseUrl, 'GET', '/api/v1/users/me', { token: target.accessToken })).status,
    case: {
      status: found.status,
      assigned_to: found.assigned_to,
      report_count: found.report_count,
      history: found.history.length,
    },
    tracks: [await track(reportedTrack), await track(appealedTrack)],
    claims: (await read('/copyright/claims/mine', claimant)).made.map((claim: { status: string }) => claim.status),
    appeals: (await read('/appeals/mine', target)).appeals.map((appeal: { status: string }) => appeal.status),
    settingsChangedByCaller: [user.id, moderator.id].includes(settings.updated_by),
    staffLog: { user: await staffLog(user), moderator: await staffLog(moderator), admin: await staffLog(admin) },
  };
}

describe('the staff routes of the whole contract', () => {
  it('are found in every trust and safety area, all bearer-only; every /admin and /moderation route is one', () => {
    const areas = new Set(staffOperations.map((operation) => operation.keys[0]));
    expect([...areas].sort()).toEqual(
      expect.arrayContaining(['admin', 'appeals', 'copyright', 'moderation', 'sanctions']),
    );
    expect(adminOnly.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(['admin.audit', 'admin.setRole', 'sanctions.ban', 'sanctions.unban']),
    );
    expect(staffWide.map((operation) => operation.id)).toEqual(
      expect.arrayContaining(['moderation.resolveCase', 'copyright.decide', 'appeals.decide', 'sanctions.suspend']),
    );
    // staff act signed in with their password: a staff route is a user route no key may call
    expect(
      staffOperations.filter((operation) => operation.meta.auth !== 'user' || operation.meta.apiKey).map((op) => op.id),
    ).toEqual([]);
    // a route under the staff prefixes without the metadata would be open to every signed-in user
    const untagged = operations.filter(
      (operation) =>
        /^\/api\/v1\/(admin|moderation)\//.test(operation.route.path) && operation.meta.staff === undefined,
    );
    expect(untagged.map((operation) => `${operation.id} ${operation.route.path}`)).toEqual([]);
    // no multipart staff route yet: bodies below are JSON
    expect(staffOperations.filter((operation) => isMultipart(operation.route)).map((op) => op.id)).toEqual([]);
  });

  it('refuse the anonymous (401), users (403), any key (403 INSUFFICIENT_SCOPE) and moderators on admin routes (403), changing nothing', async () => {
    const before = await world();
    expect(before.case.status).toBe('open');
    expect(before.tracks).toEqual(['visible', 'hidden']);
    expect(before.claims).toEqual(['pending']);
    expect(before.appeals).toEqual(['open']);
    expect(before.targetSignedIn).toBe(200);
    expect(before.staffLog).toMatchObject({ user: 0, moderator: 0 });

    expect(await refusals(staffOperations, {}, 401, 'UNAUTHENTICATED')).toEqual([]);
    expect(await refusals(staffOperations, { token: user.accessToken }, 403, 'FORBIDDEN')).toEqual([]);
    expect(await refusals(staffOperations, { key: adminKey }, 403, 'INSUFFICIENT_SCOPE')).toEqual([]);
    expect(await refusals(adminOnly, { token: moderator.accessToken }, 403, 'FORBIDDEN')).toEqual([]);

    expect(await world()).toEqual(before);
  });

  it('let a moderator through every staff route (the service answers, with real objects)', async () => {
    const answered: Record<string, number> = {};
    const wrong: string[] = [];
    for (const operation of staffWide) {
      const { sent, reply } = await send(operation, { token: moderator.accessToken });
      answered[operation.id] = reply.status;
      const through = (reply.status >= 200 && reply.status < 300) || reply.status === 404 || reply.status === 409;
      if (!through || (operation.route.method === 'GET' && reply.status !== 200)) {
        wrong.push(
          `${operation.id} ${operation.route.method} ${sent.path}: ${reply.status} ${reply.text.slice(0, 200)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
    // the known actions did what a moderator may do (the case, closed by resolve, is no longer open to dismiss)
    expect(answered).toMatchObject({
      'moderation.resolveCase': 200,
      'moderation.dismissCase': 404,
      'moderation.hideContent': 200,
      'copyright.decide': 200,
      'sanctions.warn': 201,
      'sanctions.suspend': 201,
      'sanctions.unsuspend': 200,
      'appeals.decide': 200,
    });
  });
});

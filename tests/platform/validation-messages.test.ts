import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesFrom } from '../../server/src/platform/errors/error-middleware.js';
import { signedInUser } from '../support/accounts.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

interface Detail {
  field: string;
  message: string;
  value: string;
}

/** The message names its field (its last segment, or "body" for the whole body). */
function expectNamed(details: Detail[]) {
  expect(details.length).toBeGreaterThan(0);
  for (const detail of details) {
    const name = detail.field === 'body' ? 'body' : detail.field.split('.').pop()!;
    expect(detail.message.toLowerCase(), JSON.stringify(detail)).toContain(name.toLowerCase());
    expect(detail.message).not.toMatch(/received nan|^Required$|^Invalid input$|^Expected /);
  }
}

describe('validation messages a person can act on', () => {
  it('a missing body is field "body" and says a JSON object is expected', async () => {
    const reply = await suite.http.post('/auth/register');
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details).toEqual([
      { field: 'body', message: 'A body is required: a JSON object', value: '' },
    ]);
    expect(reply.body.error.message).toBe('A body is required: a JSON object');
  });

  it('the valid JSON null (or 42) is not called "not valid JSON": the body must be an object', async () => {
    for (const [raw, what] of [
      ['null', 'null'],
      ['42', 'a number'],
      ['[]', 'an array'],
    ] as const) {
      const reply = await suite.http.post('/auth/register', {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status, raw).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
      expect(reply.body.error.message).toBe(`The body must be a JSON object, not ${what}`);
      expect(reply.body.error.details[0]).toMatchObject({ field: 'body', value: raw });
    }
    const malformed = await suite.http.post('/auth/register', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.body.error).toMatchObject({ code: 'BAD_REQUEST', message: 'The body is not valid JSON' });
  });

  it('a bad path id echoes the value sent', async () => {
    const alice = await signedInUser(suite.server);
    const reply = await suite.http.post('/users/not-a-uuid/follow', { token: alice.accessToken });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_ID');
    expect(reply.body.error.details).toEqual([
      { field: 'id', message: expect.stringContaining('must be a UUID'), value: 'not-a-uuid' },
    ]);
    expectNamed(reply.body.error.details);
  });

  it('a number field that is missing or not a number names the field and says a number is expected', async () => {
    const bad = await suite.http.get('/users?limit=abc');
    expect(bad.body.error.details).toEqual([
      { field: 'query.limit', message: 'limit (query parameter) must be a number', value: 'abc' },
    ]);
    const small = await suite.http.get('/users?limit=0');
    expect(small.body.error.details[0].message).toBe('limit (query parameter) must be at least 1');

    // a required number (multipart and query fields are coerced: a missing one used to be "Expected number, received nan")
    const schema = z.object({ total_chunks: z.coerce.number().int().min(1), chunk_number: z.coerce.number().int() });
    const issues = issuesFrom(schema.safeParse({ chunk_number: 'x' }).error!, { chunk_number: 'x' });
    expect(issues).toEqual([
      { field: 'total_chunks', message: 'total_chunks is required: a number', value: '' },
      { field: 'chunk_number', message: 'chunk_number must be a number', value: 'x' },
    ]);
  });

  it('every message names its field and says what was expected', async () => {
    const alice = await signedInUser(suite.server);
    const replies = [
      await suite.http.post('/auth/register', { body: {} }),
      await suite.http.post('/auth/register', { body: { email: 5, password: true, username: 'a b' } }),
      await suite.http.post('/auth/login', { body: { email: 'nope', password: '', remember_me: 'yes' } }),
      await suite.http.get('/users?sort_by=bogus&is_active=maybe&limit=1000&page=-1'),
      await suite.http.put('/users/me', {
        token: alice.accessToken,
        body: { gender: 'x', birthdate: '1990-13-01', social_links: { a: 'javascript:x' }, bio: 'b'.repeat(501) },
      }),
      await suite.http.delete('/users/me', { token: alice.accessToken, body: { confirm_text: 'nope' } }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expectNamed(reply.body.error.details);
      expect(reply.body.error.message).toBe(
        reply.body.error.details.length === 1
          ? reply.body.error.details[0].message
          : `${reply.body.error.details[0].message} (and ${reply.body.error.details.length - 1} more: see details)`,
      );
    }
    const sortBy = replies[3]!.body.error.details.find((detail: Detail) => detail.field === 'query.sort_by');
    expect(sortBy.message).toBe(
      'sort_by (query parameter) must be one of "created_at", "username", "email", "last_login_at"',
    );
    const isActive = replies[3]!.body.error.details.find((detail: Detail) => detail.field === 'query.is_active');
    expect(isActive.message).toBe('is_active (query parameter) must be one of true, false');
    const email = replies[1]!.body.error.details.find((detail: Detail) => detail.field === 'email');
    expect(email.message).toBe('email must be a string, not a number');
  });
});

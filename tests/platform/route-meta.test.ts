import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { contract, routeMeta } from '@riff/contract';
import { createContractRouter } from '../../server/src/platform/http/contract-router.js';

const c = initContract();
const handler = async () => ({ status: 200 as const, body: { ok: true } });

describe('route auth metadata', () => {
  it('a route without auth metadata cannot be served: registering it fails, naming the route', () => {
    const forgotten = c.router({
      tagged: {
        method: 'GET',
        path: '/tagged',
        responses: { 200: z.object({ ok: z.boolean() }) },
        metadata: { auth: 'public', apiKey: false },
      },
      untagged: { method: 'GET', path: '/untagged', responses: { 200: z.object({ ok: z.boolean() }) } },
    });
    expect(() =>
      createContractRouter(forgotten, { tagged: handler, untagged: handler }, { middleware: [], replies: 'trust' }),
    ).toThrow(/GET \/untagged declares no auth metadata/);
  });

  it('a route with an auth value outside the four kinds is refused too', () => {
    const odd = c.router({
      odd: {
        method: 'POST',
        path: '/odd',
        body: null,
        responses: { 200: z.object({ ok: z.boolean() }) },
        metadata: { auth: 'admin' },
      },
    });
    expect(() => createContractRouter(odd, { odd: handler }, { middleware: [], replies: 'trust' })).toThrow(
      /POST \/odd declares no auth metadata/,
    );
  });

  it('every route of the contract declares its auth', () => {
    const walk = (router: object): string[] =>
      Object.values(router).flatMap((value: { method?: string; path?: string }) =>
        value.method && value.path ? [`${value.method} ${value.path} ${routeMeta(value).auth}`] : walk(value),
      );
    expect(walk(contract).length).toBeGreaterThan(50);
  });

  it('every route that reads credentials but refuses API keys declares the 403 INSUFFICIENT_SCOPE a key gets', () => {
    const walk = (
      router: object,
    ): { method: string; path: string; metadata?: unknown; responses: Record<string, unknown> }[] =>
      Object.values(router).flatMap((value) => (value.method && value.path ? [value] : walk(value)));
    const keyless = walk(contract).filter((route) => {
      const meta = routeMeta(route);
      return meta.auth !== 'public' && !meta.apiKey && !meta.lenient;
    });
    expect(keyless.map((route) => `${route.method} ${route.path}`)).toContain('POST /api/v1/auth/password/change');
    expect(
      keyless.filter((route) => !('403' in route.responses)).map((route) => `${route.method} ${route.path}`),
    ).toEqual([]);
  });
});

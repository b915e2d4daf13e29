import type { AddressInfo } from 'node:net';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createContractRouter } from '../../server/src/platform/http/contract-router.js';
import { createHttpServer } from '../../server/src/platform/http/http-server.js';
import type { RiffRequest, RiffResponse } from '../../server/src/platform/http/http-exchange.js';

const c = initContract();
const meta = { auth: 'public', apiKey: false } as const;
const small = c.router({
  exact: { method: 'GET', path: '/exact', responses: { 200: z.object({ name: z.string() }) }, metadata: meta },
  leaky: { method: 'GET', path: '/leaky', responses: { 200: z.object({ name: z.string() }) }, metadata: meta },
  wrong: { method: 'GET', path: '/wrong', responses: { 200: z.object({ name: z.string() }) }, metadata: meta },
});
const handlers = {
  exact: async () => ({ status: 200 as const, body: { name: 'a' } }),
  // a mapper that forgot to leave out an internal field
  leaky: async () => ({ status: 200 as const, body: { name: 'a', file_path: '/srv/riff/secret.wav' } }),
  wrong: async () => ({ status: 200 as const, body: { name: 42 as unknown as string } }),
};

const closers: (() => void)[] = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

async function serve(replies: 'trust' | 'check') {
  const router = createContractRouter(small, handlers, { middleware: [], replies });
  const server = createHttpServer((req, res) => {
    const match = router.match(req as RiffRequest)!;
    router.serve(
      match,
      req as RiffRequest,
      res as RiffResponse,
      () => void (res as RiffResponse).status(500).json({ failed: true }),
    );
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (path: string) => {
    const response = await fetch(base + path);
    return { status: response.status, body: await response.json() };
  };
}

describe('replies held to the contract', () => {
  it('with check, a reply carrying an undeclared field fails instead of being cleaned up silently', async () => {
    const get = await serve('check');
    expect(await get('/exact')).toEqual({ status: 200, body: { name: 'a' } });
    expect((await get('/leaky')).status).toBe(500);
    expect((await get('/wrong')).status).toBe(500);
  });

  it('with trust (production), replies go out as built, unparsed', async () => {
    const get = await serve('trust');
    expect(await get('/exact')).toEqual({ status: 200, body: { name: 'a' } });
    expect(await get('/leaky')).toEqual({ status: 200, body: { name: 'a', file_path: '/srv/riff/secret.wav' } });
  });
});

/**
 * The soak's mixed workload as one autocannon request whose setupRequest draws an operation by
 * weight: catalogue and profile reads, profile and track edits, follows and unfollows, and small
 * uploads. Every operation expects a 2xx; anything else is tallied per operation as an error.
 */
import type { Request as CannonRequest } from 'autocannon';
import type { BenchUser } from './bench-support.js';

export interface SoakUser extends BenchUser {
  trackIds: string[];
}

export interface Upload {
  body: Buffer;
  contentType: string;
}

interface Operation {
  name: string;
  weight: number;
  build(
    user: SoakUser,
    other: SoakUser,
    pick: <T>(items: T[]) => T,
  ): { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer };
}

const json = { 'content-type': 'application/json' };
const API = '/api/v1';

function operations(users: SoakUser[], upload: Upload): Operation[] {
  const anyTrack = (pick: <T>(items: T[]) => T) => pick(pick(users).trackIds);
  return [
    {
      name: 'GET /tracks',
      weight: 20,
      build: (_u, _o, pick) => ({ method: 'GET', path: `${API}/tracks?limit=20&page=${pick([1, 1, 1, 2, 3])}` }),
    },
    {
      name: 'GET /tracks?q',
      weight: 5,
      build: (_u, _o, pick) => ({ method: 'GET', path: `${API}/tracks?q=${pick(['soak', 'tone', 'edit'])}&limit=10` }),
    },
    {
      name: 'GET /tracks/{id}',
      weight: 20,
      build: (_u, _o, pick) => ({ method: 'GET', path: `${API}/tracks/${anyTrack(pick)}` }),
    },
    {
      name: 'GET /users/{id}',
      weight: 15,
      build: (_u, other) => ({ method: 'GET', path: `${API}/users/${other.id}` }),
    },
    {
      name: 'PUT /users/me',
      weight: 10,
      build: (_u, _o, pick) => ({
        method: 'PUT',
        path: `${API}/users/me`,
        headers: json,
        body: JSON.stringify({
          bio: `soak bio ${Math.random().toString(36).slice(2)}`,
          location: pick(['Lisbon', 'Oslo', null]),
          first_name: pick(['Ana', 'Bo']),
        }),
      }),
    },
    {
      name: 'POST /users/{id}/follow',
      weight: 7,
      build: (_u, other) => ({ method: 'POST', path: `${API}/users/${other.id}/follow` }),
    },
    {
      name: 'DELETE /users/{id}/follow',
      weight: 7,
      build: (_u, other) => ({ method: 'DELETE', path: `${API}/users/${other.id}/follow` }),
    },
    {
      name: 'PUT /tracks/{id}',
      weight: 10,
      build: (user, _o, pick) => ({
        method: 'PUT',
        path: `${API}/tracks/${pick(user.trackIds)}`,
        headers: json,
        body: JSON.stringify({
          title: `soak edit ${Math.random().toString(36).slice(2, 8)}`,
          bpm: pick([90, 120, 140]),
          tags: [pick(['soak', 'tone'])],
        }),
      }),
    },
    {
      name: 'POST /tracks (upload)',
      weight: 6,
      build: () => ({
        method: 'POST',
        path: `${API}/tracks`,
        headers: { 'content-type': upload.contentType },
        body: upload.body,
      }),
    },
  ];
}

export interface Tally {
  /** replies by operation and status */
  replies: Map<string, Map<number, number>>;
}

export const newTally = (): Tally => ({ replies: new Map() });

/** Replies that are not 2xx, by operation and status. */
export function unexpected(tally: Tally): { operation: string; status: number; count: number }[] {
  return [...tally.replies].flatMap(([operation, statuses]) =>
    [...statuses]
      .filter(([status]) => status < 200 || status >= 300)
      .map(([status, count]) => ({ operation, status, count })),
  );
}

/** The autocannon request list for the mix; replies are counted into `tally`. */
export function mixedRequests(users: SoakUser[], upload: Upload, tally: Tally): CannonRequest[] {
  const ops = operations(users, upload);
  const totalWeight = ops.reduce((sum, op) => sum + op.weight, 0);
  const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
  const draw = () => {
    let ticket = Math.random() * totalWeight;
    for (const op of ops) if ((ticket -= op.weight) < 0) return op;
    return ops[ops.length - 1]!;
  };
  return [
    {
      setupRequest: (request, context) => {
        const op = draw();
        const user = pick(users);
        const others = users.filter((candidate) => candidate !== user);
        const built = op.build(user, pick(others), pick);
        (context as { operation?: string }).operation = op.name;
        return {
          ...request,
          method: built.method as CannonRequest['method'],
          path: built.path,
          headers: { authorization: `Bearer ${user.accessToken}`, ...built.headers },
          body: built.body ?? '',
        };
      },
      onResponse: (status, _body, context) => {
        const operation = (context as { operation?: string }).operation ?? '?';
        const statuses = tally.replies.get(operation) ?? new Map<number, number>();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        tally.replies.set(operation, statuses);
      },
    },
  ];
}

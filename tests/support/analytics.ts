import type { PlaySource } from '@riff/contract';
import type { Clock } from '../../server/src/platform/clock.js';
import { api } from './http.js';
import { runJob } from './jobs.js';
import type { TestServer } from './test-server.js';

/** A clock a test sets: analytics count by the UTC day of the service's clock. */
export class SetClock implements Clock {
  private at: number;
  constructor(iso: string) {
    this.at = Date.parse(iso);
  }
  now(): Date {
    return new Date(this.at);
  }
  set(iso: string): void {
    this.at = Date.parse(iso);
  }
}

/** Runs the roll-up job now: the figures then hold every event recorded so far. */
export async function rollUp(server: TestServer): Promise<{ applied: number }> {
  return runJob<{ applied: number }>(server, 'analytics.rollup');
}

export interface PlayOptions {
  source?: PlaySource;
  playlistId?: string;
  /** Sent as X-Forwarded-For (read when TRUST_PROXY is on). */
  address?: string;
  userAgent?: string;
}

/** Reports a play as a player would (signed in with `token`, else anonymous); answers whether it counted. */
export async function reportPlay(
  server: TestServer,
  token: string | null,
  trackId: string,
  seconds: number,
  options: PlayOptions = {},
): Promise<boolean> {
  const headers: Record<string, string> = { 'user-agent': options.userAgent ?? 'analytics-test' };
  if (options.address) headers['x-forwarded-for'] = options.address;
  const body: Record<string, unknown> = { duration_listened: seconds };
  if (options.source) body['source'] = options.source;
  if (options.playlistId) body['playlist_id'] = options.playlistId;
  const reply = await api(server.directUrl).post(`/tracks/${trackId}/play`, {
    ...(token ? { token } : {}),
    headers,
    body,
  });
  if (reply.status !== 200) throw new Error(`play answered ${reply.status}: ${reply.text}`);
  return reply.body.data.counted === true;
}

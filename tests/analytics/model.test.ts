import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { reportPlay, rollUp, SetClock } from '../support/analytics.js';
import {
  AnalyticsModel,
  DAY_MS,
  dayNumber,
  INTERVALS,
  isoDay,
  type ModelListener,
  PERIODS,
} from '../support/analytics-model.js';
import { createUser, type TestUser } from '../support/factories.js';
import { seedNamedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';

// Random scenarios of plays, likes and follows, driven through HTTP with the service's clock set
// before each action, against figures a brute-force model computes from the scenario itself. The
// roll-ups keep one open day for the whole service, so time only moves forward: each run gets a
// fresh creator and listeners and the days after the run before it. A failure prints
// fast-check's seed and path: ANALYTICS_MODEL_SEED (and ANALYTICS_MODEL_PATH) replay it.
const RUNS = Number(process.env['ANALYTICS_MODEL_RUNS'] ?? 15);
const SEED = process.env['ANALYTICS_MODEL_SEED'];
const PATH = process.env['ANALYTICS_MODEL_PATH'];
const START = Date.parse('2027-01-04T00:00:00Z');
const MINUTE_MS = 60_000;

const clock = new SetClock(new Date(START).toISOString());
const suite = useTestServer({ TRUST_PROXY: 'true' }, { clock }, { ownDatabase: true });

/** Users made ahead (making them is the slow part of a run); each run takes its own. */
const pool: TestUser[] = [];
async function takeUsers(count: number): Promise<TestUser[]> {
  while (pool.length < count) pool.push(...(await Promise.all([1, 2, 3, 4].map(() => createUser(suite.server)))));
  return pool.splice(0, count);
}

beforeAll(async () => {
  for (let made = 0; made < Math.min(RUNS, 25) * 4; made += 8) {
    pool.push(...(await Promise.all(Array.from({ length: 8 }, () => createUser(suite.server)))));
  }
}, 120_000);

// days and minutes cluster sometimes, so the 30-minute rule and the address bound come into play
const dayArb = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 8 }));
const minuteArb = fc.oneof(
  fc.integer({ min: 0, max: 1439 }),
  fc.integer({ min: 600, max: 700 }),
  // around midnight: the 30-minute rule holds across it, an anonymous listener is new after it
  fc.constantFrom(0, 1, 15, 1410, 1425, 1439),
);
const scenarioArb = fc.record({
  durations: fc.array(fc.integer({ min: 30, max: 300 }), { minLength: 2, maxLength: 3 }),
  signedIn: fc.integer({ min: 1, max: 6 }),
  anonymous: fc.integer({ min: 0, max: 3 }),
  plays: fc.array(
    fc.record({
      day: dayArb,
      minute: minuteArb,
      track: fc.nat(2),
      listener: fc.nat(8),
      // per mille of the part of the track past 30 s
      share: fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.constantFrom(0, 900, 1000)),
    }),
    { minLength: 1, maxLength: 25 },
  ),
  social: fc.array(
    fc.record({
      kind: fc.constantFrom(...(['like', 'follow', 'unfollow'] as const)),
      day: dayArb,
      minute: minuteArb,
      user: fc.nat(5),
      track: fc.nat(2),
    }),
    { maxLength: 8 },
  ),
  rollUps: fc.array(fc.record({ day: dayArb, minute: minuteArb }), { maxLength: 3 }),
  today: fc.integer({ min: 0, max: 120 }),
  todayMinute: fc.integer({ min: 0, max: 1439 }),
  /** Per period, the track (index) and interval (index) whose reply is read. */
  trackReads: fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: PERIODS.length, maxLength: PERIODS.length }),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

type Action =
  | { kind: 'play'; at: number; track: number; listener: ModelListener; seconds: number }
  | { kind: 'like'; at: number; user: number; track: number }
  | { kind: 'follow' | 'unfollow'; at: number; user: number }
  | { kind: 'rollUp'; at: number };

/** The scenario's actions in time order (equal times in the order generated). */
function actionsOf(scenario: Scenario, durations: readonly number[], base: number): Action[] {
  const at = (day: number, minute: number) => base + day * DAY_MS + minute * MINUTE_MS;
  const listeners = scenario.signedIn + scenario.anonymous;
  const actions: Action[] = [
    ...scenario.plays.map((play): Action => {
      const track = play.track % durations.length;
      const index = play.listener % listeners;
      const duration = durations[track]!;
      return {
        kind: 'play',
        at: at(play.day, play.minute),
        track,
        listener:
          index < scenario.signedIn ? { kind: 'user', index } : { kind: 'anonymous', index: index - scenario.signedIn },
        seconds: 30 + Math.round(((duration - 30) * play.share) / 1000),
      };
    }),
    ...scenario.social.map((social): Action => {
      const when = at(social.day, social.minute);
      const user = social.user % scenario.signedIn;
      return social.kind === 'like'
        ? { kind: 'like', at: when, user, track: social.track % durations.length }
        : { kind: social.kind, at: when, user };
    }),
    ...scenario.rollUps.map((moment): Action => ({ kind: 'rollUp', at: at(moment.day, moment.minute) })),
  ];
  return actions
    .map((action, order) => ({ action, order }))
    .sort((a, b) => a.action.at - b.action.at || a.order - b.order)
    .map(({ action }) => action);
}

interface TopTrack {
  track: { id: string };
  plays: number;
  listening_seconds: number;
  completion_rate: number;
}

/** What differs: of objects the keys, of lists the entries (with their index). */
function difference(actual: unknown, expected: unknown): string {
  if (Array.isArray(actual) && Array.isArray(expected) && actual.length === expected.length) {
    const entries = expected.flatMap((want, index) =>
      isDeepStrictEqual(actual[index], want) ? [] : [`[${index}] ${difference(actual[index], want)}`],
    );
    return entries.join('; ');
  }
  if (actual && expected && typeof actual === 'object' && typeof expected === 'object' && !Array.isArray(actual)) {
    const keys = Object.keys(expected).filter(
      (key) => !isDeepStrictEqual((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]),
    );
    const pick = (value: object) =>
      JSON.stringify(Object.fromEntries(keys.map((key) => [key, (value as Record<string, unknown>)[key]])));
    const date = (expected as Record<string, unknown>)['date'];
    return `${date ? `${String(date)} ` : ''}expected ${pick(expected)}, got ${pick(actual)}`;
  }
  return `expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

let run = 0;
/** Where the next run's days begin: the day after the last run's "today" (the roll-ups begin each day in between). */
let nextStart = START;

async function check(scenario: Scenario): Promise<void> {
  const base = nextStart;
  run += 1;
  const [creator, ...listeners] = await takeUsers(1 + scenario.signedIn);
  const durations = scenario.durations;
  const trackIds = await seedNamedTracks(
    suite.server,
    creator!.id,
    durations.map((duration, index) => ({ title: `Model ${run}.${index}`, duration })),
  );
  const anonymous = Array.from({ length: scenario.anonymous }, (_, index) => ({
    address: `10.${(run >> 8) & 255}.${run & 255}.${index + 1}`,
    userAgent: `model-player/${run}.${index}`,
  }));
  const model = new AnalyticsModel(durations);
  const log: string[] = [];
  const problems: string[] = [];
  const actions = actionsOf(scenario, durations, base);

  for (const action of actions) {
    clock.set(new Date(action.at).toISOString());
    const when = new Date(action.at).toISOString().slice(0, 16);
    if (action.kind === 'play') {
      const { listener, track, seconds } = action;
      const expected = model.play(action.at, track, listener, seconds);
      const token = listener.kind === 'user' ? listeners[listener.index]!.token : null;
      const counted = await reportPlay(suite.server, token, trackIds[track]!, seconds, {
        ...(listener.kind === 'anonymous' ? anonymous[listener.index] : {}),
      });
      log.push(`${when} play track ${track} by ${listener.kind} ${listener.index} ${seconds}s: ${counted}`);
      if (counted !== expected) problems.push(`${when}: play counted ${counted}, the model says ${expected}`);
    } else if (action.kind === 'like') {
      model.like(action.at, action.user, action.track);
      const reply = await suite.http.post(`/tracks/${trackIds[action.track]}/like`, {
        token: listeners[action.user]!.token,
      });
      expect(reply.status).toBe(200);
      log.push(`${when} like track ${action.track} by user ${action.user}`);
    } else if (action.kind === 'rollUp') {
      await rollUp(suite.server);
      log.push(`${when} roll-up`);
    } else {
      const follows = action.kind === 'follow';
      model.follow(action.at, action.user, follows);
      const path = `/users/${creator!.id}/follow`;
      const token = listeners[action.user]!.token;
      const reply = follows ? await suite.http.post(path, { token }) : await suite.http.delete(path, { token });
      expect(reply.status).toBe(200);
      log.push(`${when} ${action.kind} by user ${action.user}`);
    }
  }

  const last = actions[actions.length - 1]!.at;
  const final = Math.max(
    last,
    base + (dayNumber(last - base) + scenario.today) * DAY_MS + scenario.todayMinute * MINUTE_MS,
  );
  clock.set(new Date(final).toISOString());
  await rollUp(suite.server);
  const today = dayNumber(final);
  nextStart = (today + 1) * DAY_MS;
  log.push(`today ${isoDay(today)}`);

  const compare = (what: string, actual: Record<string, unknown>, expected: Record<string, unknown>) => {
    for (const [field, want] of Object.entries(expected)) {
      const got = actual[field];
      if (!isDeepStrictEqual(got, want)) problems.push(`${what} ${field}: ${difference(got, want)}`);
    }
  };
  for (const [periodIndex, period] of PERIODS.entries()) {
    for (const [intervalIndex, interval] of INTERVALS.entries()) {
      const query = `period=${period}&interval=${interval}`;
      const reply = await suite.http.get(`/analytics/overview?${query}`, { token: creator!.token });
      expect(reply.status).toBe(200);
      const data = reply.body.data;
      compare(
        `overview ${query}`,
        {
          ...data,
          top_tracks: data.top_tracks.map(({ track, plays, listening_seconds, completion_rate }: TopTrack) => ({
            id: track.id,
            plays,
            listening_seconds,
            completion_rate,
          })),
        },
        model.overview(today, period, interval, trackIds),
      );
      // one track with one interval of each period, as the scenario picks (all would triple the file's time)
      const [pickedTrack, pickedInterval] = scenario.trackReads[periodIndex]!;
      const track = pickedTrack % trackIds.length;
      if (pickedInterval === intervalIndex) {
        const id = trackIds[track]!;
        const trackReply = await suite.http.get(`/analytics/tracks/${id}?${query}`, { token: creator!.token });
        expect(trackReply.status).toBe(200);
        compare(`track ${track} ${query}`, trackReply.body.data, model.track(today, track, period, interval));
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} discrepancies; durations ${JSON.stringify(durations)}, run days from ${isoDay(dayNumber(base))}\n` +
        `${log.join('\n')}\n---\n${problems.slice(0, 12).join('\n')}`,
    );
  }
}

describe('analytics: the roll-ups against a brute-force model', () => {
  it('replies with the figures counted from every play, like and follow of random scenarios', async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, check), {
      numRuns: RUNS,
      ...(SEED ? { seed: Number(SEED) } : {}),
      ...(PATH ? { path: PATH } : {}),
      // a shrunk counterexample is what a report needs; bound the time spent finding it
      interruptAfterTimeLimit: 600_000,
    });
  }, 900_000);
});

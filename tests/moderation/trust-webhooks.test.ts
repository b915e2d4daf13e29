import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { webhookHelpers } from '../webhooks/webhook-helpers.js';

// Trust and safety's events as webhook events, over HTTP to real receivers: each reaches the one user
// it concerns (the content's owner, the reporter, each party of a claim, the strike's account, the
// appellant) with what that user may read, never naming staff, the reporter to the reported, nor the
// claimant's email; nobody else's webhook gets anything.
const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const { register, ownReceiver, settled } = webhookHelpers(suite, () => 'http://127.0.0.1:9/unused');

const TRUST_EVENTS = [
  'content.moderated',
  'report.closed',
  'copyright.claimed',
  'copyright.countered',
  'copyright.upheld',
  'copyright.rejected',
  'strike.added',
  'strike.lifted',
  'appeal.created',
  'appeal.granted',
  'appeal.denied',
];
const CLAIMANT_EMAIL = 'rights@harbour.example';

type Message = { type: string; timestamp: string; data: Record<string, any> };

/** A user whose webhook (its own receiver) asks for `events`. */
async function hooked(user: TestUser, events: string[] = TRUST_EVENTS) {
  const receiver = await ownReceiver();
  const hook = await register(user, { events }, receiver.url);
  return { user, receiver, hook };
}
type Hooked = Awaited<ReturnType<typeof hooked>>;

/** What the hook received once every event was dispatched and every delivery ended, each signature checked. */
async function received(target: Hooked): Promise<{ messages: Message[]; raw: string }> {
  await runDueJobs(suite.server);
  await settled(target.user, target.hook.webhook.id, (rows) => rows.every((row) => row.status !== 'pending'));
  const messages = target.receiver.received.map((request) => target.receiver.verify(request, target.hook.secret));
  return { messages, raw: target.receiver.received.map((request) => request.body).join('\n') };
}

const typesOf = (messages: Message[]) => messages.map((message) => message.type).sort();
const one = (messages: Message[], type: string, where: (data: Record<string, any>) => boolean = () => true) => {
  const found = messages.filter((message) => message.type === type && where(message.data));
  expect(found, `${type} in ${JSON.stringify(messages)}`).toHaveLength(1);
  return found[0]!.data;
};

const post = async (caller: TestUser, path: string, body?: unknown) => {
  const reply = await suite.http.post(path, { token: caller.accessToken, ...(body ? { body } : {}) });
  expect(reply.status, `${path}: ${reply.text}`).toBeLessThan(300);
  return reply.body.data;
};

describe('trust and safety webhook events', () => {
  it('moderation reaches the content’s owner, a closed report its reporter, appeals the appellant; nobody else', async () => {
    const [owner, reporter, bystander] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const [moderator, reviewer] = await Promise.all([createModerator(suite.server), createModerator(suite.server)]);
    const [ownerHook, reporterHook, bystanderHook] = await Promise.all([
      hooked(owner),
      hooked(reporter),
      hooked(bystander, ['*']),
    ]);
    const track = await createTrack(suite.server, owner, { title: 'Loud Night' });
    const other = await createTrack(suite.server, owner, { title: 'Quiet Day' });

    const { report } = await post(reporter, '/reports', {
      target_type: 'track',
      target_id: track.id,
      reason: 'spam',
      details: `Reported by ${reporter.username}`,
    });
    await post(moderator, `/moderation/cases/track/${track.id}/resolve`, { action: 'hide', note: 'Spam links' });
    const { appeal } = await post(owner, '/appeals', {
      subject_type: 'content',
      subject_id: track.id,
      message: 'The links are my shop',
    });
    await post(reviewer, `/moderation/appeals/${appeal.id}/decide`, { outcome: 'denied', note: 'Still spam' });
    await post(moderator, `/moderation/content/track/${track.id}/restore`, { note: 'Links removed' });
    const { report: second } = await post(reporter, '/reports', {
      target_type: 'track',
      target_id: other.id,
      reason: 'other',
    });
    await post(moderator, `/moderation/cases/track/${other.id}/dismiss`, { note: 'Fine as it is' });

    // the owner: both changes of state and their appeal, never a report, the reporter or staff
    const mine = await received(ownerHook);
    expect(typesOf(mine.messages)).toEqual([
      'appeal.created',
      'appeal.denied',
      'content.moderated',
      'content.moderated',
    ]);
    expect(one(mine.messages, 'content.moderated', (data) => data.content.moderation_status === 'hidden')).toEqual({
      actor: null,
      content: {
        target_type: 'track',
        target_id: track.id,
        moderation_status: 'hidden',
        moderation_reason: 'Spam links',
      },
      previous_status: 'visible',
      title: 'Loud Night',
    });
    expect(one(mine.messages, 'content.moderated', (data) => data.content.moderation_status === 'visible')).toEqual({
      actor: null,
      content: { target_type: 'track', target_id: track.id, moderation_status: 'visible', moderation_reason: null },
      previous_status: 'hidden',
      title: 'Loud Night',
    });
    // their own appeal names them; staff's decision names nobody, the note is theirs to read
    expect(one(mine.messages, 'appeal.created')).toEqual({
      actor: { id: owner.id, username: owner.username },
      appeal: expect.objectContaining({ id: appeal.id, subject_type: 'content', subject_id: track.id }),
    });
    expect(one(mine.messages, 'appeal.denied')).toEqual({
      actor: null,
      appeal: expect.objectContaining({ id: appeal.id, status: 'denied', note: 'Still spam' }),
    });
    for (const hidden of [reporter.id, reporter.username, moderator.id, moderator.username, reviewer.id, report.id]) {
      expect(mine.raw).not.toContain(hidden);
    }

    // the reporter: each report's close, as GET /reports/mine shows it, no moderator named
    const theirs = await received(reporterHook);
    expect(typesOf(theirs.messages)).toEqual(['report.closed', 'report.closed']);
    const mineListed = (await suite.http.get('/reports/mine', { token: reporter.accessToken })).body.data.reports;
    expect(one(theirs.messages, 'report.closed', (data) => data.report.id === report.id)).toEqual({
      actor: null,
      report: mineListed.find((listed: { id: string }) => listed.id === report.id),
    });
    expect(one(theirs.messages, 'report.closed', (data) => data.report.id === report.id).report).toMatchObject({
      status: 'resolved',
      outcome: 'action_taken',
    });
    expect(one(theirs.messages, 'report.closed', (data) => data.report.id === second.id).report).toMatchObject({
      target_id: other.id,
      status: 'dismissed',
      outcome: 'no_violation',
    });
    for (const hidden of [moderator.id, moderator.username]) expect(theirs.raw).not.toContain(hidden);

    // a user with every event asked for, concerned by none of this
    expect((await received(bystanderHook)).messages).toEqual([]);
  });

  it('a claim reaches both parties, a strike and its appeal the track’s owner; the claimant’s email never', async () => {
    const [owner, claimant, bystander] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const [moderator, reviewer] = await Promise.all([createModerator(suite.server), createModerator(suite.server)]);
    const [ownerHook, claimantHook, bystanderHook] = await Promise.all([
      hooked(owner),
      hooked(claimant),
      hooked(bystander, ['*']),
    ]);
    const track = await createTrack(suite.server, owner, { title: 'Harbour Lights (cover)' });
    const later = await createTrack(suite.server, owner, { title: 'Harbour Nights' });
    const claimOf = (trackId: string) => ({
      track_id: trackId,
      claimant_name: 'Harbour Records',
      claimant_email: CLAIMANT_EMAIL,
      work_description: 'The master recording of “Harbour Lights”, copied in full.',
      original_url: 'https://harbour.example/lights',
      statement_good_faith: true,
      statement_accuracy: true,
      signature: 'Ana Lima',
    });

    const { claim } = await post(claimant, '/copyright/claims', claimOf(track.id));
    await post(owner, `/copyright/claims/${claim.id}/counter`, { statement: 'My own take', signature: 'Theo' });
    await post(moderator, `/moderation/copyright/${claim.id}/decide`, { outcome: 'upheld', note: 'Same master' });
    const strike = (await suite.http.get('/users/me/standing', { token: owner.accessToken })).body.data.strikes[0];
    expect(strike).toMatchObject({ claim_id: claim.id, active: true });
    const { appeal } = await post(owner, '/appeals', {
      subject_type: 'strike',
      subject_id: strike.id,
      message: 'Mine',
    });
    await post(reviewer, `/moderation/appeals/${appeal.id}/decide`, { outcome: 'granted', note: 'Licence shown' });
    const { claim: rejected } = await post(claimant, '/copyright/claims', claimOf(later.id));
    await post(moderator, `/moderation/copyright/${rejected.id}/decide`, { outcome: 'rejected', note: 'Different' });

    const mine = await received(ownerHook);
    expect(typesOf(mine.messages)).toEqual([
      'appeal.created',
      'appeal.granted',
      'copyright.claimed',
      'copyright.claimed',
      'copyright.countered',
      'copyright.rejected',
      'copyright.upheld',
      'strike.added',
      'strike.lifted',
    ]);
    // the claim's text (the claimant's name, not their address or account), as the owner reads the claim
    expect(one(mine.messages, 'copyright.claimed', (data) => data.claim_id === claim.id)).toEqual({
      actor: null,
      claim_id: claim.id,
      track_id: track.id,
      track_title: 'Harbour Lights (cover)',
      party: 'owner',
      claimant_name: 'Harbour Records',
      work_description: claim.work_description,
      original_url: 'https://harbour.example/lights',
      counter_deadline: claim.counter_deadline,
      // the claim as the owner reads it when the message is made (its status may have moved on)
      claim: { ...claim, status: expect.any(String), decided_at: expect.toBeOneOf([null, expect.any(String)]) },
    });
    expect(one(mine.messages, 'copyright.countered')).toMatchObject({
      actor: { id: owner.id, username: owner.username },
      party: 'owner',
      claim: { id: claim.id },
    });
    expect(one(mine.messages, 'copyright.upheld')).toMatchObject({
      actor: null,
      party: 'owner',
      by_staff: true,
      claim: { id: claim.id },
    });
    expect(one(mine.messages, 'strike.added')).toEqual({
      actor: null,
      // as the standing shows it when the message is made (the appeal may have lifted it by then)
      strike: { ...strike, active: expect.any(Boolean) },
      active_strikes: 1,
    });
    expect(one(mine.messages, 'strike.lifted')).toEqual({ actor: null, strike: { ...strike, active: false } });
    expect(one(mine.messages, 'appeal.granted')).toEqual({
      actor: null,
      appeal: expect.objectContaining({
        id: appeal.id,
        subject_type: 'strike',
        status: 'granted',
        note: 'Licence shown',
      }),
    });
    expect(one(mine.messages, 'copyright.rejected')).toMatchObject({
      actor: null,
      party: 'owner',
      claim: { id: rejected.id, status: 'rejected' },
    });
    for (const hidden of [CLAIMANT_EMAIL, claimant.id, claimant.username, moderator.id, reviewer.id]) {
      expect(mine.raw).not.toContain(hidden);
    }

    // the claimant: their claims' course, nothing of the strike or the owner's appeal
    const theirs = await received(claimantHook);
    expect(typesOf(theirs.messages)).toEqual([
      'copyright.claimed',
      'copyright.claimed',
      'copyright.countered',
      'copyright.rejected',
      'copyright.upheld',
    ]);
    expect(one(theirs.messages, 'copyright.claimed', (data) => data.claim_id === claim.id)).toMatchObject({
      actor: { id: claimant.id, username: claimant.username },
      party: 'claimant',
    });
    expect(one(theirs.messages, 'copyright.countered')).toEqual({
      actor: null,
      claim_id: claim.id,
      track_id: track.id,
      track_title: 'Harbour Lights (cover)',
      party: 'claimant',
      claim: expect.objectContaining({ id: claim.id }),
    });
    expect(one(theirs.messages, 'copyright.upheld')).toMatchObject({ actor: null, party: 'claimant', by_staff: true });
    for (const hidden of [owner.id, owner.username, moderator.id, reviewer.id, 'My own take']) {
      expect(theirs.raw).not.toContain(hidden);
    }

    expect((await received(bystanderHook)).messages).toEqual([]);
  });
});

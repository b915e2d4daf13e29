import { describe, expect, it } from 'vitest';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { refusal } from '../support/refusal.js';
import { serviceUnverifiedUser, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of profiles, preferences and the account's life, called on the users services with an
// Actor: profiles.test.ts, profile-rules.test.ts and accounts.test.ts hold the routes, the request
// limits (which the schemas decide) and the replies to the contract.
const suite = useServices();
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const page = { page: 1, limit: 50, sort_by: 'created_at', sort_order: 'desc' } as const;

describe('profiles (service)', () => {
  it('the email and birthdate are the owner’s and admins’ to see; a private profile shows others its name and avatar only', async () => {
    const { profiles } = suite.areas.users.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    await profiles.update(owner, 'me', { bio: 'Producer', birthdate: '1990-05-01' });
    expect((await profiles.get(owner, 'me')).profile).toMatchObject({ email: owner.email, bio: 'Producer' });
    expect((await profiles.get(admin, owner.id)).profile).toMatchObject({
      email: owner.email,
      birthdate: '1990-05-01',
    });
    const seen = (await profiles.get(other, owner.id)).profile;
    expect(seen.bio).toBe('Producer');
    expect(seen).not.toHaveProperty('email');
    expect(seen).not.toHaveProperty('birthdate');
    await profiles.update(owner, 'me', { is_public: false });
    expect(Object.keys((await profiles.get(other, owner.id)).profile).sort()).toEqual(
      ['avatar', 'id', 'is_public', 'slug', 'username'].sort(),
    );
    expect((await profiles.get(anonymousActor(), owner.id)).profile).not.toHaveProperty('bio');
    expect((await profiles.get(admin, owner.id)).profile.bio).toBe('Producer');
  });

  it('a profile is edited by its owner only: another user and an admin get 403', async () => {
    const { profiles } = suite.areas.users.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    expect(await refusal(profiles.update(other, owner.id, { bio: 'Hacked' }))).toMatchObject(forbidden);
    expect(await refusal(profiles.update(admin, owner.id, { bio: 'Moderated' }))).toMatchObject(forbidden);
    expect((await profiles.get(owner, 'me')).profile.bio).toBeNull();
  });

  it('usernames are unique ignoring case; a change re-derives the slug, and a change of case alone is allowed', async () => {
    const { profiles } = suite.areas.users.services;
    const taken = await serviceUser(suite);
    const user = await serviceUser(suite);
    expect(await refusal(profiles.update(user, 'me', { username: taken.username.toUpperCase() }))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    const renamed = `Renamed_${Date.now().toString(36)}`;
    const { profile } = await profiles.update(user, 'me', { username: renamed });
    expect(profile).toMatchObject({ username: renamed, slug: renamed.toLowerCase().replace('_', '-') });
    expect(profile.username_changed_at).not.toBeNull();
    const recased = await profiles.update(taken, 'me', { username: taken.username.toUpperCase() });
    expect(recased.profile.username).toBe(taken.username.toUpperCase());
    expect((await profiles.getByUsername(anonymousActor(), recased.profile.username)).profile.id).toBe(taken.id);
  });

  it('an account that never verified is neither seen nor followed, and a deactivated one is gone, its tokens with it', async () => {
    const { profiles, follows, accounts } = suite.areas.users.services;
    const viewer = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const unverified = await serviceUnverifiedUser(suite);
    expect(await refusal(profiles.get(viewer, unverified.id))).toMatchObject(notFound);
    expect(await refusal(follows.follow(viewer, unverified.id))).toMatchObject(notFound);
    const leaving = await serviceUser(suite);
    expect(await refusal(accounts.deactivate(viewer, leaving.id))).toMatchObject(forbidden);
    expect(await accounts.deactivate(leaving, leaving.id)).toEqual({ message: 'The account is deactivated' });
    expect(await refusal(profiles.get(viewer, leaving.id))).toMatchObject(notFound);
    expect(await refusal(follows.follow(viewer, leaving.id))).toMatchObject(notFound);
    // deactivation deletes the account softly: admins, who see unverified accounts, do not see it either
    expect((await profiles.get(admin, unverified.id)).profile.id).toBe(unverified.id);
    expect(await refusal(profiles.get(admin, leaving.id))).toMatchObject(notFound);
    expect(await suite.areas.users.activeUser!(leaving.id)).toBeUndefined();
  });

  it('sorting users by email is for admins only', async () => {
    const { profiles } = suite.areas.users.services;
    const user = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    expect(await refusal(profiles.list(user, { ...page, sort_by: 'email' }))).toMatchObject(forbidden);
    expect((await profiles.list(admin, { ...page, sort_by: 'email' })).pagination.total).toBeGreaterThan(0);
  });

  it('completion counts the filled profile fields, for the owner and admins only', async () => {
    const { profiles } = suite.areas.users.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const empty = await profiles.completion(owner, 'me');
    expect(empty).toMatchObject({ percentage: 0, completed_fields: [] });
    expect(empty.missing_fields).toHaveLength(9);
    await profiles.update(owner, 'me', { bio: 'Hi', location: 'Lisbon', social_links: {} });
    // the actor carries the account as it was at sign-in: completion reads the fresh one for another's id
    expect(await profiles.completion(admin, owner.id)).toMatchObject({
      percentage: 22,
      completed_fields: ['bio', 'location'],
    });
    expect(await refusal(profiles.completion(other, owner.id))).toMatchObject(forbidden);
  });

  it('the creator role is taken once: promoted_to_creator_at never moves after', async () => {
    const { profiles } = suite.areas.users.services;
    const creator = await serviceUser(suite, { creator: true });
    expect(creator.user).toMatchObject({ role: 'creator' });
    const first = (await profiles.get(creator, 'me')).profile.promoted_to_creator_at;
    expect(first).not.toBeNull();
    const again = await profiles.upgradeToCreator(creator);
    expect(again.user).toMatchObject({ role: 'creator', promoted_to_creator_at: first });
  });
});

describe('preferences (service)', () => {
  it('start at the defaults, and an update changes only the fields it names', async () => {
    const { preferences } = suite.areas.users.services;
    const user = await serviceUser(suite);
    const { preferences: defaults } = await preferences.preferences(user);
    expect(defaults.privacy).toMatchObject({ show_listening_history: true, do_not_sell: false });
    const { preferences: updated } = await preferences.updatePreferences(user, {
      playback: { crossfade_seconds: 4 },
      notifications: { email_comments: false },
    });
    expect(updated.playback).toEqual({ ...defaults.playback, crossfade_seconds: 4 });
    expect(updated.notifications).toEqual({ ...defaults.notifications, email_comments: false });
    expect(updated.privacy).toEqual(defaults.privacy);
    // a later update keeps the earlier one
    const { preferences: later } = await preferences.updatePreferences(user, { privacy: { show_activity: false } });
    expect(later).toMatchObject({ playback: { crossfade_seconds: 4 }, privacy: { show_activity: false } });
  });

  it('the opt-out of sale is its own step: once made it shows in the preferences, and later updates keep it', async () => {
    const { preferences } = suite.areas.users.services;
    const user = await serviceUser(suite);
    const first = await preferences.optOutOfSale(user);
    expect(first.do_not_sell).toBe(true);
    // saved once: a second opt-out keeps the first time
    expect((await preferences.optOutOfSale(user)).opted_out_at).toBe(first.opted_out_at);
    const { preferences: updated } = await preferences.updatePreferences(user, {
      privacy: { allow_messages_from: 'nobody' },
    });
    expect(updated.privacy).toMatchObject({ do_not_sell: true, allow_messages_from: 'nobody' });
  });
});

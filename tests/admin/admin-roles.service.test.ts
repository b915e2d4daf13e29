import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceUnverifiedUser, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// Roles and ADMIN_EMAILS, on the services: the last admin, and who becomes admin by configuration.
const listed = `boss-${randomUUID().slice(0, 8)}@example.test`;
const listedLater = `chief-${randomUUID().slice(0, 8)}@example.test`;
const suite = useServices({ ADMIN_EMAILS: ` ${listed.toUpperCase()}, ${listedLater} ` });

describe('the last admin', () => {
  // admins are counted over the whole database: on PostgreSQL other test files make theirs meanwhile
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'two admins demoting each other at once: the second is refused, one admin stays',
    async () => {
      const { admin } = suite.areas.admin.services;
      const first = await serviceUser(suite, { admin: true });
      const second = await serviceUser(suite, { admin: true });
      const demoted = await admin.setRole(first, second.id, { role: 'user' });
      expect(demoted.user).toMatchObject({ role: 'user', is_admin: false });
      // `second` still holds the rights it signed in with, as a request already past the authenticator does
      expect(await refusal(admin.setRole(second, first.id, { role: 'moderator' }))).toMatchObject({
        status: 400,
        code: 'BAD_REQUEST',
      });
      expect((await admin.getUser(first, first.id)).user).toMatchObject({ role: 'admin', is_admin: true });
    },
  );

  it('nobody changes their own role, and a non-admin is refused', async () => {
    const { admin } = suite.areas.admin.services;
    const boss = await serviceUser(suite, { admin: true });
    expect(await refusal(admin.setRole(boss, boss.id, { role: 'admin' }))).toMatchObject({ status: 400 });
    const plain = await serviceUser(suite);
    expect(await refusal(admin.setRole(plain, boss.id, { role: 'user' }))).toMatchObject({ status: 403 });
    expect(
      await refusal(admin.listUsers(plain, { page: 1, limit: 20, sort: 'created_at', order: 'desc' })),
    ).toMatchObject({ status: 403 });
  });
});

describe('ADMIN_EMAILS', () => {
  it('a listed address becomes admin when verified (any case), and again at each start', async () => {
    const { admin } = suite.areas.admin.services;
    const boss = await serviceUser(suite, { email: listed });
    expect(boss.isAdmin).toBe(true);
    expect(boss.user).toMatchObject({ role: 'admin', is_admin: true });
    const other = await serviceUser(suite, { admin: true });
    // demoted by another admin: the next start makes the listed address admin again
    await admin.setRole(other, boss.id, { role: 'creator' });
    expect((await admin.getUser(other, boss.id)).user).toMatchObject({ role: 'creator', is_admin: false });
    await suite.areas.users.start!();
    expect((await admin.getUser(other, boss.id)).user).toMatchObject({ role: 'admin', is_admin: true });
  });

  it('an admin verifying a listed address makes it admin; unlisted addresses stay as they are', async () => {
    const { admin } = suite.areas.admin.services;
    const boss = await serviceUser(suite, { admin: true });
    const pending = await serviceUnverifiedUser(suite, { email: listedLater });
    const verified = await admin.verifyEmail(boss, pending.id);
    expect(verified.user).toMatchObject({ is_verified: true, role: 'admin', is_admin: true });
    const plain = await serviceUser(suite);
    expect(plain.user).toMatchObject({ role: 'user', is_admin: false });
    await suite.areas.users.start!();
    expect((await admin.getUser(boss, plain.id)).user).toMatchObject({ role: 'user', is_admin: false });
  });
});

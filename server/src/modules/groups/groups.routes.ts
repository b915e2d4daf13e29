import { buffer } from 'node:stream/consumers';
import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { validationFailed } from '../../platform/errors/app-error.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import { parseMultipart } from '../../platform/http/multipart.js';
import type { GroupsService } from './groups.service.js';
import type { MembershipService } from './membership.service.js';

/** An avatar upload is at most 10 MiB, as a user's. */
const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

export function groupsRoutes(groups: GroupsService, membership: MembershipService) {
  return contractRoutes(contract.groups, {
    create: async ({ body, req }) => ({
      status: 201,
      body: ok({ group: await groups.create(signedInActor(req), body) }),
    }),
    list: async ({ query, req }) => ({ status: 200, body: ok(await groups.list(actorOf(req), query)) }),
    bySlug: async ({ params, req }) => ({
      status: 200,
      body: ok({ group: await groups.bySlug(actorOf(req), params.slug) }),
    }),
    get: async ({ params, req }) => ({ status: 200, body: ok({ group: await groups.get(actorOf(req), params.id) }) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ group: await groups.update(signedInActor(req), params.id, body) }),
    }),
    remove: async ({ params, req }) => ({ status: 200, body: ok(await groups.remove(signedInActor(req), params.id)) }),
    setAvatar: async ({ params, req }) => {
      const actor = signedInActor(req);
      // who may change it is answered before the upload is read (404 or 403)
      await groups.editable(actor, params.id);
      const { file } = await parseMultipart(req, {
        fileField: 'file',
        maxFileBytes: AVATAR_MAX_BYTES,
        onFile: (stream) => buffer(stream),
      });
      if (!file) throw validationFailed('Send the image in the field "file"');
      return { status: 200, body: ok({ group: await groups.setAvatar(actor, params.id, file) }) };
    },
    avatar: async ({ params, query, req, res }) => {
      const image = await groups.avatar(actorOf(req), params.id, query.size);
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Cache-Control', 'private, max-age=60');
      image.body.on('error', () => res.destroy());
      return { status: 200, body: image.body };
    },
    join: async ({ params, req }) => ({
      status: 200,
      body: ok({ group: await membership.join(signedInActor(req), params.id) }),
    }),
    leave: async ({ params, req }) => ({
      status: 200,
      body: ok({ group: await membership.leave(signedInActor(req), params.id) }),
    }),
    members: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await membership.members(actorOf(req), params.id, query)),
    }),
    requests: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await membership.requests(signedInActor(req), params.id, query)),
    }),
    approveRequest: async ({ params, req }) => ({
      status: 200,
      body: ok({ member: await membership.approve(signedInActor(req), params.id, params.userId) }),
    }),
    denyRequest: async ({ params, req }) => ({
      status: 200,
      body: ok(await membership.deny(signedInActor(req), params.id, params.userId)),
    }),
    invite: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ invite: await membership.invite(signedInActor(req), params.id, body) }),
    }),
    myInvites: async ({ query, req }) => ({
      status: 200,
      body: ok(await membership.myInvites(signedInActor(req), query)),
    }),
    acceptInvite: async ({ params, req }) => ({
      status: 200,
      body: ok({ group: await membership.accept(signedInActor(req), params.inviteId) }),
    }),
    declineInvite: async ({ params, req }) => ({
      status: 200,
      body: ok(await membership.decline(signedInActor(req), params.inviteId)),
    }),
    setRole: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ member: await membership.setRole(signedInActor(req), params.id, params.userId, body) }),
    }),
    removeMember: async ({ params, req }) => ({
      status: 200,
      body: ok(await membership.removeMember(signedInActor(req), params.id, params.userId)),
    }),
    ban: async ({ params, req }) => ({
      status: 200,
      body: ok(await membership.ban(signedInActor(req), params.id, params.userId)),
    }),
    transfer: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ group: await membership.transfer(signedInActor(req), params.id, body) }),
    }),
  });
}

import { Readable } from 'node:stream';
import type {
  ApiKey,
  Comment,
  CreateApiKeyRequest,
  CreateProductRequest,
  CreateGroupRequest,
  CreateWebhookRequest,
  Group,
  Order,
  Playlist,
  Product,
  QueueSession,
  Track,
  Webhook,
} from '@riff/contract';
import { setAdminRole } from '../../server/src/modules/users/users.module.js';
import { anonymousActor, userActor, type UserActor } from '../../server/src/platform/access/actor.js';
import { newIdentity } from './accounts.js';
import { makeAudio } from './audio.js';
import { tokenFromMail, waitForMail } from './mail.js';
import type { ServiceSuite } from './services.js';

/** A user of the service tier: the Actor services take, and how the account signs in. */
export type ServiceUser = UserActor & { email: string; username: string; password: string };

export interface ServiceUserOptions {
  email?: string;
  username?: string;
  /** Admin rights, granted as `npm run make-admin` grants them (in the user's audit log). */
  admin?: boolean;
  /** The creator role, taken as the user takes it (POST /users/me/upgrade-to-creator). */
  creator?: boolean;
}

/** The account as it is now, as the Actor of a signed-in user (roles are read from the account on every request). */
async function signedIn(
  suite: ServiceSuite,
  id: string,
  identity: { email: string; username: string; password: string },
) {
  const account = await suite.areas.users.activeUser!(id);
  if (!account) throw new Error(`the account ${identity.email} is not active`);
  return { ...userActor(account, 'bearer'), ...identity };
}

/** Registered through the auth service as registration makes it (the password hashed), not yet verified. */
async function registered(suite: ServiceSuite, overrides: { email?: string; username?: string }) {
  const identity = { ...newIdentity(), ...overrides };
  const { user } = await suite.areas.auth.services.auth.register(anonymousActor(), identity);
  return { id: user.id, ...identity };
}

/**
 * A registered and verified account, made through the auth service as registration makes it (the
 * password hashed, the verification mail sent by the queue and its link followed), returned as the
 * Actor of a signed-in user; an admin or a creator when asked.
 */
export async function serviceUser(suite: ServiceSuite, options: ServiceUserOptions = {}): Promise<ServiceUser> {
  const { admin, creator, ...overrides } = options;
  const { id, ...identity } = await registered(suite, overrides);
  await suite.platform.jobs.runDue();
  const mail = await waitForMail(suite.outboxDir, identity.email, 'verify-email');
  await suite.areas.auth.services.auth.verifyEmail(anonymousActor(), tokenFromMail(mail));
  if (admin && !(await setAdminRole(suite.platform, identity.email, true)))
    throw new Error(`could not make ${identity.email} an admin`);
  const user = await signedIn(suite, id, identity);
  if (!creator) return user;
  await suite.areas.users.services.profiles.upgradeToCreator(user);
  return signedIn(suite, id, identity);
}

/**
 * An account that registered and never followed its verification link: it cannot sign in, so it is
 * no Actor; others may not see or follow it.
 */
export async function serviceUnverifiedUser(
  suite: ServiceSuite,
  overrides: { email?: string; username?: string } = {},
): Promise<{ id: string; email: string; username: string; password: string }> {
  return registered(suite, overrides);
}

/**
 * A product of the seller's on sale (a pack at 19.99 USD unless told otherwise): created through the
 * marketplace service as a draft, then put on sale as the seller would.
 */
export async function serviceProduct(
  suite: ServiceSuite,
  seller: UserActor,
  overrides: Partial<CreateProductRequest> = {},
): Promise<Product> {
  const { products } = suite.areas.marketplace.services;
  const body: CreateProductRequest = { title: 'Night Drive stems', price: 19.99, product_type: 'pack', ...overrides };
  const draft = await products.create(seller, body);
  return products.update(seller, draft.id, { status: 'active' });
}

/**
 * A track of the owner's (a sine tone of `seconds`, public unless told otherwise), uploaded through
 * the uploads service as the upload route hands it a form: the file streams in, is probed and stored.
 */
export async function serviceTrack(
  suite: ServiceSuite,
  owner: UserActor,
  options: { seconds?: number; title?: string; isPublic?: boolean } = {},
): Promise<Track> {
  const bytes = await makeAudio('mp3', { seconds: options.seconds ?? 3 });
  const { uploads } = suite.areas.tracks.services;
  const { track } = await uploads.upload(owner, {
    declaredBytes: bytes.length,
    receive: async (_maxBytes, onFile) => ({
      fields: { title: options.title ?? 'Service tone', is_public: options.isPublic ?? true },
      file: await onFile(Readable.from([bytes]), { filename: 'tone.mp3' }),
    }),
  });
  return track;
}

/** A playlist of the owner's (private unless told otherwise) holding `tracks` in that order, as the owner reads it. */
export async function servicePlaylist(
  suite: ServiceSuite,
  owner: UserActor,
  options: { title?: string; isPublic?: boolean; tracks?: readonly Track[] } = {},
): Promise<Playlist> {
  const { playlists, tracks } = suite.areas.playlists.services;
  const created = await playlists.create(owner, {
    title: options.title ?? 'Service playlist',
    is_public: options.isPublic ?? false,
  });
  for (const track of options.tracks ?? []) await tracks.add(owner, created.id, undefined, { track_id: track.id });
  return (await playlists.get(owner, created.id, { offset: 0, limit: 50 })).playlist;
}

/** A comment of the author's on the track (at its start unless told otherwise), or a reply to `parent`. */
export async function serviceComment(
  suite: ServiceSuite,
  author: UserActor,
  track: Pick<Track, 'id'>,
  options: { content?: string; timestamp?: number; parent?: Pick<Comment, 'id'> } = {},
): Promise<Comment> {
  const { comment } = await suite.areas.comments.services.comments.create(author, track.id, {
    content: options.content ?? 'Service comment',
    timestamp: options.timestamp ?? 0,
    ...(options.parent ? { parent_id: options.parent.id } : {}),
  });
  return comment;
}

/** The user likes each track (it goes into their favorites playlist), as POST /tracks/{id}/like does. */
export async function serviceLikes(suite: ServiceSuite, user: UserActor, tracks: readonly Pick<Track, 'id'>[]) {
  for (const track of tracks) await suite.areas.social.services.social.like(user, track.id);
}

/** The user reposts each track (public tracks of others), as POST /tracks/{id}/repost does. */
export async function serviceReposts(suite: ServiceSuite, user: UserActor, tracks: readonly Pick<Track, 'id'>[]) {
  for (const track of tracks) await suite.areas.social.services.social.repost(user, track.id);
}

/** The follower follows each user, as POST /users/{id}/follow does. */
export async function serviceFollows(suite: ServiceSuite, follower: UserActor, users: readonly { id: string }[]) {
  for (const user of users) await suite.areas.users.services.follows.follow(follower, user.id);
}

/** An order of the buyer's, pending payment (items at their default license; a promo code when given). */
export async function serviceOrder(
  suite: ServiceSuite,
  buyer: UserActor,
  products: readonly Pick<Product, 'id'>[],
  options: { promoCode?: string } = {},
): Promise<Order> {
  return suite.areas.marketplace.services.orders.create(buyer, {
    items: products.map((product) => ({ product_id: product.id })),
    ...(options.promoCode !== undefined ? { promo_code: options.promoCode } : {}),
  });
}

/**
 * A completed order: created, then paid in the sandbox. The payment event is applied as the payment
 * webhook route applies it once its signature checks out (the service tier has no HTTP for the
 * sandbox page to call back).
 */
export async function servicePaidOrder(
  suite: ServiceSuite,
  buyer: UserActor,
  products: readonly Pick<Product, 'id'>[],
): Promise<Order> {
  const { orders, settlement } = suite.areas.marketplace.services;
  const order = await serviceOrder(suite, buyer, products);
  if (order.status !== 'pending') return order;
  const sessionId = order.payment.checkout_url?.split('/').pop();
  if (!sessionId?.startsWith('sbx_')) throw new Error(`order ${order.id} has no sandbox checkout`);
  await settlement.apply({
    id: `evt_${sessionId.slice('sbx_'.length)}_succeed`,
    type: 'payment.succeeded',
    orderId: order.id,
    sessionId,
    paymentId: `sbxpay_${sessionId.slice('sbx_'.length)}`,
    amountCents: order.total_cents,
    currency: order.currency,
  });
  return orders.get(buyer, order.id);
}

/**
 * A webhook of the owner's, with its key and signing secret as creation shows them once. The URL is
 * a public address written as an IP (no DNS to ask) where nothing answers, and it listens to
 * track.created only: a test that wants deliveries gives its own receiver and events.
 */
export async function serviceWebhook(
  suite: ServiceSuite,
  owner: UserActor,
  overrides: Partial<CreateWebhookRequest> = {},
): Promise<{ webhook: Webhook; api_key: string; secret: string }> {
  return suite.areas.webhooks.services.webhooks.create(owner, {
    url: 'https://93.184.216.34/riff-hooks',
    events: ['track.created'],
    ...overrides,
  });
}

/** A developer API key of the owner's (read scope, no expiry unless told otherwise), with the whole key shown once. */
export async function serviceApiKey(
  suite: ServiceSuite,
  owner: UserActor,
  overrides: Partial<CreateApiKeyRequest> = {},
): Promise<{ api_key: ApiKey; key: string }> {
  return suite.areas.developer.services.apiKeys.create(owner, { name: 'Service key', scopes: ['read'], ...overrides });
}

/**
 * A shared listening session hosted by `host`, started from their queue, which is first set to
 * `tracks` (in that order) through the queue service.
 */
export async function serviceQueueSession(
  suite: ServiceSuite,
  host: UserActor,
  options: { tracks?: readonly Pick<Track, 'id'>[]; title?: string } = {},
): Promise<QueueSession> {
  const { queue, sessions } = suite.areas.queue.services;
  if (options.tracks) await queue.update(host, '*', { track_ids: options.tracks.map((track) => track.id) });
  const { session } = await sessions.create(host, options.title !== undefined ? { title: options.title } : {});
  return session;
}

/**
 * The owner's new audio for a track (an MP3 tone unless `bytes` or `filename` say otherwise),
 * handed to the file service as PUT /tracks/{id}/file hands it a form: the previous audio becomes
 * a version and the media pipeline is queued again. Returns the track as the reply shows it.
 */
export async function serviceReplaceAudio(
  suite: ServiceSuite,
  owner: UserActor,
  track: Pick<Track, 'id'>,
  options: { bytes?: Buffer; filename?: string; seconds?: number } = {},
): Promise<Track> {
  const bytes = options.bytes ?? (await makeAudio('mp3', { seconds: options.seconds ?? 2, frequency: 660 }));
  const { track: replaced } = await suite.areas.tracks.services.files.replace(owner, track.id, {
    declaredBytes: bytes.length,
    receive: async (_maxBytes, onFile) => ({
      fields: {},
      file: await onFile(Readable.from([bytes]), { filename: options.filename ?? 'take.mp3' }),
    }),
  });
  return replaced;
}

/** What a track's owner may change on it (the tracks service's update). */
type TrackChanges = Parameters<ServiceSuite['areas']['tracks']['services']['tracks']['update']>[2];

/**
 * A track of the owner's with these names and tags (public unless told otherwise): uploaded as
 * serviceTrack uploads it, then described through the tracks service as its owner edits it.
 */
export async function serviceTaggedTrack(
  suite: ServiceSuite,
  owner: UserActor,
  options: { title: string; isPublic?: boolean; seconds?: number } & Omit<TrackChanges, 'title' | 'is_public'>,
): Promise<Track> {
  const { title, isPublic, seconds, ...tags } = options;
  const track = await serviceTrack(suite, owner, {
    title,
    ...(isPublic !== undefined ? { isPublic } : {}),
    ...(seconds !== undefined ? { seconds } : {}),
  });
  if (Object.keys(tags).length === 0) return track;
  return (await suite.areas.tracks.services.tracks.update(owner, track.id, tags)).track;
}

/** The blocker blocks each user, as POST /users/{id}/block does. */
export async function serviceBlocks(suite: ServiceSuite, blocker: UserActor, users: readonly { id: string }[]) {
  for (const user of users) await suite.areas.users.services.follows.block(blocker, user.id);
}

/**
 * `count` drafts of the seller's at once, straight into the products table: a test of the per-seller
 * cap needs hundreds, and creating each through the service would meet its rate limit (30 a minute).
 */
export async function serviceBulkProducts(suite: ServiceSuite, seller: { id: string }, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => ({
    seller_id: seller.id,
    title: `Bulk ${index}`,
    price_cents: 100,
    product_type: 'pack' as const,
  }));
  await suite.platform.scope.db.insertInto('products').values(rows).execute();
}

/** A group of the owner's through the groups service (public and open unless told). */
export async function serviceGroup(
  suite: ServiceSuite,
  owner: UserActor,
  options: Partial<CreateGroupRequest> = {},
): Promise<Group> {
  return suite.areas.groups.services.groups.create(owner, {
    name: options.name ?? `Group ${Math.random().toString(36).slice(2, 10)}`,
    visibility: options.visibility ?? 'public',
    join_policy: options.join_policy ?? 'open',
    ...(options.description !== undefined ? { description: options.description } : {}),
  });
}

/**
 * Hidden content is, for everyone but its owner and staff, exactly as if it had been deleted. This
 * walks every read route of the contract (found by walking the contract object, so a route added
 * later is walked too) as an anonymous caller and as a user who had every tie to the hidden items
 * (follows their owner, liked, reposted, played and queued the track, collaborates on the playlist,
 * put the track in a shared session and in their own playlist), first while the items are visible
 * (to prove the fixtures reach each list) and again once staff hid them: no reply may then carry a
 * hidden item's id, and every route that names a hidden item answers 404. A banned user is walked
 * the same way: a ban hides the profile and everything the user made, so once it is pronounced no
 * reply to anyone else names the account or its items.
 */
import type { AppRoute } from '@ts-rest/core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAudio, mp3WithCover, uploadTrack } from '../support/audio.js';
import { createAdmin } from '../support/admin-factory.js';
import { createGroup, createUser, type TestUser } from '../support/factories.js';
import type { HttpReply } from '../support/http.js';
import { runDueJobs } from '../support/jobs.js';
import { parsePlaylist } from '../support/media.js';
import { makeModerator } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { contractOperations, type Operation } from '../contract/operations.js';
import { sendFile } from '../marketplace/product-helpers.js';

// no workers: the media jobs run when the fixture says (runDueJobs)
const suite = useTestServer({ WORKERS: '0' });

/** A word in every title of the fixture, found by the search routes (q=). */
const WORD = 'Zephyrquill';

interface World {
  owner: TestUser;
  other: TestUser;
  staff: TestUser;
  /** A creator to be banned, with ties to both (follows, likes, comments, a track in their playlist). */
  banned: TestUser;
  /** The banned user's items: a public track, a public playlist, a comment on the owner's visible track. */
  bannedItems: { track: string; playlist: string; comment: string; group: string; groupPost: string };
  /** The hidden items, by kind. */
  hidden: {
    track: string;
    comment: string;
    reply: string;
    playlist: string;
    product: string;
    group: string;
    groupPost: string;
  };
  /** The owner's items that stay visible: a track (carrying the hidden comment), a product, and the other user's playlist holding the hidden track. */
  visible: {
    track: string;
    secondTrack: string;
    comment: string;
    product: string;
    playlist: string;
    group: string;
    groupPost: string;
  };
  /** The slugs of the hidden group and of the visible one. */
  groupSlugs: { hidden: string; visible: string };
  /** The hidden track's secret link and the hidden playlist's share token, made before it was hidden. */
  trackSecret: string;
  playlistShareToken: string;
  visiblePlaylistShareToken: string;
  sessionToken: string;
  /** The hidden product's image and preview. */
  productImage: string;
  productPreview: string;
  /** The hidden track's HLS: a variant, a segment file name, and every child URI with its playback token. */
  hls: { variant: string; file: string; playback: string; uris: string[] };
}

let world: World;

const http = () => suite.http;
const auth = (user: TestUser | undefined) => (user ? { token: user.accessToken } : {});

async function ok<T = any>(reply: Promise<HttpReply<T>> | HttpReply<T>, status = 200): Promise<HttpReply<T>> {
  const answered = await reply;
  expect(answered.status, answered.text.slice(0, 300)).toBe(status);
  return answered;
}

/** Runs the queued jobs until the track's HLS, waveform and cover answer its owner. */
async function processed(owner: TestUser, trackId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await runDueJobs(suite.server);
    const status = await http().get(`/tracks/${trackId}/status`, auth(owner));
    if (status.body?.data?.stream_status === 'ready' && status.body?.data?.progress === 100) return;
    if (Date.now() > deadline) throw new Error(`track ${trackId} not processed: ${status.text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every URI a player reaches from the master playlist, each with its playback token. */
async function hlsChildren(trackId: string) {
  const masterUrl = `${suite.server.baseUrl}/api/v1/tracks/${trackId}/hls/master.m3u8`;
  const master = await fetch(masterUrl);
  expect(master.status).toBe(200);
  const variants = (parsePlaylist(await master.text()).playlists ?? []).map((entry) =>
    new URL(entry.uri, masterUrl).toString(),
  );
  const uris = [...variants];
  for (const variant of variants) {
    const reply = await fetch(variant);
    expect(reply.status).toBe(200);
    const playlist = parsePlaylist(await reply.text());
    uris.push(new URL(playlist.segments[0]!.map!.uri, variant).toString());
    for (const segment of playlist.segments) uris.push(new URL(segment.uri, variant).toString());
  }
  const segment = new URL(uris.at(-1)!);
  const [variant, file] = segment.pathname.split('/').slice(-2);
  return { variant: variant!, file: file!, playback: segment.searchParams.get('playback') ?? '', uris };
}

async function buildWorld(): Promise<World> {
  const [owner, other, staff] = await Promise.all([
    createUser(suite.server),
    createUser(suite.server),
    createUser(suite.server),
  ]);
  await makeModerator(suite.server, staff.id);
  await ok(http().post('/users/me/upgrade-creator', auth(owner)));

  // the owner's tracks: the one to hide (with a cover, processed: stream, HLS, waveform), and two that stay
  const hiddenTrack = await uploadTrack(suite.server.baseUrl, owner.token, await mp3WithCover(6), 'a.mp3', {
    title: `${WORD} hidden track`,
    is_public: 'false',
  });
  const visibleTrack = await uploadTrack(
    suite.server.baseUrl,
    owner.token,
    await makeAudio('mp3', { seconds: 6 }),
    'b.mp3',
    {
      title: `${WORD} visible track`,
    },
  );
  const secondTrack = await uploadTrack(
    suite.server.baseUrl,
    owner.token,
    await makeAudio('mp3', { seconds: 3, frequency: 550 }),
    'c.mp3',
    { title: `${WORD} second track` },
  );
  for (const id of [hiddenTrack.id, visibleTrack.id, secondTrack.id]) {
    await ok(http().put(`/tracks/${id}`, { ...auth(owner), body: { genre: 'Ambient', tags: [WORD.toLowerCase()] } }));
  }
  // the secret link of the hidden track, made while it was private, then the track made public
  const shared = await ok(
    http().post(`/tracks/${hiddenTrack.id}/share`, { ...auth(owner), body: { platform: 'link' } }),
  );
  const trackSecret = new URL(shared.body.data.share_url).searchParams.get('secret')!;
  expect(trackSecret).toBeTruthy();
  await ok(http().put(`/tracks/${hiddenTrack.id}`, { ...auth(owner), body: { is_public: true } }));
  await processed(owner, hiddenTrack.id);
  await processed(owner, visibleTrack.id);
  await processed(owner, secondTrack.id);
  const hls = await hlsChildren(hiddenTrack.id);

  // the other user's ties: follows the owner, likes, reposts, plays, queues the tracks
  await ok(http().post(`/users/${owner.id}/follow`, auth(other)));
  for (const id of [hiddenTrack.id, visibleTrack.id]) {
    await ok(http().post(`/tracks/${id}/like`, auth(other)), 200);
    await ok(http().post(`/tracks/${id}/repost`, auth(other)), 200);
    await ok(http().post(`/tracks/${id}/play`, { ...auth(other), body: { duration_listened: 6 } }));
    await ok(http().post(`/tracks/${id}/play`, { body: { duration_listened: 6 } }));
    await ok(http().post('/queue/items', { ...auth(other), body: { track_id: id } }), 201);
  }
  await ok(http().post(`/tracks/${secondTrack.id}/like`, auth(other)), 200);
  const session = await ok(http().post('/queue/session', { ...auth(other), body: { title: `${WORD} session` } }), 201);
  const sessionToken: string = session.body.data.session.token;
  for (const id of [visibleTrack.id, hiddenTrack.id]) {
    await ok(http().post(`/queue/session/${sessionToken}/items`, { ...auth(other), body: { track_id: id } }), 201);
  }

  // the hidden comment (the owner's, on the visible track) with a reply of the other user's, and one that stays
  const comment = await ok(
    http().post(`/tracks/${visibleTrack.id}/comments`, { ...auth(owner), body: { content: `${WORD} hidden comment` } }),
    201,
  );
  const reply = await ok(
    http().post(`/tracks/${visibleTrack.id}/comments`, {
      ...auth(other),
      body: { content: `${WORD} reply`, parent_id: comment.body.data.comment.id },
    }),
    201,
  );
  const keptComment = await ok(
    http().post(`/tracks/${visibleTrack.id}/comments`, { ...auth(owner), body: { content: `${WORD} kept comment` } }),
    201,
  );

  // the hidden playlist: public, holding visible tracks and the hidden track, the other user a collaborator
  const playlist = await ok(
    http().post('/playlists', { ...auth(owner), body: { title: `${WORD} hidden playlist`, is_public: true } }),
    201,
  );
  const playlistId: string = playlist.body.data.playlist.id;
  for (const id of [visibleTrack.id, hiddenTrack.id, secondTrack.id]) {
    await ok(http().post(`/playlists/${playlistId}/tracks`, { ...auth(owner), body: { track_id: id } }));
  }
  await ok(
    http().post(`/playlists/${playlistId}/collaborators`, {
      ...auth(owner),
      body: { user_id: other.id, permission: 'write' },
    }),
    201,
  );
  const playlistShare = await ok(http().post(`/playlists/${playlistId}/share`, { ...auth(owner), body: {} }));
  // the other user's own public playlist, holding a visible track and the hidden track
  const otherPlaylist = await ok(
    http().post('/playlists', { ...auth(other), body: { title: `${WORD} other playlist`, is_public: true } }),
    201,
  );
  const otherPlaylistId: string = otherPlaylist.body.data.playlist.id;
  for (const id of [visibleTrack.id, hiddenTrack.id]) {
    await ok(http().post(`/playlists/${otherPlaylistId}/tracks`, { ...auth(other), body: { track_id: id } }));
  }
  const otherShare = await ok(http().post(`/playlists/${otherPlaylistId}/share`, { ...auth(other), body: {} }));

  // the products: one to hide (with an image and a preview), one that stays
  const product = await ok(
    http().post('/marketplace/products', {
      ...auth(owner),
      body: { title: `${WORD} hidden product`, price: 9.99, product_type: 'pack' },
    }),
    201,
  );
  const productId: string = product.body.id;
  const photo = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'blue' } })
    .png()
    .toBuffer();
  const image = await sendFile(
    suite.server,
    owner.token,
    'POST',
    `/marketplace/products/${productId}/images`,
    photo,
    'p.png',
  );
  expect(image.status, image.text).toBe(201);
  const preview = await sendFile(
    suite.server,
    owner.token,
    'POST',
    `/marketplace/products/${productId}/previews`,
    await makeAudio('mp3', { seconds: 2 }),
    'p.mp3',
  );
  expect(preview.status, preview.text).toBe(201);
  await ok(http().put(`/marketplace/products/${productId}`, { ...auth(owner), body: { status: 'active' } }));
  const keptProduct = await ok(
    http().post('/marketplace/products', {
      ...auth(owner),
      body: { title: `${WORD} visible product`, price: 4.99, product_type: 'pack' },
    }),
    201,
  );
  const keptProductId: string = keptProduct.body.id;
  await ok(http().put(`/marketplace/products/${keptProductId}`, { ...auth(owner), body: { status: 'active' } }));
  // the hidden group (public, open, the other user a member) and a visible one beside it
  const hiddenGroup = await createGroup(suite.server, owner, { name: `${WORD} hidden group` });
  await ok(http().post(`/groups/${hiddenGroup.id}/join`, auth(other)));
  const visibleGroup = await createGroup(suite.server, owner, { name: `${WORD} visible group` });
  // in the visible group: the owner's post to hide, and the other user's that stays
  await ok(http().post(`/groups/${visibleGroup.id}/join`, auth(other)));
  const hiddenPost = await ok(
    http().post(`/groups/${visibleGroup.id}/posts`, { ...auth(owner), body: { content: `${WORD} hidden post` } }),
    201,
  );
  const keptPost = await ok(
    http().post(`/groups/${visibleGroup.id}/posts`, { ...auth(other), body: { content: `${WORD} kept post` } }),
    201,
  );
  const banned = await bannedUsersTies(owner, other, visibleTrack.id, visibleGroup.id);
  await runDueJobs(suite.server);

  return {
    owner,
    other,
    staff,
    ...banned,
    hidden: {
      track: hiddenTrack.id,
      comment: comment.body.data.comment.id,
      reply: reply.body.data.comment.id,
      playlist: playlistId,
      product: productId,
      group: hiddenGroup.id,
      groupPost: hiddenPost.body.data.post.id,
    },
    visible: {
      track: visibleTrack.id,
      secondTrack: secondTrack.id,
      comment: keptComment.body.data.comment.id,
      product: keptProductId,
      playlist: otherPlaylistId,
      group: visibleGroup.id,
      groupPost: keptPost.body.data.post.id,
    },
    groupSlugs: { hidden: hiddenGroup.slug, visible: visibleGroup.slug },
    trackSecret,
    playlistShareToken: playlistShare.body.data.token,
    visiblePlaylistShareToken: otherShare.body.data.token,
    sessionToken,
    productImage: findId(image.body, 'image'),
    productPreview: findId(preview.body, 'preview'),
    hls,
  };
}

/** A creator with every kind of tie the walk can see: to be banned, after which none may show. */
async function bannedUsersTies(owner: TestUser, other: TestUser, ownersTrack: string, ownersGroup: string) {
  const banned = await createUser(suite.server);
  await ok(http().post('/users/me/upgrade-creator', auth(banned)));
  const track = await uploadTrack(
    suite.server.baseUrl,
    banned.token,
    await makeAudio('mp3', { seconds: 3, frequency: 660 }),
    'd.mp3',
    { title: `${WORD} banned track` },
  );
  await processed(banned, track.id);
  await ok(http().post(`/users/${owner.id}/follow`, auth(banned)));
  await ok(http().post(`/users/${other.id}/follow`, auth(banned)));
  await ok(http().post(`/users/${banned.id}/follow`, auth(other)));
  await ok(http().post(`/tracks/${ownersTrack}/like`, auth(banned)));
  await ok(http().post(`/tracks/${ownersTrack}/repost`, auth(banned)));
  await ok(http().post(`/tracks/${track.id}/like`, auth(other)));
  const comment = await ok(
    http().post(`/tracks/${ownersTrack}/comments`, { ...auth(banned), body: { content: `${WORD} banned comment` } }),
    201,
  );
  const playlist = await ok(
    http().post('/playlists', { ...auth(banned), body: { title: `${WORD} banned playlist`, is_public: true } }),
    201,
  );
  const playlistId: string = playlist.body.data.playlist.id;
  for (const id of [ownersTrack, track.id]) {
    await ok(http().post(`/playlists/${playlistId}/tracks`, { ...auth(banned), body: { track_id: id } }));
  }
  await ok(http().post(`/playlists/${playlistId}/follow`, auth(other)));
  const bannedGroup = await createGroup(suite.server, banned, { name: `${WORD} banned group` });
  await ok(http().post(`/groups/${bannedGroup.id}/join`, auth(other)));
  await ok(http().post(`/groups/${ownersGroup}/join`, auth(banned)));
  const post = await ok(
    http().post(`/groups/${ownersGroup}/posts`, { ...auth(banned), body: { content: `${WORD} banned post` } }),
    201,
  );
  return {
    banned,
    bannedItems: {
      track: track.id,
      playlist: playlistId,
      comment: comment.body.data.comment.id,
      // a group the banned user owns without an admin: hidden with the ban (the other user a member)
      group: bannedGroup.id,
      // a post in a group of someone else's: hidden with the ban
      groupPost: post.body.data.post.id,
    },
  };
}

/** The id of the created image or preview, wherever the reply's envelope keeps it. */
function findId(body: any, key: string): string {
  const data = body?.data ?? body;
  const id = data?.[key]?.id ?? data?.id;
  if (typeof id !== 'string') throw new Error(`no ${key} id in ${JSON.stringify(body)}`);
  return id;
}

// ---------------------------------------------------------------------------------------------
// The walk

/** One request of the walk: a route with its path filled, a query, and whether it names a hidden item. */
interface Call {
  operation: Operation;
  path: string;
  query: Record<string, string>;
  /** The hidden item the path names, if any: such a call must answer 404 (401 to an anonymous caller of a signed-in route). */
  names?: string;
}

/**
 * Routes left out of the walk, and why. Everything else that reads (GET) is walked, with its path
 * parameters filled from the segment before each (see pathValues).
 */
const EXCLUDED: Record<string, string> = {
  // about the caller's own records that the other user never had
  'tracks.resume': 'an upload session of the caller’s own',
  'marketplace.getOrder': 'an order of the caller’s own (the other user bought nothing)',
  'marketplace.invoice': 'an order of the caller’s own (the other user bought nothing)',
  'marketplace.sandboxCheckout': 'a payment of the caller’s own',
  'marketplace.downloadFile': 'a signed link only a purchase’s download hands out',
  'notifications.remove': 'not a read',
  // webhook payloads are out of this test's scope (the deliveries log is the owner's own record)
  'webhooks.get': 'webhooks are out of scope',
  'webhooks.deliveries': 'webhooks are out of scope',
  // the account's export is the record of what the caller did (their likes, plays, playlists), owed
  // to them whole whatever became of what they touched
  'users.exportData': 'the caller’s own data, exported whole',
  // the audit trail records the caller's own actions as they happened (append-only)
  'audit.logs': 'the caller’s own audit trail',
  'audit.activity': 'the caller’s own audit trail',
  // its recent activity is that audit trail again (the caller's own actions: "liked", "commented")
  'dashboard.get': 'the caller’s own audit trail and library',
  // an item of gear and its photos are not moderated content (no hidden state); their visibility is
  // the item's own and its owner's (tests/gear). A track's gear is walked (tracks/id).
  'gear.get': 'gear is not moderated content',
  'gear.photo': 'gear is not moderated content',
  // a course's routes with its id: a hidden course is 404 on each of them to others, walked in
  // tests/education/course-moderation.test.ts (the catalogue and enrolled lists are walked here)
  'courses.get': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.cover': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.lessons': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.lesson': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.progress': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.certificate': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.listReviews': 'walked for hidden courses in tests/education/course-moderation.test.ts',
  'courses.verifyCertificate': 'a certificate is the learner’s record of a completion',
  // a user's cloud files and folders are theirs alone (never shown to anyone else) and not moderated content
  'cloud.root': 'the caller’s own private storage',
  'cloud.folder': 'the caller’s own private storage',
  'cloud.file': 'the caller’s own private storage',
  'cloud.fileContent': 'the caller’s own private storage',
  'cloud.versions': 'the caller’s own private storage',
  'cloud.trash': 'the caller’s own private storage',
  'cloud.search': 'the caller’s own private storage',
};

/** Staff routes: staff see hidden content by design (that is how they judge it). */
const isStaffRoute = (operation: Operation) => operation.meta.staff !== undefined;

/** Query values for the keys a route reads, each alone: a list filtered by the owner, a search for the fixture's word. */
function queryVariants(route: AppRoute, world: World): Record<string, string>[] {
  const shape = (route.query as { shape?: Record<string, { isOptional(): boolean }> } | null)?.shape ?? {};
  const keys = Object.keys(shape);
  const required: Record<string, string> = {};
  const values: Record<string, string> = {
    q: WORD,
    search: WORD,
    user_id: world.owner.id,
    creator_id: world.owner.id,
    seller_id: world.owner.id,
    format: 'm3u',
    username: world.owner.username,
    secret: world.trackSecret,
    ...(world.hls.playback ? { playback: world.hls.playback } : {}),
    period: '7d',
    brand: WORD,
    model: WORD,
  };
  for (const key of keys) {
    if (shape[key]!.isOptional()) continue;
    if (!(key in values)) throw new Error(`${route.path}: no value for the required query parameter ${key}`);
    required[key] = values[key]!;
  }
  const variants = [required];
  for (const key of keys) if (key in values && !(key in required)) variants.push({ ...required, [key]: values[key]! });
  // the search and the suggestions: each kind alone as well, and a prefix (what a keystroke sends)
  if (keys.includes('q')) variants.push({ ...required, q: WORD.slice(0, 4) });
  if (keys.includes('type'))
    for (const type of ['tracks', 'users', 'playlists', 'products']) variants.push({ ...required, type });
  return variants;
}

/**
 * The values a path parameter takes, from the segment before it: each hidden item where the route
 * names that kind (the call must answer 404) and a visible neighbour (its reply must not carry the
 * hidden item: a visible track's comments, the other user's playlist holding the hidden track).
 */
function pathValues(path: string, param: string, world: World): { value: string; names?: string }[] {
  const segments = path.split('/');
  const before = segments[segments.indexOf(`:${param}`) - 1];
  const { hidden, visible } = world;
  switch (`${before}/${param}`) {
    case 'tracks/id':
      return [{ value: hidden.track, names: hidden.track }, { value: visible.track }, { value: visible.secondTrack }];
    case 'users/id':
    case 'quota/id':
      return [{ value: world.owner.id }, { value: world.other.id }, { value: world.banned.id }];
    case 'by-username/username':
      return [{ value: world.owner.username }, { value: world.other.username }, { value: world.banned.username }];
    case 'comments/id':
      return [{ value: hidden.comment, names: hidden.comment }, { value: visible.comment }];
    case 'playlists/id':
      return [{ value: hidden.playlist, names: hidden.playlist }, { value: visible.playlist }];
    case 'shared/token':
      return [{ value: world.playlistShareToken, names: hidden.playlist }, { value: world.visiblePlaylistShareToken }];
    case 'session/token':
      return [{ value: world.sessionToken }];
    case 'products/id':
      return [{ value: hidden.product, names: hidden.product }, { value: visible.product }];
    case 'download/product_id':
      return [{ value: hidden.product, names: hidden.product }];
    case 'images/imageId':
      return [{ value: world.productImage }];
    case 'previews/previewId':
      return [{ value: world.productPreview }];
    case 'hls/variant':
      return [{ value: world.hls.variant }];
    case ':variant/file':
      return [{ value: world.hls.file }];
    case 'groups/id':
      return [
        { value: hidden.group, names: hidden.group },
        { value: visible.group },
        { value: world.bannedItems.group },
      ];
    case 'by-slug/slug':
      return [{ value: world.groupSlugs.hidden, names: hidden.group }, { value: world.groupSlugs.visible }];
    case 'posts/post_id':
      return [
        { value: hidden.groupPost, names: hidden.groupPost },
        { value: visible.groupPost },
        { value: world.bannedItems.groupPost, names: world.bannedItems.groupPost },
      ];
    case 'comments/comment_id':
      return [{ value: hidden.comment, names: hidden.comment }];
    default:
      throw new Error(`${path}: no value for :${param} (add it to pathValues or EXCLUDED)`);
  }
}

/** Every call of the walk: each read route, with each filling of its path and each query. */
function walkCalls(world: World): Call[] {
  const calls: Call[] = [];
  for (const operation of contractOperations()) {
    if (operation.route.method !== 'GET' || isStaffRoute(operation) || operation.id in EXCLUDED) continue;
    const params = [...operation.route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    let fillings: { path: string; names?: string }[] = [{ path: operation.route.path }];
    for (const param of params) {
      fillings = fillings.flatMap((filling) =>
        pathValues(operation.route.path, param, world).map(({ value, names }) => ({
          path: filling.path.replace(`:${param}`, value),
          names: filling.names ?? names,
        })),
      );
    }
    for (const filling of fillings) {
      for (const query of queryVariants(operation.route, world)) calls.push({ operation, ...filling, query });
    }
  }
  return calls;
}

interface Answer {
  call: Call;
  caller: 'anonymous' | 'other';
  status: number;
  text: string;
}

async function send(call: Call, caller: TestUser | undefined): Promise<Answer> {
  const search = new URLSearchParams(call.query).toString();
  const url = `${suite.server.baseUrl}${call.path}${search ? `?${search}` : ''}`;
  const response = await fetch(url, {
    headers: caller ? { authorization: `Bearer ${caller.accessToken}` } : {},
    redirect: 'manual',
  });
  const text = Buffer.from(await response.arrayBuffer()).toString('latin1');
  return { call, caller: caller ? 'other' : 'anonymous', status: response.status, text };
}

async function walk(world: World): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const call of walkCalls(world)) {
    for (const caller of [undefined, world.other]) answers.push(await send(call, caller));
  }
  return answers;
}

const label = (answer: Answer) =>
  `${answer.caller} GET ${answer.call.path}${Object.keys(answer.call.query).length ? `?${new URLSearchParams(answer.call.query)}` : ''} (${answer.call.operation.id}) → ${answer.status}`;

/** What must not show once hidden or banned: the hidden items, the banned account and its items. */
const withheldIds = (world: World) => [
  ...Object.values(world.hidden),
  world.banned.id,
  ...Object.values(world.bannedItems),
];

/** The hidden ids an answer carries. */
const carried = (answer: Answer, ids: readonly string[]) => ids.filter((id) => answer.text.includes(id));

async function hide(kind: 'track' | 'comment' | 'playlist' | 'product' | 'group' | 'group_post', id: string) {
  await ok(http().post(`/moderation/content/${kind}/${id}/hide`, { ...auth(world.staff), body: { note: 'test' } }));
}

describe('hidden content, walked through every read route', () => {
  let before: Answer[];
  let after: Answer[];

  beforeAll(async () => {
    world = await buildWorld();
    before = await walk(world);
    await hide('track', world.hidden.track);
    await hide('comment', world.hidden.comment);
    await hide('playlist', world.hidden.playlist);
    await hide('product', world.hidden.product);
    await hide('group', world.hidden.group);
    await hide('group_post', world.hidden.groupPost);
    const admin = await createAdmin(suite.server);
    await ok(http().post(`/admin/users/${world.banned.id}/ban`, { ...auth(admin), body: { reason: 'Spam' } }), 201);
    after = await walk(world);
  }, 600_000);

  it('reached the hidden items before they were hidden, in every kind of list the fixture feeds', () => {
    const ids = Object.values(world.hidden);
    const bannedIds = [world.banned.id, ...Object.values(world.bannedItems)];
    const reachedBanned = new Set(
      before.filter((answer) => carried(answer, bannedIds).length > 0).map((a) => a.call.operation.id),
    );
    // the banned user showed, before the ban, as a profile, a follower, an author, in search and suggestions,
    // in the feed and recommendations, in a followed playlist, as a notification's actor
    for (const id of [
      'users.list',
      'users.get',
      'users.followers',
      'users.following',
      'tracks.list',
      'tracks.search',
      'comments.list',
      'search.search',
      'search.suggestions',
      'social.feed',
      'social.recommendationsFor',
      'playlists.favorites',
      'notifications.list',
    ]) {
      expect(reachedBanned, id).toContain(id);
    }
    const reached = new Set(before.filter((answer) => carried(answer, ids).length > 0).map((a) => a.call.operation.id));
    // each of these lists showed a hidden item while it was visible: the walk after hiding tests something
    for (const id of [
      'tracks.get',
      'tracks.list',
      'tracks.search',
      'social.userLikes',
      'social.userReposts',
      'social.feed',
      'social.history',
      'social.trending',
      'comments.list',
      'comments.replies',
      'queue.get',
      'queue.getSession',
      'playlists.get',
      'playlists.list',
      'playlists.shared',
      'playlists.favorites',
      'playlists.search',
      'marketplace.listProducts',
      'marketplace.getProduct',
      'search.search',
      'search.suggestions',
      'groups.list',
      'groups.get',
      'groups.bySlug',
      'groupPosts.list',
      'groupPosts.get',
    ]) {
      expect(reached, id).toContain(id);
    }
    // and the routes that name a hidden item answered (the item existed for the caller)
    for (const answer of before.filter((a) => a.call.names && a.caller === 'other')) {
      expect([200, 206, 302, 403, 404].includes(answer.status), label(answer)).toBe(true);
    }
  });

  it('no reply to anyone but the owner and staff carries a hidden item’s or the banned account’s id afterwards', () => {
    const ids = withheldIds(world);
    const leaks = after
      .filter((answer) => answer.status < 400)
      .map((answer) => ({ answer, ids: carried(answer, ids) }))
      .filter((leak) => leak.ids.length > 0)
      .map((leak) => `${label(leak.answer)} carries ${leak.ids.join(', ')}`);
    expect(leaks).toEqual([]);
  });

  it('every route that names a hidden item answers 404 (401 to an anonymous caller of a signed-in route)', () => {
    const wrong = after
      .filter((answer) => answer.call.names)
      .filter((answer) => {
        const signedIn = answer.call.operation.meta.auth === 'user';
        const expected = answer.caller === 'anonymous' && signedIn ? 401 : 404;
        return answer.status !== expected;
      })
      .map(label);
    expect(wrong).toEqual([]);
  });

  it('the HLS playlists and segments handed out before, the secret link and the share link are closed', async () => {
    for (const uri of world.hls.uris) expect((await fetch(uri)).status, uri).toBe(404);
    const base = `/api/v1/tracks/${world.hidden.track}`;
    for (const path of ['', '/stream', '/download', '/waveform', '/cover', '/hls/master.m3u8']) {
      const reply = await fetch(`${suite.server.baseUrl}${base}${path}?secret=${world.trackSecret}`);
      expect(reply.status, path).toBe(404);
    }
    expect((await http().get(`/playlists/shared/${world.playlistShareToken}`)).status).toBe(404);
  });

  it('a playlist holding the hidden track leaves it out of its tracks and track_count for others', async () => {
    for (const caller of [world.other, undefined]) {
      const reply = await http().get(`/playlists/shared/${world.visiblePlaylistShareToken}`, auth(caller));
      expect(reply.status).toBe(200);
      expect(reply.body.data.playlist.track_count).toBe(1);
    }
    const mine = await ok(http().get(`/playlists/${world.visible.playlist}`, auth(world.other)));
    expect(mine.body.data.playlist.track_count).toBe(1);
  });

  it('the banned profile answers 404, by id and by username', async () => {
    for (const caller of [world.other, undefined]) {
      expect((await http().get(`/users/${world.banned.id}`, auth(caller))).status).toBe(404);
      expect((await http().get(`/users/by-username/${world.banned.username}`, auth(caller))).status).toBe(404);
    }
  });

  it('writes that name a hidden item answer 404 to others', async () => {
    const { hidden, other } = world;
    const writes: [string, string, unknown?][] = [
      ['POST', `/tracks/${hidden.track}/like`],
      ['POST', `/tracks/${hidden.track}/repost`],
      ['POST', `/tracks/${hidden.track}/share`, { platform: 'link' }],
      ['POST', `/tracks/${hidden.track}/play`, { duration_listened: 3 }],
      ['POST', `/tracks/${hidden.track}/comments`, { content: 'hello' }],
      ['POST', '/queue/items', { track_id: hidden.track }],
      ['POST', `/queue/session/${world.sessionToken}/items`, { track_id: hidden.track }],
      ['POST', `/playlists/${world.visible.playlist}/tracks`, { track_id: hidden.track }],
      ['POST', `/playlists/${hidden.playlist}/follow`],
      ['POST', `/playlists/${hidden.playlist}/duplicate`, {}],
      ['POST', `/marketplace/orders`, { items: [{ product_id: hidden.product }] }],
    ];
    const wrong: string[] = [];
    for (const [method, path, body] of writes) {
      const reply = await (method === 'POST' ? http().post : http().put)(path, {
        ...auth(other),
        ...(body !== undefined ? { body } : {}),
      });
      if (reply.status !== 404) wrong.push(`${method} ${path} → ${reply.status} ${reply.text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    // a reply to the hidden comment is refused as a reply to no comment of the track is
    const reply = await http().post(`/tracks/${world.visible.track}/comments`, {
      ...auth(other),
      body: { content: 'hello', parent_id: hidden.comment },
    });
    expect([reply.status, reply.body?.error?.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('the owner still sees each item with its moderation status, and so does staff', async () => {
    const { hidden, visible } = world;
    for (const reader of [world.owner, world.staff]) {
      const track = await ok(http().get(`/tracks/${hidden.track}`, auth(reader)));
      expect(track.body.data.track.moderation_status).toBe('hidden');
      const playlist = await ok(http().get(`/playlists/${hidden.playlist}`, auth(reader)));
      expect(playlist.body.data.playlist.moderation_status).toBe('hidden');
      const product = await ok(http().get(`/marketplace/products/${hidden.product}`, auth(reader)));
      expect((product.body.data ?? product.body).moderation_status).toBe('hidden');
      const comments = await ok(http().get(`/tracks/${visible.track}/comments`, auth(reader)));
      expect(comments.text).toContain(hidden.comment);
      for (const path of ['/stream', '/waveform', '/cover', '/hls/master.m3u8']) {
        const reply = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${hidden.track}${path}`, {
          headers: { authorization: `Bearer ${reader.accessToken}` },
        });
        expect(reply.status, path).toBeLessThan(300);
      }
    }
    const mine = await ok(http().get(`/playlists/${hidden.playlist}`, auth(world.owner)));
    expect(mine.body.data.playlist.track_count).toBe(3);
  });
});

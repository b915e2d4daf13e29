/**
 * Authorization matrix, second half: every route of the contract whose path names an object owned
 * by a user refuses another signed-in user with the status ADDENDUM prescribes (404 for what that
 * user may not see, 403 for what they may see but not change; SPEC's 403 for /users/{id} writes and
 * completion, ADDENDUM's 403 for another user's quota), and the object is unchanged afterwards.
 * The routes come from the contract: a route with a path id that the table below does not classify
 * fails the first test, so a new route has to be placed here.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { audioForm, makeAudio, uploadForm } from '../support/audio.js';
import { request, type HttpReply } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { contractOperations, pathParamNames, type Operation } from './operations.js';

type Owned =
  | 'publicTrack'
  | 'privateTrack'
  | 'session'
  | 'user'
  | 'comment'
  | 'privateComment'
  | 'queueItem'
  | 'queueSession'
  | 'sessionItem'
  | 'publicPlaylist'
  | 'privatePlaylist'
  | 'promoCode'
  | 'apiKey'
  | 'appPassword'
  | 'webhook'
  | 'activeProduct'
  | 'draftProduct'
  | 'product'
  | 'order'
  | 'notification'
  | 'publicGroup'
  | 'privateGroup'
  | 'privateGroupSlug'
  | 'groupInvite'
  | 'publicGroupPost'
  | 'privateGroupPost'
  | 'publicGear'
  | 'privateGear'
  | 'publishedCourse'
  | 'draftCourse'
  | 'cloudFolder'
  | 'cloudFile'
  | 'cloudTrashed';

interface Case {
  /** Which of the owner's objects the path id names. */
  object: Owned;
  /** What another signed-in user gets. */
  status: 403 | 404;
  body?: unknown;
  /** A query string the route requires (without `?`). */
  query?: string;
}

/**
 * Routes with a path id of an owned object, per object: what another user gets. Routes on another
 * user meant to be used by others (follow, block, followers, public reads of a visible object) are
 * listed in `notOwnerOnly` with the object they are tried on, where the caller is expected to succeed.
 */
const matrix: Record<string, Case[]> = {
  'tracks.get': [{ object: 'privateTrack', status: 404 }],
  'tracks.update': [
    { object: 'publicTrack', status: 403, body: { title: 'Taken over' } },
    { object: 'privateTrack', status: 404, body: { title: 'Taken over' } },
  ],
  'tracks.remove': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'tracks.status': [
    // ADDENDUM: owner or admin; others 404, even on a public track
    { object: 'publicTrack', status: 404 },
    { object: 'privateTrack', status: 404 },
  ],
  'tracks.getLyrics': [{ object: 'privateTrack', status: 404 }],
  'tracks.putLyrics': [
    { object: 'publicTrack', status: 403, body: { content: 'not my words' } },
    { object: 'privateTrack', status: 404, body: { content: 'not my words' } },
    // empty content removes the lyrics: refused the same way
    { object: 'publicTrack', status: 403, body: { content: '' } },
  ],
  'tracks.stream': [{ object: 'privateTrack', status: 404 }],
  'tracks.download': [{ object: 'privateTrack', status: 404 }],
  'tracks.resume': [{ object: 'session', status: 404 }],
  'tracks.cancel': [{ object: 'session', status: 404 }],
  // a copyright claim: another user who is not its party does not see it (404; the parties' own refusals are in
  // tests/copyright); deciding one is staff's, refused before the route runs
  'copyright.counter': [{ object: 'publicTrack', status: 404, body: { statement: 'mine', signature: 'Me' } }],
  'copyright.decide': [{ object: 'publicTrack', status: 403, body: { outcome: 'rejected', note: 'x' } }],
  'tracks.quota': [{ object: 'user', status: 403 }],
  'users.update': [{ object: 'user', status: 403, body: { bio: 'Taken over' } }],
  'users.remove': [{ object: 'user', status: 403 }],
  'users.completion': [{ object: 'user', status: 403 }],
  'tracks.replaceFile': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'tracks.restoreVersion': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'media.waveform': [{ object: 'privateTrack', status: 404 }],
  'media.cover': [{ object: 'privateTrack', status: 404 }],
  'media.hlsMaster': [{ object: 'privateTrack', status: 404 }],
  'media.hlsVariant': [{ object: 'privateTrack', status: 404 }],
  'media.hlsSegment': [{ object: 'privateTrack', status: 404 }],
  'media.versions': [
    // ADDENDUM: another user who may see the track gets 403
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  // track social: a private track of someone else does not exist for the caller; the owner's figures are 403
  'social.like': [{ object: 'privateTrack', status: 404 }],
  'social.unlike': [{ object: 'privateTrack', status: 404 }],
  'social.likers': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'social.repost': [{ object: 'privateTrack', status: 404 }],
  'social.unrepost': [{ object: 'privateTrack', status: 404 }],
  'social.share': [{ object: 'privateTrack', status: 404, body: { platform: 'link' } }],
  'social.revokeShare': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'social.play': [{ object: 'privateTrack', status: 404, body: { duration_listened: 40 } }],
  'social.stats': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  // a track's analytics are its owner's (and admins'): another user who may see the track gets 403
  'analytics.track': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  'social.recommendationsFor': [{ object: 'privateTrack', status: 404 }],
  'social.suggestedTags': [
    { object: 'publicTrack', status: 403 },
    { object: 'privateTrack', status: 404 },
  ],
  // comments are seen where their track is; edit is the author's, delete the author's, the track owner's or an admin's
  'comments.list': [{ object: 'privateTrack', status: 404 }],
  'comments.create': [{ object: 'privateTrack', status: 404, body: { content: 'let me in' } }],
  'comments.replies': [{ object: 'privateComment', status: 404 }],
  'comments.update': [
    { object: 'comment', status: 403, body: { content: 'Taken over' } },
    { object: 'privateComment', status: 404, body: { content: 'Taken over' } },
  ],
  'comments.remove': [
    { object: 'comment', status: 403 },
    { object: 'privateComment', status: 404 },
  ],
  // another user's queue item is not in their queue
  'queue.removeItem': [{ object: 'queueItem', status: 404 }],
  // a shared session is seen by whoever holds its token; only the host steers and ends it
  'queue.updateSession': [{ object: 'queueSession', status: 403, body: { is_playing: true } }],
  'queue.endSession': [{ object: 'queueSession', status: 403 }],
  'queue.removeSessionItem': [{ object: 'sessionItem', status: 403 }],
  // a private playlist exists for its owner and collaborators only; a public one is seen by all, changed by its editors
  'playlists.get': [{ object: 'privatePlaylist', status: 404 }],
  'playlists.update': [
    { object: 'publicPlaylist', status: 403, body: { title: 'Taken over' } },
    { object: 'privatePlaylist', status: 404, body: { title: 'Taken over' } },
  ],
  'playlists.remove': [
    { object: 'publicPlaylist', status: 403 },
    { object: 'privatePlaylist', status: 404 },
  ],
  'playlists.addTrack': [
    { object: 'publicPlaylist', status: 403, body: { track_id: 'PUBLIC_TRACK' } },
    { object: 'privatePlaylist', status: 404, body: { track_id: 'PUBLIC_TRACK' } },
  ],
  'playlists.removeTrack': [
    { object: 'publicPlaylist', status: 403 },
    { object: 'privatePlaylist', status: 404 },
  ],
  'playlists.reorder': [
    { object: 'publicPlaylist', status: 403, body: { track_ids: ['PUBLIC_TRACK'] } },
    { object: 'privatePlaylist', status: 404, body: { track_ids: ['PUBLIC_TRACK'] } },
  ],
  'playlists.addCollaborator': [
    { object: 'publicPlaylist', status: 403, body: { user_id: 'OTHER_USER', permission: 'admin' } },
    { object: 'privatePlaylist', status: 404, body: { user_id: 'OTHER_USER', permission: 'admin' } },
  ],
  'playlists.collaborators': [{ object: 'privatePlaylist', status: 404 }],
  'playlists.updateCollaborator': [
    { object: 'publicPlaylist', status: 403, body: { permission: 'admin' } },
    { object: 'privatePlaylist', status: 404, body: { permission: 'admin' } },
  ],
  'playlists.removeCollaborator': [
    { object: 'publicPlaylist', status: 403 },
    { object: 'privatePlaylist', status: 404 },
  ],
  'playlists.share': [
    { object: 'publicPlaylist', status: 403, body: {} },
    { object: 'privatePlaylist', status: 404, body: {} },
  ],
  'playlists.revokeShare': [
    { object: 'publicPlaylist', status: 403 },
    { object: 'privatePlaylist', status: 404 },
  ],
  'playlists.duplicate': [{ object: 'privatePlaylist', status: 404, body: {} }],
  'playlists.follow': [{ object: 'privatePlaylist', status: 404 }],
  'playlists.unfollow': [{ object: 'privatePlaylist', status: 404 }],
  'playlists.export': [{ object: 'privatePlaylist', status: 404, query: 'format=m3u' }],
  'playlists.analytics': [
    { object: 'publicPlaylist', status: 403 },
    { object: 'privatePlaylist', status: 404 },
  ],
  // a seller's promo codes are theirs alone
  'marketplace.removePromoCode': [{ object: 'promoCode', status: 404 }],
  // an API key is its owner's alone
  'developer.revokeApiKey': [{ object: 'apiKey', status: 404 }],
  'subsonic.revokeAppPassword': [{ object: 'appPassword', status: 404 }],
  // a webhook is its owner's alone, and so is its log
  ...Object.fromEntries(
    [
      'webhooks.get',
      'webhooks.remove',
      'webhooks.regenerateKey',
      'webhooks.rotateSecret',
      'webhooks.deliveries',
      'webhooks.redeliver',
      'webhooks.test',
    ].map((id) => [id, [{ object: 'webhook', status: 404 }]]),
  ),
  'webhooks.update': [
    { object: 'webhook', status: 404, body: { url: 'https://93.184.216.35/taken', is_active: false } },
  ],
  // marketplace products: an active product is seen by all and changed by its seller; a draft is the seller's alone
  ...Object.fromEntries(
    (
      [
        ['marketplace.updateProduct', { title: 'Taken over' }],
        ['marketplace.deleteProduct', undefined],
        ['marketplace.createLicense', { license_type: 'personal', price_cents: 1 }],
        ['marketplace.updateLicense', { price_cents: 1 }],
        ['marketplace.deleteLicense', undefined],
        ['marketplace.addImage', undefined],
        ['marketplace.removeImage', undefined],
        ['marketplace.addPreview', undefined],
        ['marketplace.removePreview', undefined],
        ['marketplace.putFile', undefined],
      ] as const
    ).map(([id, body]) => [
      id,
      [
        { object: 'activeProduct', status: 403, ...(body ? { body } : {}) },
        { object: 'draftProduct', status: 404, ...(body ? { body } : {}) },
      ] satisfies Case[],
    ]),
  ),
  'marketplace.getProduct': [{ object: 'draftProduct', status: 404 }],
  'marketplace.image': [{ object: 'draftProduct', status: 404 }],
  'marketplace.preview': [{ object: 'draftProduct', status: 404 }],
  // SPEC: another user's order is 403 (not 404)
  'marketplace.getOrder': [{ object: 'order', status: 403 }],
  'marketplace.refundOrder': [{ object: 'order', status: 403, body: {} }],
  'marketplace.invoice': [{ object: 'order', status: 403 }],
  // a review is seen by all; its author (or an admin) deletes it
  'marketplace.deleteReview': [{ object: 'product', status: 403 }],
  // a notification is its recipient's alone
  'notifications.remove': [{ object: 'notification', status: 404 }],
  // staff and admin routes: a user who is neither is refused before the route runs
  'admin.getUser': [{ object: 'user', status: 403 }],
  'admin.setRole': [{ object: 'user', status: 403, body: { role: 'admin' } }],
  'admin.verifyEmail': [{ object: 'user', status: 403 }],
  'admin.setQuota': [{ object: 'user', status: 403, body: { limit_bytes: 1 } }],
  'admin.revokeSessions': [{ object: 'user', status: 403 }],
  // the moderation queue and content actions are staff's: a user who is not is refused before the route runs
  'moderation.getCase': [{ object: 'publicTrack', status: 403 }],
  'moderation.assignCase': [{ object: 'publicTrack', status: 403 }],
  'moderation.resolveCase': [{ object: 'publicTrack', status: 403, body: { action: 'hide', note: 'x' } }],
  'moderation.dismissCase': [{ object: 'publicTrack', status: 403, body: { note: 'x' } }],
  'moderation.hideContent': [{ object: 'publicTrack', status: 403, body: { note: 'x' } }],
  'moderation.restoreContent': [{ object: 'publicTrack', status: 403, body: { note: 'x' } }],
  'moderation.removeContent': [{ object: 'publicTrack', status: 403, body: { note: 'x' } }],
  // sanctions are staff's: a user who is neither moderator nor admin is refused before the route runs
  'sanctions.warn': [{ object: 'user', status: 403, body: { reason: 'spam' } }],
  'sanctions.suspend': [{ object: 'user', status: 403, body: { reason: 'spam', until: '2099-01-01T00:00:00Z' } }],
  'sanctions.unsuspend': [{ object: 'user', status: 403 }],
  'sanctions.ban': [{ object: 'user', status: 403, body: { reason: 'spam' } }],
  'sanctions.unban': [{ object: 'user', status: 403 }],
  // deciding appeals is staff's: a user who is neither moderator nor admin is refused before the route runs
  'appeals.decide': [{ object: 'user', status: 403, body: { outcome: 'granted', note: 'x' } }],
  // groups: a private group is 404 to non-members; a public one is seen, so what its owner and admins
  // (or moderators) may do is 403 to others; the owner's invite (to someone else's group) is theirs alone
  'groups.get': [{ object: 'privateGroup', status: 404 }],
  'groups.bySlug': [{ object: 'privateGroupSlug', status: 404 }],
  'groups.avatar': [{ object: 'privateGroup', status: 404 }],
  'groups.update': [
    { object: 'publicGroup', status: 403, body: { description: 'taken over' } },
    { object: 'privateGroup', status: 404, body: { description: 'taken over' } },
  ],
  'groups.remove': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.setAvatar': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.join': [{ object: 'privateGroup', status: 404 }],
  'groups.leave': [{ object: 'privateGroup', status: 404 }],
  'groups.members': [{ object: 'privateGroup', status: 404 }],
  'groups.requests': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.approveRequest': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.denyRequest': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.invite': [
    { object: 'publicGroup', status: 403, body: { user_id: 'OTHER_USER' } },
    { object: 'privateGroup', status: 404, body: { user_id: 'OTHER_USER' } },
  ],
  'groups.acceptInvite': [{ object: 'groupInvite', status: 404 }],
  'groups.declineInvite': [{ object: 'groupInvite', status: 404 }],
  'groups.setRole': [
    { object: 'publicGroup', status: 403, body: { role: 'admin' } },
    { object: 'privateGroup', status: 404, body: { role: 'admin' } },
  ],
  'groups.removeMember': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  'groups.ban': [
    { object: 'publicGroup', status: 403 },
    { object: 'privateGroup', status: 404 },
  ],
  // the posts of a group: a private group's are 404 to a non-member; a public group's are read by anyone, so
  // writing there is 403 to a non-member, and editing, deleting and pinning someone else's post 403
  'groupPosts.list': [{ object: 'privateGroup', status: 404 }],
  'groupPosts.create': [
    { object: 'publicGroup', status: 403, body: { content: 'not a member' } },
    { object: 'privateGroup', status: 404, body: { content: 'not a member' } },
  ],
  'groupPosts.get': [{ object: 'privateGroupPost', status: 404 }],
  'groupPosts.replies': [{ object: 'privateGroupPost', status: 404 }],
  'groupPosts.update': [
    { object: 'publicGroupPost', status: 403, body: { content: 'taken over' } },
    { object: 'privateGroupPost', status: 404, body: { content: 'taken over' } },
  ],
  'groupPosts.remove': [
    { object: 'publicGroupPost', status: 403 },
    { object: 'privateGroupPost', status: 404 },
  ],
  'groupPosts.pin': [
    { object: 'publicGroupPost', status: 403 },
    { object: 'privateGroupPost', status: 404 },
  ],
  'groupPosts.unpin': [
    { object: 'publicGroupPost', status: 403 },
    { object: 'privateGroupPost', status: 404 },
  ],
  'groups.transfer': [
    { object: 'publicGroup', status: 403, body: { user_id: 'OTHER_USER' } },
    { object: 'privateGroup', status: 404, body: { user_id: 'OTHER_USER' } },
  ],
  // gear: a private item is its owner's (404); a public one others see but may not change (403)
  'gear.get': [{ object: 'privateGear', status: 404 }],
  'gear.update': [
    { object: 'publicGear', status: 403, body: { notes: 'mine now' } },
    { object: 'privateGear', status: 404, body: { notes: 'mine now' } },
  ],
  'gear.remove': [
    { object: 'publicGear', status: 403 },
    { object: 'privateGear', status: 404 },
  ],
  // refused before the upload is read
  'gear.addPhoto': [
    { object: 'publicGear', status: 403 },
    { object: 'privateGear', status: 404 },
  ],
  'gear.photo': [{ object: 'privateGear', status: 404 }],
  'gear.removePhoto': [
    { object: 'publicGear', status: 403 },
    { object: 'privateGear', status: 404 },
  ],
  'gear.setTrackGear': [
    { object: 'publicTrack', status: 403, body: { gear_ids: [] } },
    { object: 'privateTrack', status: 404, body: { gear_ids: [] } },
  ],
  'gear.trackGear': [{ object: 'privateTrack', status: 404 }],
  // courses: a draft is its instructor's (404); a published course others see but may not change (403)
  'courses.get': [{ object: 'draftCourse', status: 404 }],
  'courses.cover': [{ object: 'draftCourse', status: 404 }],
  'courses.update': [
    { object: 'publishedCourse', status: 403, body: { title: 'Taken over' } },
    { object: 'draftCourse', status: 404, body: { title: 'Taken over' } },
  ],
  'courses.remove': [
    { object: 'publishedCourse', status: 403 },
    { object: 'draftCourse', status: 404 },
  ],
  // refused before the upload is read
  'courses.setCover': [
    { object: 'publishedCourse', status: 403 },
    { object: 'draftCourse', status: 404 },
  ],
  'courses.enroll': [{ object: 'draftCourse', status: 404 }],
  'courses.leave': [{ object: 'draftCourse', status: 404 }],
  'courses.lessons': [{ object: 'draftCourse', status: 404 }],
  // a lesson of a published course is 403 NOT_ENROLLED to others (tests/education): not an ownership refusal
  'courses.lesson': [{ object: 'draftCourse', status: 404 }],
  'courses.createLesson': [
    { object: 'publishedCourse', status: 403, body: { title: 'Mine', kind: 'text' } },
    { object: 'draftCourse', status: 404, body: { title: 'Mine', kind: 'text' } },
  ],
  'courses.updateLesson': [
    { object: 'publishedCourse', status: 403, body: { title: 'Mine' } },
    { object: 'draftCourse', status: 404, body: { title: 'Mine' } },
  ],
  'courses.removeLesson': [
    { object: 'publishedCourse', status: 403 },
    { object: 'draftCourse', status: 404 },
  ],
  // progress and the certificate are a learner's: a draft is 404 (a published course's are 403 NOT_ENROLLED, tests/education)
  'courses.completeLesson': [{ object: 'draftCourse', status: 404 }],
  'courses.uncompleteLesson': [{ object: 'draftCourse', status: 404 }],
  'courses.progress': [{ object: 'draftCourse', status: 404 }],
  'courses.certificate': [{ object: 'draftCourse', status: 404 }],
  // reviews are a learner's (a published course's are 403 NOT_ENROLLED, tests/education)
  'courses.createReview': [{ object: 'draftCourse', status: 404, body: { rating: 5 } }],
  'courses.listReviews': [{ object: 'draftCourse', status: 404 }],
  'courses.removeReview': [{ object: 'draftCourse', status: 404 }],
  'courses.reorderLessons': [
    { object: 'publishedCourse', status: 403, body: { lesson_ids: ['PUBLISHED_LESSON'] } },
    { object: 'draftCourse', status: 404, body: { lesson_ids: ['PUBLISHED_LESSON'] } },
  ],
  // cloud: a user's files and folders are theirs alone (404 to everyone else)
  'cloud.folder': [{ object: 'cloudFolder', status: 404 }],
  'cloud.updateFolder': [{ object: 'cloudFolder', status: 404, body: { name: 'mine now' } }],
  'cloud.file': [{ object: 'cloudFile', status: 404 }],
  'cloud.fileContent': [{ object: 'cloudFile', status: 404 }],
  'cloud.updateFile': [{ object: 'cloudFile', status: 404, body: { name: 'mine now' } }],
  // refused before the upload is read
  'cloud.replaceContent': [{ object: 'cloudFile', status: 404 }],
  'cloud.versions': [{ object: 'cloudFile', status: 404 }],
  'cloud.restoreVersion': [{ object: 'cloudFile', status: 404 }],
  'cloud.removeFile': [{ object: 'cloudFile', status: 404 }],
  'cloud.removeFolder': [{ object: 'cloudFolder', status: 404 }],
  'cloud.restoreTrashItem': [{ object: 'cloudTrashed', status: 404 }],
  'cloud.deleteTrashItem': [{ object: 'cloudTrashed', status: 404 }],
};

const notOwnerOnly: Record<string, Owned> = {
  'users.byUsername': 'user',
  'users.get': 'user',
  'users.follow': 'user',
  'users.unfollow': 'user',
  'users.followers': 'user',
  'users.following': 'user',
  'users.block': 'user',
  'users.unblock': 'user',
  // seen wherever the profile is
  'users.avatar': 'user',
  // the external transcoder's, authenticated by its signature (401 without), not by a user
  'media.hlsCallback': 'publicTrack',
  // what a user liked and reposted: public lists, filtered to what the caller may see
  'social.userLikes': 'user',
  'social.userReposts': 'user',
  // the token is the credential: any holder reads the session and may add to it
  'queue.getSession': 'queueSession',
  'queue.addSessionItem': 'queueSession',
  // the token is the credential (an unknown one is 404)
  'playlists.shared': 'publicPlaylist',
  // a purchase's download: anyone asks, a buyer gets it (403 NO_LICENSE otherwise); the signed URL is the credential
  'marketplace.download': 'product',
  'marketplace.downloadFile': 'product',
  // the sandbox's hosted page: its payment id is the credential, as a provider's checkout URL
  'marketplace.sandboxCheckout': 'order',
  // reviews are public; writing one needs a purchase (403 NO_LICENSE), not ownership
  'marketplace.createReview': 'product',
  'marketplace.listReviews': 'product',
  // a user's public gear, where their profile is visible
  'gear.userGear': 'user',
  // public: the code is what is verified (an unknown one is 404)
  'courses.verifyCertificate': 'publishedCourse',
};

/** Path parameters that are not the owned object's id: a valid value each. */
/** The session's share token is filled in once the owner has created the session. */
const otherParams: Record<string, string> = { variant: '160k', file: 'init.mp4', target_type: 'track' };

/** A comment named under its track (`/tracks/{id}/comments/{comment_id}`): the track the id stands for. */
const trackOf: Partial<Record<Owned, Owned>> = { comment: 'publicTrack', privateComment: 'privateTrack' };
/** A post named under its group (`/groups/{id}/posts/{post_id}`): the group the id stands for. */
const groupOf: Partial<Record<Owned, Owned>> = { publicGroupPost: 'publicGroup', privateGroupPost: 'privateGroup' };

const pathOperations = contractOperations().filter((operation) => pathParamNames(operation.route).length > 0);

let server: TestServer;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let other: Awaited<ReturnType<typeof signedInUser>>;
const ids = {} as Record<Owned, string>;
let sessionFields: { upload_id: string; total_chunks: number; total_size: number; filename: string };

beforeAll(async () => {
  server = await startTestServer();
  [owner, other] = await Promise.all([signedInUser(server), signedInUser(server)]);
  const audio = await makeAudio('mp3', { seconds: 1, title: 'Owned' });
  for (const [object, isPublic] of [
    ['publicTrack', 'true'],
    ['privateTrack', 'false'],
  ] as const) {
    const uploaded = await uploadForm(
      server.baseUrl,
      owner.accessToken,
      audioForm(audio, 'owned.mp3', { is_public: isPublic }),
    );
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.text}`);
    ids[object] = uploaded.body.data.track.id;
  }
  const lyrics = await request(server.baseUrl, 'PUT', `/api/v1/tracks/${ids.publicTrack}/lyrics`, {
    token: owner.accessToken,
    body: { content: 'the owner’s words' },
  });
  expect(lyrics.status).toBe(200);
  sessionFields = { total_chunks: 2, total_size: audio.length, filename: 'owned.mp3', upload_id: '' };
  const initiated = await request(server.baseUrl, 'POST', '/api/v1/tracks/initiate', {
    token: owner.accessToken,
    body: { filename: 'owned.mp3', total_chunks: 2, total_size: audio.length },
  });
  expect(initiated.status).toBe(200);
  sessionFields.upload_id = ids.session = initiated.body.data.upload_id;
  ids.user = owner.id;
  // the owner's comment on each of their tracks, each with a reply
  for (const [object, track] of [
    ['comment', ids.publicTrack],
    ['privateComment', ids.privateTrack],
  ] as const) {
    const made = await request(server.baseUrl, 'POST', `/api/v1/tracks/${track}/comments`, {
      token: owner.accessToken,
      body: { content: 'the owner’s comment' },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.data.comment.id;
    const reply = await request(server.baseUrl, 'POST', `/api/v1/tracks/${track}/comments`, {
      token: owner.accessToken,
      body: { content: 'a reply', parent_id: ids[object] },
    });
    expect(reply.status).toBe(201);
  }
  const queued = await request(server.baseUrl, 'POST', '/api/v1/queue/items', {
    token: owner.accessToken,
    body: { track_id: ids.publicTrack },
  });
  expect(queued.status).toBe(201);
  ids.queueItem = queued.body.data.item.id;
  const shared = await request(server.baseUrl, 'POST', '/api/v1/queue/session', {
    token: owner.accessToken,
    body: { title: 'Owned' },
  });
  expect(shared.status).toBe(201);
  otherParams.token = ids.queueSession = shared.body.data.session.token;
  ids.sessionItem = shared.body.data.session.items[0].id;
  for (const [object, isPublic] of [
    ['publicPlaylist', true],
    ['privatePlaylist', false],
  ] as const) {
    const made = await request(server.baseUrl, 'POST', '/api/v1/playlists', {
      token: owner.accessToken,
      body: { title: 'Owned', is_public: isPublic },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.data.playlist.id;
    const added = await request(server.baseUrl, 'POST', `/api/v1/playlists/${ids[object]}/tracks`, {
      token: owner.accessToken,
      body: { track_id: ids.publicTrack },
    });
    expect(added.status).toBe(200);
  }
  otherParams.trackId = ids.publicTrack;
  // a collaborator of the owner's playlists is named in the collaborator routes
  const friend = await signedInUser(server);
  for (const object of ['publicPlaylist', 'privatePlaylist'] as const) {
    const invited = await request(server.baseUrl, 'POST', `/api/v1/playlists/${ids[object]}/collaborators`, {
      token: owner.accessToken,
      body: { user_id: friend.id, permission: 'read' },
    });
    expect(invited.status).toBe(201);
  }
  otherParams.userId = friend.id;
  // the owner's groups, the friend a member of both (named by the member routes), and an invite to the owner
  for (const [object, visibility] of [
    ['publicGroup', 'public'],
    ['privateGroup', 'private'],
  ] as const) {
    const made = await request(server.baseUrl, 'POST', '/api/v1/groups', {
      token: owner.accessToken,
      body: { name: `Owned ${visibility}`, visibility, join_policy: 'open' },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.data.group.id;
    if (object === 'privateGroup') ids.privateGroupSlug = made.body.data.group.slug;
    const invited = await request(server.baseUrl, 'POST', `/api/v1/groups/${ids[object]}/invites`, {
      token: owner.accessToken,
      body: { user_id: friend.id },
    });
    expect(invited.status).toBe(201);
    const accepted = await request(
      server.baseUrl,
      'POST',
      `/api/v1/groups/invites/${invited.body.data.invite.id}/accept`,
      { token: friend.accessToken },
    );
    expect(accepted.status).toBe(200);
    const post = await request(server.baseUrl, 'POST', `/api/v1/groups/${ids[object]}/posts`, {
      token: owner.accessToken,
      body: { content: `Owned ${visibility} post` },
    });
    expect(post.status).toBe(201);
    ids[object === 'publicGroup' ? 'publicGroupPost' : 'privateGroupPost'] = post.body.data.post.id;
  }
  const friendsGroup = await request(server.baseUrl, 'POST', '/api/v1/groups', {
    token: friend.accessToken,
    body: { name: 'Friend’s group', visibility: 'private', join_policy: 'invite' },
  });
  const toOwner = await request(server.baseUrl, 'POST', `/api/v1/groups/${friendsGroup.body.data.group.id}/invites`, {
    token: friend.accessToken,
    body: { user_id: owner.id },
  });
  expect(toOwner.status).toBe(201);
  ids.groupInvite = toOwner.body.data.invite.id;
  const promo = await request(server.baseUrl, 'POST', '/api/v1/marketplace/promo-codes', {
    token: owner.accessToken,
    body: { code: 'OWNED10', percent_off: 10 },
  });
  expect(promo.status).toBe(201);
  ids.promoCode = promo.body.id;
  const apiKey = await request(server.baseUrl, 'POST', '/api/v1/developer/api-keys', {
    token: owner.accessToken,
    body: { name: 'Owned', scopes: ['read'] },
  });
  expect(apiKey.status).toBe(201);
  ids.apiKey = apiKey.body.data.api_key.id;
  const appPassword = await request(server.baseUrl, 'POST', '/api/v1/users/me/app-passwords', {
    token: owner.accessToken,
    body: { name: 'Owned' },
  });
  expect(appPassword.status).toBe(201);
  ids.appPassword = appPassword.body.data.app_password.id;
  // inactive: its address never answers, and failed deliveries of the setup's events would change the owner's view while the test compares it
  const webhook = await request(server.baseUrl, 'POST', '/api/v1/webhooks', {
    token: owner.accessToken,
    body: { url: 'https://93.184.216.34/hook', events: ['*'], is_active: false },
  });
  expect(webhook.status).toBe(201);
  ids.webhook = webhook.body.data.webhook.id;
  otherParams.deliveryId = '00000000-0000-4000-8000-000000000001';
  // a product of each status, with a license; image and preview ids need not exist: the product is refused first
  for (const [object, status] of [
    ['activeProduct', 'active'],
    ['draftProduct', 'draft'],
  ] as const) {
    const made = await request(server.baseUrl, 'POST', '/api/v1/marketplace/products', {
      token: owner.accessToken,
      body: {
        title: 'Owned product',
        price: 9.99,
        product_type: 'pack',
        licenses: [{ license_type: 'personal', price_cents: 999 }],
      },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.id;
    if (status === 'active') {
      const moved = await request(server.baseUrl, 'PUT', `/api/v1/marketplace/products/${made.body.id}`, {
        token: owner.accessToken,
        body: { status },
      });
      expect(moved.status).toBe(200);
      otherParams.licenseId = made.body.licenses[0].id;
    }
  }
  otherParams.imageId = '00000000-0000-4000-8000-000000000001';
  otherParams.previewId = '00000000-0000-4000-8000-000000000002';
  // an order of the owner's, for a product the friend put on sale
  const draft = await request(server.baseUrl, 'POST', '/api/v1/marketplace/products', {
    token: friend.accessToken,
    body: { title: 'Sold', price: 0, product_type: 'pack' },
  });
  expect(draft.status).toBe(201);
  const product = { id: draft.body.id as string };
  const onSale = await request(server.baseUrl, 'PUT', `/api/v1/marketplace/products/${product.id}`, {
    token: friend.accessToken,
    body: { status: 'active' },
  });
  expect(onSale.status).toBe(200);
  ids.product = product.id;
  const order = await request(server.baseUrl, 'POST', '/api/v1/marketplace/orders', {
    token: owner.accessToken,
    body: { items: [{ product_id: product.id }] },
  });
  expect(order.status).toBe(201);
  ids.order = order.body.id;
  // free, so completed at once: the owner may review it
  const review = await request(server.baseUrl, 'POST', `/api/v1/marketplace/products/${product.id}/reviews`, {
    token: owner.accessToken,
    body: { rating: 4 },
  });
  expect(review.status).toBe(201);
  otherParams.reviewId = review.body.id;
  // an item of gear of each visibility, the public one with a photo and on the public track
  for (const [object, isPublic] of [
    ['publicGear', true],
    ['privateGear', false],
  ] as const) {
    const made = await request(server.baseUrl, 'POST', '/api/v1/gear', {
      token: owner.accessToken,
      body: { category: 'synth', brand: 'Moog', model: 'Owned', is_public: isPublic },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.data.gear.id;
  }
  const photoForm = new FormData();
  const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  photoForm.append('file', new Blob([new Uint8Array(image)]), 'owned.png');
  const photo = await fetch(`${server.baseUrl}/api/v1/gear/${ids.publicGear}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.accessToken}` },
    body: photoForm,
  });
  expect(photo.status).toBe(201);
  otherParams.photoId = ((await photo.json()) as { data: { gear: { photos: { id: string }[] } } }).data.gear
    .photos[0]!.id;
  const linked = await request(server.baseUrl, 'PUT', `/api/v1/tracks/${ids.publicTrack}/gear`, {
    token: owner.accessToken,
    body: { gear_ids: [ids.publicGear, ids.privateGear] },
  });
  expect(linked.status).toBe(200);
  // the owner becomes a creator and teaches a published course and a draft, each with a lesson
  const upgraded = await request(server.baseUrl, 'POST', '/api/v1/users/me/upgrade-creator', {
    token: owner.accessToken,
  });
  expect(upgraded.status).toBe(200);
  for (const object of ['publishedCourse', 'draftCourse'] as const) {
    const made = await request(server.baseUrl, 'POST', '/api/v1/courses', {
      token: owner.accessToken,
      body: { title: `Owned ${object}` },
    });
    expect(made.status).toBe(201);
    ids[object] = made.body.data.course.id;
    const lesson = await request(server.baseUrl, 'POST', `/api/v1/courses/${ids[object]}/lessons`, {
      token: owner.accessToken,
      body: { title: 'Owned lesson', kind: 'text', body: 'the owner’s lesson' },
    });
    expect(lesson.status).toBe(201);
    if (object === 'publishedCourse') {
      otherParams.lessonId = lesson.body.data.lesson.id;
      const published = await request(server.baseUrl, 'PUT', `/api/v1/courses/${ids[object]}`, {
        token: owner.accessToken,
        body: { status: 'published' },
      });
      expect(published.status).toBe(200);
    }
  }
  // a cloud folder with a file in it
  const cloudFolder = await request(server.baseUrl, 'POST', '/api/v1/cloud/folders', {
    token: owner.accessToken,
    body: { name: 'Owned' },
  });
  expect(cloudFolder.status).toBe(201);
  ids.cloudFolder = cloudFolder.body.data.folder.id;
  const cloudForm = new FormData();
  cloudForm.append('folder_id', ids.cloudFolder);
  cloudForm.append('file', new Blob([new Uint8Array(Buffer.from('owned bytes'))]), 'owned.txt');
  const cloudFile = await fetch(`${server.baseUrl}/api/v1/cloud/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.accessToken}` },
    body: cloudForm,
  });
  expect(cloudFile.status).toBe(201);
  ids.cloudFile = ((await cloudFile.json()) as { data: { file: { id: string } } }).data.file.id;
  const versions = await request(server.baseUrl, 'GET', `/api/v1/cloud/files/${ids.cloudFile}/versions`, {
    token: owner.accessToken,
  });
  otherParams.versionId = versions.body.data.versions[0].id;
  // and a folder in the trash
  const trashed = await request(server.baseUrl, 'POST', '/api/v1/cloud/folders', {
    token: owner.accessToken,
    body: { name: 'Trashed' },
  });
  ids.cloudTrashed = trashed.body.data.folder.id;
  expect(
    (await request(server.baseUrl, 'DELETE', `/api/v1/cloud/folders/${ids.cloudTrashed}`, { token: owner.accessToken }))
      .status,
  ).toBe(200);
  // the completed order's notification, made by a job shortly after
  const deadline = Date.now() + 10_000;
  while (!ids.notification) {
    const inbox = await request(server.baseUrl, 'GET', '/api/v1/notifications', { token: owner.accessToken });
    ids.notification = inbox.body?.data?.notifications?.find(
      (note: { type: string }) => note.type === 'order_completed',
    )?.id;
    if (!ids.notification && Date.now() > deadline) throw new Error('no order_completed notification');
    if (!ids.notification) await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  await server?.close();
});

/** Everything the owner sees of their objects, to compare before and after. */
async function ownerView() {
  const as = (path: string) => request(server.baseUrl, 'GET', `/api/v1${path}`, { token: owner.accessToken });
  const stable = (reply: HttpReply) => ({ status: reply.status, data: reply.body?.data });
  const track = async (id: string) => {
    const reply = await as(`/tracks/${id}`);
    // counters and processing move on their own (the media jobs run): what another user could change is compared
    const { title, is_public, artist, album, genre, status: trackStatus, file_size } = reply.body?.data?.track ?? {};
    return { status: reply.status, track: { title, is_public, artist, album, genre, trackStatus, file_size } };
  };
  const profile = await as(`/users/${owner.id}`);
  const {
    updated_at: _updated,
    follower_count: _followers,
    ...profileData
  } = profile.body?.data?.profile ?? profile.body?.data?.user ?? {};
  return {
    publicTrack: await track(ids.publicTrack),
    privateTrack: await track(ids.privateTrack),
    lyrics: stable(await as(`/tracks/${ids.publicTrack}/lyrics`)),
    privateLyrics: stable(await as(`/tracks/${ids.privateTrack}/lyrics`)),
    session: stable(await as(`/tracks/resume/${ids.session}`)),
    quota: stable(await as('/tracks/quota/me')),
    profile: { status: profile.status, profileData },
    completion: stable(await as(`/users/${owner.id}/completion`)),
    comments: stable(await as(`/tracks/${ids.publicTrack}/comments`)),
    privateComments: stable(await as(`/tracks/${ids.privateTrack}/comments`)),
    replies: stable(await as(`/comments/${ids.comment}/replies`)),
    queue: await (async () => {
      const reply = await as('/queue');
      const queue = reply.body?.data?.queue ?? {};
      return {
        status: reply.status,
        version: queue.version,
        items: queue.items?.map((item: { id: string }) => item.id),
      };
    })(),
    playlists: await Promise.all(
      (['publicPlaylist', 'privatePlaylist'] as const).map(async (object) => {
        const reply = await as(`/playlists/${ids[object]}`);
        const { snapshot_id, title, is_public, follower_count, tracks, collaborators } =
          reply.body?.data?.playlist ?? {};
        return {
          status: reply.status,
          snapshot_id,
          title,
          is_public,
          follower_count,
          tracks: tracks?.map((entry: { track_id: string; position: number }) => [entry.track_id, entry.position]),
          collaborators: collaborators?.map((entry: { user_id: string; permission: string }) => [
            entry.user_id,
            entry.permission,
          ]),
        };
      }),
    ),
    // marketplace replies are not enveloped
    promoCodes: await as('/marketplace/promo-codes').then((reply) => ({ status: reply.status, body: reply.body })),
    apiKeys: await as('/developer/api-keys').then((reply) => ({
      status: reply.status,
      ids: reply.body?.data?.api_keys?.map((key: { id: string }) => key.id),
    })),
    appPasswords: await as('/users/me/app-passwords').then((reply) => ({
      status: reply.status,
      ids: reply.body?.data?.app_passwords?.map((entry: { id: string }) => entry.id),
    })),
    webhooks: await as('/webhooks').then((reply) => ({ status: reply.status, webhooks: reply.body?.data?.webhooks })),
    products: await Promise.all(
      (['activeProduct', 'draftProduct'] as const).map(async (object) => {
        const reply = await as(`/marketplace/products/${ids[object]}`);
        const { title, status, price, licenses, updated_at } = reply.body ?? {};
        return { status: reply.status, title, productStatus: status, price, licenses, updated_at };
      }),
    ),
    order: await (async () => {
      const reply = await as(`/marketplace/orders/${ids.order}`);
      return { status: reply.status, orderStatus: reply.body?.status, total: reply.body?.total_cents };
    })(),
    groups: await Promise.all(
      (['publicGroup', 'privateGroup'] as const).map(async (object) => {
        const reply = await as(`/groups/${ids[object]}`);
        const { name, description, owner_id, member_count, my_role } = reply.body?.data?.group ?? {};
        const members = await as(`/groups/${ids[object]}/members`);
        return {
          status: reply.status,
          name,
          description,
          owner_id,
          member_count,
          my_role,
          members: members.body?.data?.members?.map((m: { user: { id: string }; role: string }) => [m.user.id, m.role]),
        };
      }),
    ),
    groupPosts: await Promise.all(
      (['publicGroup', 'privateGroup'] as const).map(async (object) => {
        const reply = await as(`/groups/${ids[object]}/posts`);
        return {
          status: reply.status,
          posts: reply.body?.data?.posts?.map((p: { id: string; content: string; is_pinned: boolean }) => [
            p.id,
            p.content,
            p.is_pinned,
          ]),
        };
      }),
    ),
    groupInvites: await as('/groups/invites/mine').then((reply) => ({
      status: reply.status,
      ids: reply.body?.data?.invites?.map((invite: { id: string }) => invite.id),
    })),
    notifications: await as('/notifications').then((reply) => ({
      status: reply.status,
      ids: reply.body?.data?.notifications?.map((note: { id: string }) => note.id),
    })),
    reviews: await (async () => {
      const reply = await as(`/marketplace/products/${ids.product}/reviews`);
      return { status: reply.status, reviews: reply.body };
    })(),
    gear: stable(await as(`/users/${owner.id}/gear`)),
    trackGear: stable(await as(`/tracks/${ids.publicTrack}/gear`)),
    courses: stable(await as('/courses/teaching')),
    courseLessons: await Promise.all(
      (['publishedCourse', 'draftCourse'] as const).map(async (object) =>
        stable(await as(`/courses/${ids[object]}/lessons`)),
      ),
    ),
    cloudFolder: stable(await as(`/cloud/folders/${ids.cloudFolder}`)),
    cloudFile: stable(await as(`/cloud/files/${ids.cloudFile}`)),
    cloudVersions: stable(await as(`/cloud/files/${ids.cloudFile}/versions`)),
    cloudTrash: stable(await as('/cloud/trash')),
    queueSession: await (async () => {
      const reply = await as(`/queue/session/${ids.queueSession}`);
      const { items, is_playing, current_index, position_seconds } = reply.body?.data?.session ?? {};
      return {
        status: reply.status,
        items: items?.map((item: { id: string }) => item.id),
        is_playing,
        current_index,
        position_seconds,
      };
    })(),
  };
}

function pathFor(operation: Operation, object: Owned): string {
  let path = operation.route.path;
  const names = pathParamNames(operation.route);
  for (const name of names) {
    const track = name === 'id' && names.includes('comment_id') ? trackOf[object] : undefined;
    const group = name === 'id' && names.includes('post_id') ? groupOf[object] : undefined;
    const id = name === 'post_id' ? ids[object] : (otherParams[name] ?? ids[track ?? group ?? object]);
    path = path.replace(`:${name}`, id);
  }
  return path;
}

describe('owned objects refuse another signed-in user', () => {
  it('every contract route with a path id is classified (owner-only in the matrix, or meant for others)', () => {
    const unclassified = pathOperations
      .map((operation) => operation.id)
      .filter((id) => !(id in matrix) && !(id in notOwnerOnly));
    expect(unclassified).toEqual([]);
    expect(Object.keys(matrix).filter((id) => !pathOperations.some((operation) => operation.id === id))).toEqual([]);
  });

  it('every owner-only route answers the prescribed status in the envelope, and the owner’s objects are unchanged', async () => {
    const before = await ownerView();
    // the comparison below is over real data: the owner sees all of it
    expect(before.publicTrack.track).toMatchObject({ title: 'Owned', is_public: true });
    expect(before.privateTrack.track).toMatchObject({ title: 'Owned', is_public: false });
    expect(before.lyrics.data.lyrics).not.toBeNull();
    expect(before.session.status).toBe(200);
    expect(before.quota.data.quota.track_count).toBe(2);
    expect(before.profile.profileData).toMatchObject({ id: owner.id });
    expect(before.completion.status).toBe(200);
    expect(before.comments.data.comments).toHaveLength(1);
    expect(before.privateComments.data.comments).toHaveLength(1);
    expect(before.replies.data.replies).toHaveLength(1);
    expect(before.promoCodes.body).toHaveLength(1);
    expect(before.apiKeys.ids).toEqual([ids.apiKey]);
    expect(before.appPasswords.ids).toEqual([ids.appPassword]);
    expect(before.webhooks.webhooks.map((webhook: { id: string }) => webhook.id)).toEqual([ids.webhook]);
    expect(before.notifications.ids).toContain(ids.notification);
    expect(before.groups.map((group) => group.member_count)).toEqual([2, 2]);
    expect(before.groupInvites.ids).toEqual([ids.groupInvite]);
    expect(before.groupPosts.map((group) => group.posts?.length)).toEqual([1, 1]);
    expect(before.courses.data.courses).toHaveLength(2);
    expect(before.courseLessons.map((reply) => reply.data.lessons.length)).toEqual([1, 1]);
    const wrong: string[] = [];
    for (const operation of pathOperations.filter((candidate) => candidate.id in matrix)) {
      for (const testCase of matrix[operation.id]!) {
        const path = pathFor(operation, testCase.object) + (testCase.query ? `?${testCase.query}` : '');
        const body =
          testCase.body === undefined
            ? undefined
            : JSON.parse(
                JSON.stringify(testCase.body)
                  .replaceAll('PUBLIC_TRACK', ids.publicTrack)
                  .replaceAll('OTHER_USER', other.id)
                  .replaceAll('PUBLISHED_LESSON', otherParams.lessonId!),
              );
        const reply = await request(server.baseUrl, operation.route.method, path, {
          token: other.accessToken,
          ...(body !== undefined ? { body } : {}),
        });
        const code = reply.body?.error?.code;
        const expectedCode = testCase.status === 404 ? 'NOT_FOUND' : 'FORBIDDEN';
        if (reply.status !== testCase.status || code !== expectedCode) {
          wrong.push(
            `${operation.id} on the owner's ${testCase.object} (${operation.route.method} ${path}): ${reply.status} ${reply.text.slice(0, 160)}; expected ${testCase.status} ${expectedCode}`,
          );
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await ownerView()).toEqual(before);
  });

  it('another user’s chunk and complete on the owner’s upload session are 404, and the session is unchanged', async () => {
    const before = await ownerView();
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...sessionFields, chunk_number: 0 })) form.append(name, String(value));
    form.append('chunk', new Blob([new Uint8Array(Buffer.alloc(1000, 7))]), 'blob');
    const chunk = await uploadForm(server.baseUrl, other.accessToken, form, '/api/v1/tracks/chunk');
    expect([chunk.status, chunk.body?.error?.code]).toEqual([404, 'NOT_FOUND']);
    const complete = await request(server.baseUrl, 'POST', '/api/v1/tracks/complete', {
      token: other.accessToken,
      body: { upload_id: sessionFields.upload_id },
    });
    expect([complete.status, complete.body?.error?.code]).toEqual([404, 'NOT_FOUND']);
    const after = await ownerView();
    expect(after).toEqual(before);
    expect(after.session.data.chunks_received).toBe(0);
  });

  it('what another user may see stays readable to them (the refusals above are about ownership)', async () => {
    const reads: Array<[string, string]> = [
      ['tracks.get', `/api/v1/tracks/${ids.publicTrack}`],
      ['tracks.getLyrics', `/api/v1/tracks/${ids.publicTrack}/lyrics`],
      ['tracks.stream', `/api/v1/tracks/${ids.publicTrack}/stream`],
      ['users.get', `/api/v1/users/${owner.id}`],
      ['tracks.quota', `/api/v1/tracks/quota/${other.id}`],
      ['users.completion', `/api/v1/users/${other.id}/completion`],
      ['comments.list', `/api/v1/tracks/${ids.publicTrack}/comments`],
      ['comments.replies', `/api/v1/comments/${ids.comment}/replies`],
      ['playlists.get', `/api/v1/playlists/${ids.publicPlaylist}`],
      ['playlists.collaborators', `/api/v1/playlists/${ids.publicPlaylist}/collaborators`],
      ['marketplace.getProduct', `/api/v1/marketplace/products/${ids.activeProduct}`],
      ['groups.get', `/api/v1/groups/${ids.publicGroup}`],
      ['groups.members', `/api/v1/groups/${ids.publicGroup}/members`],
      ['gear.get', `/api/v1/gear/${ids.publicGear}`],
      ['gear.photo', `/api/v1/gear/${ids.publicGear}/photos/${otherParams.photoId}`],
      ['gear.userGear', `/api/v1/users/${owner.id}/gear`],
      ['gear.trackGear', `/api/v1/tracks/${ids.publicTrack}/gear`],
      ['courses.get', `/api/v1/courses/${ids.publishedCourse}`],
      ['courses.lessons', `/api/v1/courses/${ids.publishedCourse}/lessons`],
    ];
    const refused: string[] = [];
    for (const [id, path] of reads) {
      const reply = await request(server.baseUrl, 'GET', path, { token: other.accessToken });
      if (reply.status !== 200) refused.push(`${id} ${path}: ${reply.status} ${reply.text.slice(0, 160)}`);
    }
    expect(refused).toEqual([]);
  });
});

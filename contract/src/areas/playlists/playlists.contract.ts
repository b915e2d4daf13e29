import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { publicRoute, userRoute } from '../../common/route-meta.js';
import { FollowStateEnvelope } from '../users/users.schemas.js';
import { playlistLibraryContract } from './playlist-library.contract.js';
import {
  AddCollaboratorRequestSchema,
  AddPlaylistTrackRequestSchema,
  CollaboratorEnvelope,
  CollaboratorPageEnvelope,
  CreatePlaylistRequestSchema,
  DuplicatePlaylistRequestSchema,
  PLAYLIST_MAX_COLLABORATORS,
  PLAYLIST_MAX_TRACKS,
  PLAYLIST_TRACKS_PAGE_DEFAULT,
  PLAYLIST_TRACKS_PAGE_MAX,
  PLAYLISTS_PER_USER_MAX,
  PlaylistChangeEnvelope,
  PlaylistCollaboratorParamsSchema,
  PlaylistDetailQuerySchema,
  PlaylistEnvelope,
  PlaylistIfNoneMatchHeadersSchema,
  PlaylistIfMatchHeadersSchema,
  PlaylistListQuerySchema,
  PlaylistPageEnvelope,
  PlaylistShareEnvelope,
  PlaylistTokenParamsSchema,
  PlaylistTrackParamsSchema,
  ReorderTracksRequestSchema,
  SharePlaylistRequestSchema,
  UpdateCollaboratorRequestSchema,
  UpdatePlaylistRequestSchema,
} from './playlists.schemas.js';

const c = initContract();

const VISIBLE =
  ' A playlist is visible to its owner, its collaborators, and every signed-in user when public; otherwise 404. Tracks you ' +
  'may not see are left out of tracks and track_count (the others keep their positions).';
const VERSIONED =
  ' Changes the snapshot_id. With If-Match (the snapshot_id, bare or as the ETag) a stale value answers 412 ' +
  'PRECONDITION_FAILED and changes nothing. The reply carries the new ETag.';
const TRACK_EDITORS = ' The owner, or a collaborator with write or admin; a reader gets 403.';
const ADMINS = ' The owner, or a collaborator with admin; others who may see the playlist get 403.';

/** Playlists, their tracks, collaborators, share links, copies, followers and the favorites playlist. */
const playlistCore = {
  list: {
    method: 'GET',
    path: '/playlists',
    summary: 'List playlists',
    description:
      'Without user_id: your playlists and those you collaborate on, newest first. With it: that user’s playlists you may see. ' +
      'Lists carry track_count but no tracks or collaborators.',
    metadata: userRoute,
    query: PlaylistListQuerySchema,
    responses: { 200: PlaylistPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  create: {
    method: 'POST',
    path: '/playlists',
    summary: 'Create a playlist',
    description: `Private unless is_public is true. At most ${PLAYLISTS_PER_USER_MAX} playlists per user (400 LIMIT_REACHED).`,
    metadata: userRoute,
    body: CreatePlaylistRequestSchema,
    responses: { 201: PlaylistEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  favorites: {
    method: 'GET',
    path: '/playlists/favoris',
    summary: 'Your favorites playlist',
    description:
      'The playlist your likes fill (is_default_favorites, private, title "Favorites"), made empty on first read. Removing a ' +
      'track from it unlikes the track. Served with ETag (the snapshot_id, quoted) and Cache-Control: private, no-cache; ' +
      'If-None-Match with the current ETag answers 304.',
    metadata: userRoute,
    query: PlaylistDetailQuerySchema,
    headers: PlaylistIfNoneMatchHeadersSchema,
    responses: { 200: PlaylistEnvelope, 304: c.noBody(), ...errors(400, 401, 403) },
  },
  shared: {
    method: 'GET',
    path: '/playlists/shared/:token',
    summary: 'A playlist through its share link',
    description:
      'No authentication. Shows the playlist with its public tracks only; an unknown, revoked or expired token is 404.',
    metadata: publicRoute,
    pathParams: PlaylistTokenParamsSchema,
    query: PlaylistDetailQuerySchema,
    responses: { 200: PlaylistEnvelope, ...errors(400, 404) },
  },
  get: {
    method: 'GET',
    path: '/playlists/:id',
    summary: 'A playlist with its tracks and collaborators',
    description:
      `Tracks in position order, ${PLAYLIST_TRACKS_PAGE_DEFAULT} at a time by default: tracks_offset and tracks_limit (at most ` +
      `${PLAYLIST_TRACKS_PAGE_MAX}) page through a long playlist, track_count says how many there are. Served with ETag (the ` +
      'snapshot_id, quoted) and Cache-Control: private, no-cache; If-None-Match with the current ETag answers 304.' +
      VISIBLE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: PlaylistDetailQuerySchema,
    headers: PlaylistIfNoneMatchHeadersSchema,
    responses: { 200: PlaylistEnvelope, 304: c.noBody(), ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/playlists/:id',
    summary: 'Edit a playlist’s details',
    description:
      'Title, description, is_public: the owner or an admin collaborator. is_editorial: admins of the service only. user_id ' +
      'gives the playlist away: the owner only.' +
      ADMINS +
      VERSIONED,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    headers: PlaylistIfMatchHeadersSchema,
    body: UpdatePlaylistRequestSchema,
    responses: { 200: PlaylistEnvelope, ...errors(400, 401, 403, 404, 412, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/playlists/:id',
    summary: 'Delete a playlist',
    description:
      'The owner only (collaborators get 403). The favorites playlist cannot be deleted (400): unlike its tracks instead.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    headers: PlaylistIfMatchHeadersSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404, 412) },
  },
  addTrack: {
    method: 'POST',
    path: '/playlists/:id/tracks',
    summary: 'Add a track',
    description:
      'At position, or at the end. A track already in the playlist is 400 TRACK_ALREADY_IN_PLAYLIST; a track you may not ' +
      `see is 404; at most ${PLAYLIST_MAX_TRACKS} tracks (400 LIMIT_REACHED). Adding to your favorites playlist likes the track.` +
      TRACK_EDITORS +
      VERSIONED,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    headers: PlaylistIfMatchHeadersSchema,
    body: AddPlaylistTrackRequestSchema,
    responses: { 200: PlaylistChangeEnvelope, ...errors(400, 401, 403, 404, 412, 413, 415) },
  },
  removeTrack: {
    method: 'DELETE',
    path: '/playlists/:id/tracks/:trackId',
    summary: 'Remove a track',
    description:
      'The tracks after it move up one place. Removing a track from your favorites playlist unlikes it. A track not in the ' +
      'playlist is 404.' +
      TRACK_EDITORS +
      VERSIONED,
    metadata: userRoute,
    pathParams: PlaylistTrackParamsSchema,
    headers: PlaylistIfMatchHeadersSchema,
    body: c.noBody(),
    responses: { 200: PlaylistChangeEnvelope, ...errors(400, 401, 403, 404, 412) },
  },
  reorder: {
    method: 'PUT',
    path: '/playlists/:id/tracks/reorder',
    summary: 'Reorder the tracks',
    description:
      'track_ids is the complete new order: every track of the playlist exactly once, including those you may not see ' +
      '(400 otherwise).' +
      TRACK_EDITORS +
      VERSIONED,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    headers: PlaylistIfMatchHeadersSchema,
    body: ReorderTracksRequestSchema,
    responses: { 200: PlaylistChangeEnvelope, ...errors(400, 401, 403, 404, 412, 413, 415) },
  },
  addCollaborator: {
    method: 'POST',
    path: '/playlists/:id/collaborators',
    summary: 'Invite a collaborator',
    description:
      'read: see a private playlist; write: also add, remove and reorder tracks; admin: also edit details, manage ' +
      `collaborators and share. Not the owner, not someone already there (409 CONFLICT), not across a block (400); at most ` +
      `${PLAYLIST_MAX_COLLABORATORS} collaborators. The favorites playlist has none (400).` +
      ADMINS,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: AddCollaboratorRequestSchema,
    responses: { 201: CollaboratorEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  collaborators: {
    method: 'GET',
    path: '/playlists/:id/collaborators',
    summary: 'List collaborators',
    description: 'Oldest first. Anyone who may see the playlist.' + VISIBLE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: PlaylistListQuerySchema.pick({ page: true, limit: true }),
    responses: { 200: CollaboratorPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  updateCollaborator: {
    method: 'PUT',
    path: '/playlists/:id/collaborators/:userId',
    summary: 'Change a collaborator’s permission',
    description: 'A user who is not a collaborator is 404.' + ADMINS,
    metadata: userRoute,
    pathParams: PlaylistCollaboratorParamsSchema,
    body: UpdateCollaboratorRequestSchema,
    responses: { 200: CollaboratorEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removeCollaborator: {
    method: 'DELETE',
    path: '/playlists/:id/collaborators/:userId',
    summary: 'Remove a collaborator, or leave',
    description:
      'The owner or an admin collaborator removes anyone; every collaborator may remove themselves. A user who is not a collaborator is 404.',
    metadata: userRoute,
    pathParams: PlaylistCollaboratorParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  share: {
    method: 'POST',
    path: '/playlists/:id/share',
    summary: 'Make a share link',
    description:
      'Whoever holds the link sees the playlist and its public tracks, signed in or not (GET /playlists/shared/{token}). ' +
      'One link per playlist: a new one replaces the last. The favorites playlist cannot be shared (400).' +
      ADMINS,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: SharePlaylistRequestSchema,
    responses: { 200: PlaylistShareEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  revokeShare: {
    method: 'DELETE',
    path: '/playlists/:id/share',
    summary: 'Revoke the share link',
    description: 'The link stops working at once. Idempotent.' + ADMINS,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  duplicate: {
    method: 'POST',
    path: '/playlists/:id/duplicate',
    summary: 'Copy a playlist',
    description:
      'A private copy that you own, with the tracks you may see, in order. Counts toward your playlists.' + VISIBLE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: DuplicatePlaylistRequestSchema,
    responses: { 201: PlaylistEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  follow: {
    method: 'POST',
    path: '/playlists/:id/follow',
    summary: 'Follow a playlist',
    description: 'Public playlists only (a private one you may see is 400); not your own (400). Idempotent.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: FollowStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  unfollow: {
    method: 'DELETE',
    path: '/playlists/:id/follow',
    summary: 'Stop following a playlist',
    description: 'Idempotent; works even after the playlist became private.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: FollowStateEnvelope, ...errors(400, 401, 403, 404) },
  },
} as const;

/** The playlists area: the core routes and the library ones (import, export, search, recommendations, analytics). */
export const playlistsContract = c.router({ ...playlistLibraryContract, ...playlistCore });

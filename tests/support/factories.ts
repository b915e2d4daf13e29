import type { CreateGearRequest, CreateGroupRequest, Gear, Group, Track } from '@riff/contract';
import { signedInUser } from './accounts.js';
import { makeAudio, type AudioFormat } from './audio.js';
import type { TestServer } from './test-server.js';
import { expectStatus, typedApi, type TypedApi } from './typed-api.js';

/** A user as the tests hold them: who they are, how they sign in, and typed calls made as them. */
export interface TestUser {
  id: string;
  email: string;
  username: string;
  password: string;
  /** The bearer access token (the same as accessToken). */
  token: string;
  accessToken: string;
  refreshToken: string;
  /** Typed calls as this user (see typed-api.ts). */
  api: TypedApi;
}

export interface UserOverrides {
  email?: string;
  username?: string;
  password?: string;
}

/** A registered, verified and logged-in user (see signedInUser), with typed calls made as them. */
export async function createUser(server: TestServer, overrides: UserOverrides = {}): Promise<TestUser> {
  const user = await signedInUser(server, overrides);
  return { ...user, token: user.accessToken, api: typedApi(server, { token: user.accessToken }) };
}

export interface TrackOptions {
  /** Audio format of the generated file (default mp3). */
  format?: AudioFormat;
  /** Length of the generated tone (default 1 s). */
  seconds?: number;
  /** Sent as the title field; absent, the server reads the title from the file name or its tags. */
  title?: string;
  /** Default true, as the server's default. */
  isPublic?: boolean;
  /** File name sent (default `tone.<format>`). */
  filename?: string;
  /** Tags written into the file (the server reads them as metadata). */
  tags?: { title?: string; artist?: string; album?: string; genre?: string; year?: number };
}

/** Uploads a real (small, generated, cached) audio file as `owner` and returns the track as the reply shows it. */
export async function createTrack(
  server: TestServer,
  owner: { token: string },
  options: TrackOptions = {},
): Promise<Track> {
  const format = options.format ?? 'mp3';
  const bytes = await makeAudio(format, { seconds: options.seconds ?? 1, ...options.tags });
  const file = new File([new Uint8Array(bytes)], options.filename ?? `tone.${format}`);
  const reply = await typedApi(server, { token: owner.token }).tracks.upload({
    body: {
      file,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.isPublic !== undefined ? { is_public: options.isPublic ? 'true' : 'false' } : {}),
    },
  });
  return expectStatus(reply, 201).body.data.track;
}

/** A group made by `owner` through POST /groups (public and open unless told), as the reply shows it. */
export async function createGroup(
  server: TestServer,
  owner: { token: string },
  options: Partial<CreateGroupRequest> = {},
): Promise<Group> {
  const reply = await typedApi(server, { token: owner.token }).groups.create({
    body: {
      name: options.name ?? `Group ${Math.random().toString(36).slice(2, 10)}`,
      visibility: options.visibility ?? 'public',
      join_policy: options.join_policy ?? 'open',
      ...(options.description !== undefined ? { description: options.description } : {}),
    },
  });
  return expectStatus(reply, 201).body.data.group;
}

/** An item of gear of `owner`, made through POST /gear (a synth, public, unless overridden). */
export async function createGear(
  server: TestServer,
  owner: { token: string },
  fields: Partial<CreateGearRequest> = {},
): Promise<Gear> {
  const reply = await typedApi(server, { token: owner.token }).gear.create({
    body: { category: 'synth', brand: 'Moog', model: 'Subsequent 37', ...fields },
  });
  return expectStatus(reply, 201).body.data.gear;
}

import { Readable } from 'node:stream';
import type { CreateProductRequest, Product, Track } from '@riff/contract';
import { anonymousActor, userActor, type UserActor } from '../../server/src/platform/access/actor.js';
import { newIdentity } from './accounts.js';
import { makeAudio } from './audio.js';
import { tokenFromMail, waitForMail } from './mail.js';
import type { ServiceSuite } from './services.js';

/** A user of the service tier: the Actor services take, and how the account signs in. */
export type ServiceUser = UserActor & { email: string; username: string; password: string };

/**
 * A registered and verified account, made through the auth service as registration makes it (the
 * password hashed, the verification mail sent by the queue and its link followed), returned as the
 * Actor of a signed-in user.
 */
export async function serviceUser(
  suite: ServiceSuite,
  overrides: { email?: string; username?: string } = {},
): Promise<ServiceUser> {
  const identity = { ...newIdentity(), ...overrides };
  const { auth } = suite.areas.auth.services;
  const { user } = await auth.register(anonymousActor(), identity);
  await suite.platform.jobs.runDue();
  const mail = await waitForMail(suite.outboxDir, identity.email, 'verify-email');
  await auth.verifyEmail(anonymousActor(), tokenFromMail(mail));
  const account = await suite.areas.users.activeUser!(user.id);
  if (!account) throw new Error(`the account ${identity.email} is not active after verification`);
  return { ...userActor(account, 'bearer'), ...identity };
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
 * A public track of the owner's (a sine tone of `seconds`), uploaded through the uploads service as
 * the upload route hands it a form: the file streams in, is probed and stored.
 */
export async function serviceTrack(
  suite: ServiceSuite,
  owner: UserActor,
  options: { seconds?: number; title?: string } = {},
): Promise<Track> {
  const bytes = await makeAudio('mp3', { seconds: options.seconds ?? 3 });
  const { uploads } = suite.areas.tracks.services;
  const { track } = await uploads.upload(owner, {
    declaredBytes: bytes.length,
    receive: async (_maxBytes, onFile) => ({
      fields: { title: options.title ?? 'Service tone', is_public: true },
      file: await onFile(Readable.from([bytes]), { filename: 'tone.mp3' }),
    }),
  });
  return track;
}

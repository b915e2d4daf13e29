import { createHash } from 'node:crypto';
import {
  APP_PASSWORD_LENGTH,
  APP_PASSWORDS_PER_USER_MAX,
  type AppPassword,
  type CreateAppPasswordRequest,
  type CreatedAppPassword,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { SecretBox } from '../../platform/auth/secret-box.js';
import { constantTimeEqualText, randomBase62 } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { toAppPasswordDto } from './app-passwords.mapper.js';
import { canManageAppPassword } from './app-passwords.policy.js';
import type { AppPasswordRow, AppPasswordsRepository } from './app-passwords.repository.js';

const MINUTE_MS = 60_000;

/** What a Subsonic app sent to prove it knows a password: the password itself (`p`), or md5(password + salt) (`t`, `s`). */
export type PasswordProof = { kind: 'clear'; password: string } | { kind: 'token'; token: string; salt: string };

export interface AppPasswordsServiceDeps {
  scope: DbScope;
  passwords: AppPasswordsRepository;
  /** Seals the passwords at rest under the `app-password` key: token sign-in needs them back in clear. */
  box: SecretBox;
  events: EventBus;
  clock: Clock;
  /** The users area's account lock (PeopleReader.lockAccount), held until the transaction ends. */
  people: { lockAccount(userId: string): Promise<void> };
}

const md5Hex = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The password in clear; undefined when it no longer opens (sealed under a SECRET_KEY since replaced): it matches nothing. */
function openSealed(box: SecretBox, sealed: string): string | undefined {
  try {
    return box.open(sealed);
  } catch {
    return undefined;
  }
}

/** Creating, listing and revoking a user's app passwords, and checking one when a Subsonic app signs in. */
export class AppPasswordsService {
  constructor(private readonly deps: AppPasswordsServiceDeps) {}

  async list(actor: UserActor): Promise<{ app_passwords: AppPassword[] }> {
    return { app_passwords: (await this.deps.passwords.listOfUser(actor.id)).map(toAppPasswordDto) };
  }

  async create(actor: UserActor, body: CreateAppPasswordRequest): Promise<CreatedAppPassword> {
    const { scope, passwords, box, events, people } = this.deps;
    // letters and digits only: it is typed into a phone, and needs no escaping in a URL's `p`
    const password = randomBase62(APP_PASSWORD_LENGTH);
    const row = await scope.transaction(async () => {
      // the owner's account row is held until commit, so two creations cannot both take the last place
      await people.lockAccount(actor.id);
      if ((await passwords.countOfUser(actor.id)) >= APP_PASSWORDS_PER_USER_MAX) {
        throw limitReached(`At most ${APP_PASSWORDS_PER_USER_MAX} app passwords per user: revoke one first`);
      }
      const created = await passwords.insert({
        user_id: actor.id,
        name: body.name,
        password_sealed: box.seal(password),
      });
      await events.record(actor, 'app_password.created', {
        subject: { resource: 'app_password', id: created.id },
        data: { name: created.name },
      });
      return created;
    });
    return { app_password: toAppPasswordDto(row), password };
  }

  async revoke(actor: UserActor, id: string): Promise<{ message: string }> {
    const { scope, passwords, events } = this.deps;
    await scope.transaction(async () => {
      const row = await passwords.find(id);
      if (!row || !canManageAppPassword(actor, row)) throw notFound('App password');
      await passwords.remove(id);
      await events.record(actor, 'app_password.revoked', {
        subject: { resource: 'app_password', id },
        data: { name: row.name },
      });
    });
    return { message: 'App password revoked' };
  }

  /**
   * The app password of this user that the proof matches, else undefined; its use is recorded at
   * most once a minute. Every password of the user is tried (a user holds a handful), and each
   * comparison takes the same time whatever the bytes.
   */
  async check(userId: string, proof: PasswordProof): Promise<AppPasswordRow | undefined> {
    const { passwords, box, clock } = this.deps;
    const rows = await passwords.listOfUser(userId);
    const matches = (row: AppPasswordRow) => {
      const clear = openSealed(box, row.password_sealed);
      if (clear === undefined) return false;
      return proof.kind === 'clear'
        ? constantTimeEqualText(clear, proof.password)
        : constantTimeEqualText(md5Hex(clear + proof.salt), proof.token.toLowerCase());
    };
    const found = rows.find(matches);
    if (!found) return undefined;
    const now = clock.now();
    const since = new Date(now.getTime() - MINUTE_MS);
    if (found.last_used_at === null || found.last_used_at < since) await passwords.touch(found.id, now, since);
    return found;
  }

  async exportFor(owner: UserActor): Promise<{ app_passwords: AppPassword[] }> {
    return this.list(owner);
  }

  /** An erased account's app passwords go with it (they could only ever sign in as that account). */
  async eraseFor(owner: UserActor): Promise<{ removed_app_passwords: number }> {
    return { removed_app_passwords: await this.deps.passwords.removeOfUser(owner.id) };
  }
}

import type { UserExport } from '@riff/contract';
import type { UserActor } from '../access/actor.js';

export interface ErasureOptions {
  /** DeleteAccountRequest.keep_public_tracks: public tracks stay, credited to the anonymized account. */
  keepPublicTracks: boolean;
}

/**
 * What an area holds of a user's account, asked for by the account's owner: its part of the
 * data export, and erasure when the account is deleted. Each module that stores personal data
 * returns one, so the users area never names the others.
 */
export interface AccountData {
  /** The keys of the export this area fills. */
  export?(owner: UserActor): Promise<Partial<UserExport>>;
  /**
   * Removes what this area holds of the user, in the deletion's unit of work (files in storage
   * go at once). Returns counts worth recording (e.g. `{ removed_tracks: 3 }`).
   */
  erase?(owner: UserActor, options: ErasureOptions): Promise<Record<string, number> | void>;
}

/** Every module's AccountData, asked in module order. */
export interface AccountDirectory {
  export(owner: UserActor): Promise<Partial<UserExport>>;
  erase(owner: UserActor, options: ErasureOptions): Promise<Record<string, number>>;
}

/** The directory is handed out before the modules exist; they join it once built. */
export function createAccountDirectory(): AccountDirectory & { join(part: AccountData): void } {
  const parts: AccountData[] = [];
  return {
    join: (part) => void parts.push(part),
    async export(owner) {
      const document: Partial<UserExport> = {};
      for (const part of parts) if (part.export) Object.assign(document, await part.export(owner));
      return document;
    },
    async erase(owner, options) {
      const counts: Record<string, number> = {};
      for (const part of parts) if (part.erase) Object.assign(counts, (await part.erase(owner, options)) ?? {});
      return counts;
    },
  };
}

/**
 * Whether this browser holds a session the refresh cookie can renew. The cookie is HttpOnly, so
 * script cannot see it: without this hint a first visit (no session at all) would send a refresh
 * that can only be refused (a 400 in the console, and onSessionExpired for a session that never was).
 * Set after a login or refresh, cleared after a logout or a refused refresh.
 */
export interface SessionHint {
  get(): boolean | Promise<boolean>;
  set(present: boolean): void | Promise<void>;
}

export function memorySessionHint(initial = false): SessionHint {
  let present = initial;
  return {
    get: () => present,
    set: (value) => {
      present = value;
    },
  };
}

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Kept in localStorage (shared by the tabs of the origin, kept across reloads). Only a flag: no token is stored. */
export function storageSessionHint(storage: StorageLike, key = 'riff.session'): SessionHint {
  return {
    get: () => {
      try {
        return storage.getItem(key) === '1';
      } catch {
        return false;
      }
    },
    set: (present) => {
      try {
        if (present) storage.setItem(key, '1');
        else storage.removeItem(key);
      } catch {
        // storage full or refused (private mode): the hint is only an optimisation
      }
    },
  };
}

/** localStorage where there is one (browsers), else memory. */
export function defaultSessionHint(): SessionHint {
  const storage = (globalThis as { localStorage?: StorageLike }).localStorage;
  return storage ? storageSessionHint(storage) : memorySessionHint();
}

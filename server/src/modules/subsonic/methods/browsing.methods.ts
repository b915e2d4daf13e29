import { method, type SubsonicMethod } from '../rest-methods.js';

/** Riff's whole catalogue is one library: the one music folder apps show (its id is an int in the XSD). */
export const MUSIC_FOLDER = { id: 1, name: 'Riff' } as const;

/** Browsing: getMusicFolders (the catalogue's methods join this group in the next step). */
export function browsingMethods(): SubsonicMethod[] {
  return [
    method({
      name: 'getMusicFolders',
      needs: 'read',
      handle: async () => ({ musicFolders: { musicFolder: [{ ...MUSIC_FOLDER }] } }),
    }),
  ];
}

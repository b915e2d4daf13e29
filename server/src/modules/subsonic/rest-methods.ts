import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { SubsonicParams } from './rest-params.js';
import type { SubsonicNode } from './rest-serializer.js';

/**
 * What a method asks of the caller: `read` for one that only reads, `write` for one that changes
 * something (an API key needs that scope, or admin); `none` for one that answers without credentials
 * (getOpenSubsonicExtensions, which OpenSubsonic requires to be public).
 */
export type MethodNeeds = 'none' | 'read' | 'write';

export interface MethodContext<N extends MethodNeeds = MethodNeeds> {
  /** The caller, signed in for every method but a `none` one (anonymous there unless they signed in anyway). */
  actor: N extends 'none' ? Actor : UserActor;
  params: SubsonicParams;
  /** `c`: the app's own name (empty for a `none` method that was not told). */
  client: string;
  /**
   * The HTTP exchange, for a method that answers with bytes rather than a subsonic-response (stream,
   * download, getCoverArt): it writes the reply itself and returns REPLIED. A SubsonicError it throws
   * before writing becomes the usual error reply.
   */
  http: { req: IncomingMessage; res: ServerResponse };
}

/** Returned by a method that wrote its own reply through `http`. */
export const REPLIED: unique symbol = Symbol('replied');

/** The elements a method adds to subsonic-response (e.g. `{ license: { valid: true } }`; `{}` for none), or REPLIED. */
export type MethodReply = SubsonicNode | typeof REPLIED;

export interface SubsonicMethod<N extends MethodNeeds = MethodNeeds> {
  /** The name apps call it by, as Subsonic spells it (`getAlbumList2`); matched in any case, with or without `.view`. */
  name: string;
  needs: N;
  handle(context: MethodContext<N>): Promise<MethodReply>;
}

/** A method, its context typed by what it needs (a signed-in caller unless `none`). */
export function method<N extends MethodNeeds>(definition: SubsonicMethod<N>): SubsonicMethod {
  return definition as unknown as SubsonicMethod;
}

/**
 * Every method the interface serves, from the groups' files (one file per group of the OpenSubsonic
 * documentation: system, browsing, user management …). A later step adds a group's file to the list
 * the module passes here; nothing else changes.
 */
export class MethodRegistry {
  private readonly byName = new Map<string, SubsonicMethod>();

  constructor(groups: readonly (readonly SubsonicMethod[])[]) {
    for (const entry of groups.flat()) {
      const key = entry.name.toLowerCase();
      if (this.byName.has(key)) throw new Error(`Subsonic method ${entry.name} is defined twice`);
      this.byName.set(key, entry);
    }
  }

  find(name: string): SubsonicMethod | undefined {
    return this.byName.get(name.toLowerCase());
  }

  /** The names served, as defined (for docs and tests). */
  names(): string[] {
    return [...this.byName.values()].map((entry) => entry.name);
  }
}

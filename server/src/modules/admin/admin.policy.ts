import type { Actor } from '../../platform/access/actor.js';

/**
 * Who may do what here. The routes' metadata refuses others before a route runs; the service asks
 * again, so that a caller other than the routes (a test, a script) meets the same rule.
 */
export const canReadAccounts = (actor: Actor): boolean => actor.isStaff;
export const canAdminister = (actor: Actor): boolean => actor.isAdmin;

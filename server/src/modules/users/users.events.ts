// The users area's domain events: each becomes an audit entry (resource = its subject).
type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'user.updated': { fields: string[] };
    /** Other areas react in the same transaction (auth signs the account out everywhere). */
    'user.deactivated': Nothing;
    'user.deleted': { reason: string | null; keep_public_tracks: boolean } & Record<
      string,
      number | string | boolean | null
    >;
    'user.followed': Nothing;
    'user.unfollowed': Nothing;
    'user.blocked': Nothing;
    'user.unblocked': Nothing;
    'user.upgraded_to_creator': Nothing;
    'user.privacy_opt_out': Nothing;
    'user.preferences_updated': { sections: string[] };
    'user.data_exported': Nothing;
    /** cli: npm run make-admin; admin_emails: a verified address listed in ADMIN_EMAILS. */
    'user.admin_granted': { by: 'cli' | 'admin_emails' };
    'user.admin_revoked': { by: 'cli' };
  }
}

export {};

// The auth area's domain events: each becomes an audit entry (resource = its subject).
type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'auth.register': Nothing;
    'auth.login': Nothing;
    'auth.login_failed': { reason: 'invalid_credentials' };
    'auth.logout': Nothing;
    'auth.refresh_reuse_detected': Nothing;
    'auth.verification_resent': Nothing;
    'auth.email_verified': Nothing;
    'auth.password_reset_requested': Nothing;
    'auth.password_reset': Nothing;
    'auth.password_change_failed': Nothing;
    'auth.password_changed': { kept_current_session: boolean };
    'auth.2fa_enabled': Nothing;
    'auth.2fa_disabled': Nothing;
    'auth.2fa_login_failed': Nothing;
  }
}

export {};

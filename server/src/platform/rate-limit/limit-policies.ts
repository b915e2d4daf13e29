import type { Limiter, LimiterOptions, RateLimits } from './rate-limiter.js';

const MINUTE = 60;

/**
 * Every named limit and its numbers, in one place: a number changes here and nowhere else. The request
 * ceiling per address comes from RATE_LIMIT_PER_MINUTE.
 */
export const LIMIT_POLICIES = {
  /** Failed logins per account: 5 in 15 minutes, then 15 minutes locked. */
  'login-account': { points: 5, durationSeconds: 15 * MINUTE, blockSeconds: 15 * MINUTE },
  /** Failed logins per address: 100 an hour, then 15 minutes locked. */
  'login-address': { points: 100, durationSeconds: 60 * MINUTE, blockSeconds: 15 * MINUTE },
  /** Wrong two-factor codes per account: 5 in 15 minutes. */
  '2fa-failures': { points: 5, durationSeconds: 15 * MINUTE, blockSeconds: 15 * MINUTE },
  /** One verification mail a minute per address. */
  'verification-mail': { points: 1, durationSeconds: MINUTE },
  /** One password-reset mail a minute per address. */
  'reset-mail': { points: 1, durationSeconds: MINUTE },
  /** Plays reported per listener (user, else address and user agent): each one is a stored row. */
  plays: { points: 120, durationSeconds: MINUTE },
  /** Shares per caller (user, else address): each one is a stored row. */
  shares: { points: 30, durationSeconds: MINUTE },
  /** Comments (and replies) created per user: 10 a minute; refused ones are given back. */
  'comments-created': { points: 10, durationSeconds: MINUTE },
  /** Posts (and replies) per member per group: 30 an hour; refused ones are given back. */
  'group-posts-created': { points: 30, durationSeconds: 60 * MINUTE },
  /** Join requests per user: 20 an hour (each one notifies a group's owner and admins); refused ones are given back. */
  'group-join-requests': { points: 20, durationSeconds: 60 * MINUTE },
  /** Group invites sent per user: 100 an hour (each one waits in the invitee's list); refused ones are given back. */
  'group-invites': { points: 100, durationSeconds: 60 * MINUTE },
  /** Marketplace products created per seller: 30 a minute; refused ones are given back. */
  'products-created': { points: 30, durationSeconds: MINUTE },
  /** Frontend log entries per address: 60 a minute (each one is a log line). */
  'frontend-logs': { points: 60, durationSeconds: MINUTE },
  /** Product media uploads (images, previews, files) per seller: 60 a minute; refused ones are given back. */
  'product-uploads': { points: 60, durationSeconds: MINUTE },
  /**
   * Failed Subsonic sign-ins per username and address: after 10 in 15 minutes every attempt fails
   * (error 40) until the window has passed, so an app password cannot be guessed through /rest/.
   */
  'subsonic-sign-in': { points: 10, durationSeconds: 15 * MINUTE },
} as const satisfies Record<string, LimiterOptions>;

export type LimitPolicy = keyof typeof LIMIT_POLICIES;

export const requestCeiling = (perMinute: number): LimiterOptions => ({ points: perMinute, durationSeconds: MINUTE });

/** The limiter of a named policy. Create each once: in memory, two limiters of one name count apart. */
export function policyLimiter(limits: RateLimits, name: LimitPolicy): Limiter {
  return limits.create(name, LIMIT_POLICIES[name]);
}

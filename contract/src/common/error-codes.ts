/**
 * Stable machine-readable error codes, with the HTTP status
 * each one is sent with. A code is never reused for another meaning.
 */
export const ERROR_CODES = {
  VALIDATION_FAILED: 400,
  INVALID_ID: 400,
  INVALID_TOKEN: 400,
  BAD_REQUEST: 400,
  INVALID_CODE: 400,
  INVALID_PASSWORD: 400,
  INVALID_AUDIO: 400,
  INVALID_IMAGE: 400,
  UPLOAD_INCOMPLETE: 400,
  SIZE_MISMATCH: 400,
  LIMIT_REACHED: 400,
  /** Adding a track that is already in the playlist. */
  TRACK_ALREADY_IN_PLAYLIST: 400,
  /** A status move a resource does not allow (such as a product's archived → draft). */
  INVALID_TRANSITION: 400,
  /** An unknown, expired or used-up promo code. */
  INVALID_PROMO_CODE: 400,
  /** A buyer's refund after refund_deadline. */
  REFUND_WINDOW_CLOSED: 400,
  /** A counter-notice to a copyright claim after its deadline. */
  COUNTER_WINDOW_CLOSED: 400,
  /** A webhook URL that is not absolute https, carries credentials, or leads to a private address. */
  INVALID_WEBHOOK_URL: 400,
  /** A test event to a webhook that is not active. */
  WEBHOOK_INACTIVE: 400,
  TWO_FACTOR_ALREADY_ENABLED: 400,
  TWO_FACTOR_NOT_ENABLED: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  EMAIL_NOT_VERIFIED: 401,
  ACCOUNT_DISABLED: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_REUSED: 401,
  /** A suspended account signing in or refreshing; `details` carries the end (until, null when only an admin lifts it). */
  ACCOUNT_SUSPENDED: 401,
  ACCOUNT_BANNED: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  QUOTA_EXCEEDED: 403,
  NO_LICENSE: 403,
  /** A lesson's content, progress or a review asked by someone not enrolled in the course. */
  NOT_ENROLLED: 403,
  /** Enrolling directly in a paid course: it is bought through the marketplace. */
  PURCHASE_REQUIRED: 403,
  /** A review of a course by a learner who completed less than the share of it a review needs. */
  NOT_ENOUGH_PROGRESS: 403,
  /** A certificate asked by a learner who has not completed the course. */
  NOT_COMPLETED: 403,
  /** Registration is closed by an admin (the platform's settings). */
  REGISTRATION_CLOSED: 403,
  /** Uploads are turned off, for everyone (the platform's settings) or for this account. */
  UPLOADS_DISABLED: 403,
  NOT_FOUND: 404,
  MEDIA_NOT_READY: 404,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  /** A file or folder of that name is already in the folder (names compared case-insensitively). */
  NAME_TAKEN: 409,
  /** A write with If-Match whose version is stale (the queue, playlists): the writer read an older state. */
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;
/** The codes as a list, in declaration order (derived: add a code to ERROR_CODES only). */
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
export type ErrorStatus = (typeof ERROR_CODES)[ErrorCode];

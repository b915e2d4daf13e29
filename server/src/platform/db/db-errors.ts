/** PostgreSQL's unique_violation: a concurrent request took the same unique value first. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** PostgreSQL's foreign_key_violation: the row referred to is gone. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23503';

/** Socket-level failures reaching the database server (the code Node gives a refused or cut connection). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** PostgreSQL SQLSTATEs meaning the server is going away or not accepting work yet. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What pg says when a connection drops or cannot be made in time (these errors carry no code). */
const UNREACHABLE_MESSAGE =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection refused|the database system is (starting up|shutting down)/i;

/**
 * Whether an error means the database cannot be reached right now (refused, dropped, shutting down,
 * starting up): a temporary condition to answer 503 for and retry, not a bug.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const { code, message, errors, cause } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (
    typeof code === 'string' &&
    (UNREACHABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08'))
  )
    return true;
  if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message)) return true;
  // Node reports a refused connection to several addresses as an AggregateError
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

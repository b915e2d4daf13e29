/** PostgreSQL's unique_violation: a concurrent request took the same unique value first. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';

/** PostgreSQL's foreign_key_violation: the row referred to is gone. */
export const isForeignKeyViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23503';

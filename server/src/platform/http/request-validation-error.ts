import type { ZodError } from 'zod';

/** A request the contract refuses: the zod errors of its path values, headers, query and body. */
export class RequestValidationError extends Error {
  constructor(
    readonly pathParams: ZodError | null,
    readonly headers: ZodError | null,
    readonly query: ZodError | null,
    readonly body: ZodError | null,
  ) {
    super('request validation failed');
  }
}

import type { RiffRequest, RiffResponse } from './http-exchange.js';

export type Next = (error?: unknown) => void;
/** A connect-style middleware on Riff's request and response. */
export type Middleware = (req: RiffRequest, res: RiffResponse, next: Next) => unknown;

/**
 * Runs middleware in order; `done` is called once, with the first error or after the last one
 * called next(). A middleware that answers itself (a CORS preflight) simply never calls next.
 */
export function runChain(chain: readonly Middleware[], req: RiffRequest, res: RiffResponse, done: Next): void {
  let index = 0;
  const next: Next = (error) => {
    if ((error !== undefined && error !== null) || index === chain.length) return done(error ?? undefined);
    const middleware = chain[index++]!;
    try {
      const result = middleware(req, res, next);
      if (result instanceof Promise) result.catch(next);
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}

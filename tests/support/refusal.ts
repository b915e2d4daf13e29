import { AppError } from '../../server/src/platform/errors/app-error.js';

/** The AppError a call is refused with (fails the test when the call succeeds or throws anything else). */
export async function refusal(call: Promise<unknown>): Promise<{ code: string; status: number; fields: string[] }> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { code: error.code, status: error.status, fields: (error.details ?? []).map((issue) => issue.field) };
}

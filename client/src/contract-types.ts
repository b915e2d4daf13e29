/**
 * Everything of the contract a user of the client sees: its types (the models, ErrorCode, one
 * typed function per operation with its replies by status) and the live channel's schemas. The
 * other modules of the client take these from here, never from @riff/contract, because the
 * published declaration of this one module is generated flat (client/scripts/emit-declarations.mjs):
 * named plain types instead of zod's inferred ones, so an app type-checks without loading the
 * contract's declarations (11 MB of them).
 */
import type { ApiFetcher, ClientInferRequest, InitClientReturn } from '@ts-rest/core';
import type { RiffContract } from '@riff/contract';

export type * from '@riff/contract';
export { LIVE_CLOSE_CODES, LiveClientMessageSchema, LiveServerMessageSchema } from '@riff/contract';
export { ResponseValidationError, UnknownStatusError } from '@ts-rest/core';

/** One typed function per contract route: `client.auth.me()`, `client.auth.checkUsername({ query })`. */
export type RiffApi = InitClientReturn<
  RiffContract,
  { baseUrl: string; validateResponse: boolean; throwOnUnknownStatus: true; api: ApiFetcher }
>;

export type LoginBody = ClientInferRequest<RiffContract['auth']['login']>['body'];
export type TwoFactorLoginBody = ClientInferRequest<RiffContract['auth']['loginTwoFactor']>['body'];
export type LoginReply = Awaited<ReturnType<RiffApi['auth']['login']>>;
export type LogoutReply = Awaited<ReturnType<RiffApi['auth']['logout']>>;

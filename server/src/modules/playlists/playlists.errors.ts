import { AppError } from '../../platform/errors/app-error.js';

export const limitReached = (message: string) => new AppError('LIMIT_REACHED', message);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);

import { AppError } from '../../platform/errors/app-error.js';
import type { UserRow } from '../users/users.tables.js';

/**
 * Why a banned or suspended account may not sign in or refresh, or undefined when it may. A
 * suspension whose end has passed no longer counts (the caller clears it). The end of a suspension
 * is in details (field `until`: its time, or empty for one that only an admin lifts).
 */
export function sanctionRefusal(user: Pick<UserRow, 'is_banned' | 'suspended_at' | 'suspended_until'>, now: Date) {
  if (user.is_banned) return new AppError('ACCOUNT_BANNED', 'This account is banned');
  if (!user.suspended_at || (user.suspended_until && user.suspended_until <= now)) return undefined;
  const until = user.suspended_until?.toISOString() ?? '';
  return new AppError(
    'ACCOUNT_SUSPENDED',
    until ? `This account is suspended until ${until}` : 'This account is suspended until an admin lifts it',
    {
      details: [
        { field: 'until', message: until ? 'the suspension ends then' : 'until an admin lifts it', value: until },
      ],
    },
  );
}

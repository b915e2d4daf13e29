import type { AppPassword } from '@riff/contract';
import type { AppPasswordRow } from './app-passwords.repository.js';

/** Never the password: it is shown once, in the creation's reply. */
export const toAppPasswordDto = (row: AppPasswordRow): AppPassword => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

import { CLOUD_MAX_DEPTH, CloudNameSchema } from '@riff/contract';
import { AppError, fieldIssue, limitReached, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { CloudRepository } from './cloud.repository.js';

export const nameTaken = () =>
  new AppError('NAME_TAKEN', 'A file or folder of that name is already in this folder (names ignore case)');
export const folderNotFound = () => notFound('Folder');
export const fileNotFound = () => notFound('File');
export const tooDeep = () => limitReached(`Folders nest at most ${CLOUD_MAX_DEPTH} levels deep`);

/** Names are compared in lower case. */
export const nameKey = (name: string) => name.toLowerCase();

/** A name as the rules allow it (a client's file name too): 400 VALIDATION_FAILED otherwise. */
export function checkedName(name: string, field = 'name'): string {
  const parsed = CloudNameSchema.safeParse(name);
  if (!parsed.success) {
    throw validationFailed(
      'The name is not allowed',
      parsed.error.issues.map((issue) => fieldIssue(field, issue.message, name)),
    );
  }
  return parsed.data;
}

/**
 * The checks of a new entry in a folder (null: the top), under the account lock: the folder is the
 * owner's and not in the trash (404), it has room (400 LIMIT_REACHED) and the name is free (409).
 */
export async function assertRoomFor(
  repo: CloudRepository,
  ownerId: string,
  parentId: string | null,
  name: string,
  maxItems: number,
  exceptId?: string,
): Promise<void> {
  if (parentId !== null && !(await repo.folder(ownerId, parentId))) throw folderNotFound();
  if (exceptId === undefined) {
    const { folders, files } = await repo.counts(ownerId, parentId);
    if (folders + files >= maxItems) throw limitReached(`A folder holds at most ${maxItems} files and folders`);
  }
  if (await repo.nameTaken(ownerId, parentId, nameKey(name), exceptId)) throw nameTaken();
}

import { CloudAccountData } from './cloud-account-data.js';
import './cloud.events.js';
import './cloud.jobs.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { UploadAllowance } from '../tracks/upload-pipeline.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CloudFilesService } from './cloud-files.service.js';
import { CloudFoldersService } from './cloud-folders.service.js';
import { CloudObjects } from './cloud-objects.js';
import { CloudTrashRepository } from './cloud-trash.repository.js';
import { CloudTrashService } from './cloud-trash.service.js';
import { CloudRepository } from './cloud.repository.js';
import { cloudRoutes } from './cloud.routes.js';

export interface CloudModuleDeps {
  /** The users area's account lock: one account's cloud changes and quota decisions run one at a time. */
  people: Pick<PeopleReader, 'lockAccount'>;
  /** The tracks area's quota port: the space left, shared with tracks. */
  quota: {
    allowed(userId: string): Promise<UploadAllowance>;
    room(userId: string, quotaBytes: number): Promise<number>;
  };
}

export type CloudModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { folders: CloudFoldersService; files: CloudFilesService; trash: CloudTrashService };
  /** For the quota (tracks area): the bytes an account's cloud holds, versions and trash included. */
  usage: { bytesOf(userId: string): Promise<number> };
};

/** Cloud: a musician's file storage, sharing the upload quota with tracks. */
export function createCloudModule(platform: Platform, deps: CloudModuleDeps): CloudModule {
  const { scope, events, storage, clock, logger, config } = platform;
  const cloud = new CloudRepository(scope);
  const trash = new CloudTrashRepository(scope);
  const objects = new CloudObjects({ scope, cloud, storage, logger });
  const limits = { maxFileBytes: config.cloud.maxFileBytes, folderMaxItems: config.cloud.folderMaxItems };
  const services = {
    folders: new CloudFoldersService({ scope, events, cloud, people: deps.people, limits }),
    files: new CloudFilesService({
      scope,
      events,
      cloud,
      trash,
      objects,
      storage,
      clock,
      logger,
      people: deps.people,
      quota: deps.quota,
      limits,
    }),
    trash: new CloudTrashService({ scope, events, clock, cloud, trash, objects, people: deps.people }),
  };
  const accountData = new CloudAccountData({ scope, cloud, objects });
  return {
    name: 'cloud',
    routes: { cloud: cloudRoutes(services) },
    services,
    accountData: {
      export: (owner) => accountData.exportFor(owner),
      erase: (owner) => accountData.eraseFor(owner),
    },
    usage: { bytesOf: (userId) => cloud.bytesOf(userId) },
    jobs: [
      {
        name: 'cloud.cleanup',
        retryLimit: 0,
        everyMs: config.cleanupIntervalMs,
        handle: () => services.files.cleanup(),
      },
      { name: 'cloud.purge-trash', retryLimit: 0, everyMs: 60 * 60_000, handle: () => services.trash.purgeExpired() },
    ],
  };
}

import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { AuditRepository } from './audit.repository.js';
import { auditRoutes } from './audit.routes.js';
import { AuditService } from './audit.service.js';

export type AuditModule = RiffModule & { recorder: AuditRepository };

/** The audit log: written from domain events, read by its owner (and admins). */
export function createAuditModule(platform: Platform): AuditModule {
  const audit = new AuditRepository(platform.database.db);
  return { name: 'audit', routes: { audit: auditRoutes(new AuditService(audit)) }, recorder: audit };
}

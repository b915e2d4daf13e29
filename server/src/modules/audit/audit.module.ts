import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { auditTrail } from './audit.events.js';
import { AuditRepository } from './audit.repository.js';
import { auditRoutes } from './audit.routes.js';
import { AuditService } from './audit.service.js';

/** The audit log: written from domain events, read by its owner (and admins), part of the export. */
export function createAuditModule(platform: Platform): RiffModule {
  const audit = new AuditRepository(platform.scope);
  const service = new AuditService({ audit });
  return {
    name: 'audit',
    routes: { audit: auditRoutes(service) },
    eventHandlers: [auditTrail(audit)],
    accountData: { export: (owner) => service.exportFor(owner) },
  };
}

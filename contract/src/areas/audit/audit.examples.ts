/** Examples of the audit area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';

const AUDIT_ID = 'e4d3c2b1-a0f9-4e8d-9c7b-6a5f4e3d2c1b';

export const auditEntry = {
  id: AUDIT_ID,
  user_id: USER_ID,
  action: 'track.update',
  resource: 'track',
  resource_id: TRACK_ID,
  ip_address: '203.0.113.24',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0',
  metadata: { fields: ['title', 'genres'] },
  created_at: UPDATED,
};

export const AUDIT_EXAMPLES: Record<string, unknown> = {
  AuditEntry: auditEntry,
  AuditActivity: { activities: [auditEntry] },
  AuditLogPage: { logs: [auditEntry], pagination: onePage(1) },
  AuditStatsReply: {
    stats: {
      total: 1,
      by_action: { 'track.update': 1 },
      by_resource: { track: 1 },
      first_at: UPDATED,
      last_at: UPDATED,
    },
  },
};

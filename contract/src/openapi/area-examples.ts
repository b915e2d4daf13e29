/**
 * The examples of openapi.json, gathered from each area's <area>.examples.ts (see
 * common/common.examples.ts). An area adds its file to this list.
 */
import { COMMON_EXAMPLES } from '../common/common.examples.js';
import { ANALYTICS_EXAMPLES } from '../areas/analytics/analytics.examples.js';
import { ADMIN_EXAMPLES } from '../areas/admin/admin.examples.js';
import { APPEALS_EXAMPLES } from '../areas/appeals/appeals.examples.js';
import { AUDIT_EXAMPLES } from '../areas/audit/audit.examples.js';
import { AUTH_EXAMPLES } from '../areas/auth/auth.examples.js';
import { COMMENTS_EXAMPLES } from '../areas/comments/comments.examples.js';
import { COPYRIGHT_EXAMPLES } from '../areas/copyright/copyright.examples.js';
import { DASHBOARD_EXAMPLES } from '../areas/dashboard/dashboard.examples.js';
import { DEVELOPER_EXAMPLES } from '../areas/developer/developer.examples.js';
import { GROUPS_EXAMPLES } from '../areas/groups/groups.examples.js';
import { FRONTEND_EXAMPLES } from '../areas/frontend/frontend.examples.js';
import { GROUP_POSTS_EXAMPLES } from '../areas/group-posts/group-posts.examples.js';
import { GEAR_EXAMPLES } from '../areas/gear/gear.examples.js';
import { COURSES_EXAMPLES } from '../areas/courses/courses.examples.js';
import { CLOUD_EXAMPLES } from '../areas/cloud/cloud.examples.js';
import { MARKETPLACE_EXAMPLES } from '../areas/marketplace/marketplace.examples.js';
import { MEDIA_EXAMPLES } from '../areas/media/media.examples.js';
import { NOTIFICATIONS_EXAMPLES } from '../areas/notifications/notifications.examples.js';
import { MODERATION_EXAMPLES } from '../areas/moderation/moderation.examples.js';
import { PLAYLISTS_EXAMPLES } from '../areas/playlists/playlists.examples.js';
import { QUEUE_EXAMPLES } from '../areas/queue/queue.examples.js';
import { SANCTIONS_EXAMPLES } from '../areas/sanctions/sanctions.examples.js';
import { SEARCH_EXAMPLES } from '../areas/search/search.examples.js';
import { SOCIAL_EXAMPLES } from '../areas/social/social.examples.js';
import { SUBSONIC_EXAMPLES } from '../areas/subsonic/subsonic.examples.js';
import { SYSTEM_EXAMPLES } from '../areas/system/system.examples.js';
import { TRACKS_EXAMPLES } from '../areas/tracks/tracks.examples.js';
import { USERS_EXAMPLES } from '../areas/users/users.examples.js';
import { WEBHOOKS_EXAMPLES } from '../areas/webhooks/webhooks.examples.js';

/** Every area's examples by component name; a name given twice is a mistake, refused at generation. */
export const COMPONENT_EXAMPLES: Record<string, unknown> = {};
for (const examples of [
  COMMON_EXAMPLES,
  ADMIN_EXAMPLES,
  ANALYTICS_EXAMPLES,
  APPEALS_EXAMPLES,
  AUDIT_EXAMPLES,
  AUTH_EXAMPLES,
  COMMENTS_EXAMPLES,
  COPYRIGHT_EXAMPLES,
  DASHBOARD_EXAMPLES,
  DEVELOPER_EXAMPLES,
  FRONTEND_EXAMPLES,
  GROUPS_EXAMPLES,
  GROUP_POSTS_EXAMPLES,
  GEAR_EXAMPLES,
  COURSES_EXAMPLES,
  CLOUD_EXAMPLES,
  MARKETPLACE_EXAMPLES,
  MEDIA_EXAMPLES,
  NOTIFICATIONS_EXAMPLES,
  MODERATION_EXAMPLES,
  PLAYLISTS_EXAMPLES,
  QUEUE_EXAMPLES,
  SANCTIONS_EXAMPLES,
  SEARCH_EXAMPLES,
  SOCIAL_EXAMPLES,
  SUBSONIC_EXAMPLES,
  SYSTEM_EXAMPLES,
  TRACKS_EXAMPLES,
  USERS_EXAMPLES,
  WEBHOOKS_EXAMPLES,
]) {
  for (const [name, example] of Object.entries(examples)) {
    if (name in COMPONENT_EXAMPLES) throw new Error(`Two examples for the schema ${name}`);
    COMPONENT_EXAMPLES[name] = example;
  }
}

import type { Actor } from '../../platform/access/actor.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { GroupAccess, GroupReader } from './group-reader.js';
import type { GroupsRepository, GroupView } from './groups.repository.js';
import { canReadGroup } from './groups.policy.js';

const access = (view: GroupView): GroupAccess => ({
  id: view.id,
  name: view.name,
  slug: view.slug,
  owner_id: view.owner_id,
  visibility: view.visibility,
  post_count: view.post_count,
  role: view.my_role,
});

/**
 * A group as one caller reaches it (canReadGroup), for the area's services and, as the GroupReader
 * port, for every other area: one rule, so a group 404 on its routes is 404 wherever it is named.
 */
export class GroupViews implements GroupReader {
  constructor(private readonly groups: GroupsRepository) {}

  /** The caller's view of the group, if they may reach it. */
  async view(actor: Actor, id: string): Promise<GroupView | undefined> {
    const view = await this.groups.view(id, actor.id);
    return view && canReadGroup(actor, view) ? view : undefined;
  }

  /** The caller's view of the group, or 404. */
  async required(actor: Actor, id: string): Promise<GroupView> {
    const view = await this.view(actor, id);
    if (!view) throw notFound('Group');
    return view;
  }

  async readable(actor: Actor, groupId: string): Promise<GroupAccess | undefined> {
    const view = await this.view(actor, groupId);
    return view && access(view);
  }

  async readableMany(actor: Actor, ids: readonly string[]): Promise<Map<string, GroupAccess>> {
    const views = await this.groups.views([...new Set(ids)], actor.id);
    return new Map(views.filter((view) => canReadGroup(actor, view)).map((view) => [view.id, access(view)]));
  }
}

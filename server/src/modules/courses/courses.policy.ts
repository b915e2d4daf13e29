import type { Actor } from '../../platform/access/actor.js';
import { moderationAllows } from '../../platform/access/moderation.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { CourseView } from './courses.repository.js';

/** The instructor, admins and staff: who sees a course whatever its status. */
const isInstructorOrStaff = (actor: Actor, view: CourseView) =>
  isOwnerOrAdmin(actor, view.instructor_id) || (actor.kind === 'user' && actor.isStaff);

/** Whether the caller is one of the course's current learners. */
export const isEnrolled = (view: CourseView) => view.my_enrolled_at !== null;

/**
 * Who reaches a course. Moderation first: hidden or removed is, for everyone but its instructor and
 * staff, as if deleted. Then status: a published course is everyone's; a draft its instructor's and
 * staff's; an archived course also its current learners'.
 */
export function canReadCourse(actor: Actor, view: CourseView): boolean {
  if (!moderationAllows(actor, view.moderation_status, view.instructor_id)) return false;
  if (view.status === 'published' || isInstructorOrStaff(actor, view)) return true;
  return view.status === 'archived' && isEnrolled(view);
}

/** The instructor and admins edit a course, its lessons and its cover, and delete it. */
export const canEditCourse = (actor: Actor, view: CourseView) => isOwnerOrAdmin(actor, view.instructor_id);

/** Who reads a lesson's content: its current learners, the instructor and staff, anyone for a preview lesson. */
export const canReadLessonContent = (actor: Actor, view: CourseView, isPreview: boolean) =>
  isPreview || isEnrolled(view) || isInstructorOrStaff(actor, view);

/** Who may create courses: creators and admins. */
export const mayTeach = (actor: Actor) =>
  actor.kind === 'system' || (actor.kind === 'user' && (actor.isAdmin || actor.user.role === 'creator'));

/** A review goes by its author or staff. */
export const canDeleteReview = (actor: Actor, authorId: string) =>
  isOwnerOrAdmin(actor, authorId) || (actor.kind === 'user' && actor.isStaff);
